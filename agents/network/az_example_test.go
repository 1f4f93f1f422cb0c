package network_test

import (
	"context"
	"fmt"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/agents/network"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// Self-play for training: 8 games searched in lock-step, one forward pass
// per round for all of them, with root noise, sampled opening moves and
// playout-cap randomization; the hook receives every move's policy target
// and root value.
func ExampleLockstep_Play() {
	net, err := nn.New(nn.Arch{Kind: nn.KindMLP, Width: 32, Depth: 1}, env.Urim, env.EncodingCompact, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	l, err := network.NewLockstep(net, classic.LockstepConfig{
		Games:      8,
		Search:     classic.MCTSConfig{Sims: 32, Rule: classic.PUCT},
		NoiseAlpha: 0.3, NoiseFrac: 0.25,
		Moves: classic.SelfPlayPolicy{FastSims: 8, FullProb: 0.25, Temperature: 1, TempPlies: 20},
	}, 1, 7)
	if err != nil {
		fmt.Println(err)
		return
	}
	finished, targets := 0, 0
	err = l.Play(context.Background(), 10, func(m *classic.SelfPlayMove) error {
		if m.Search.Full {
			targets++ // record m.Before, m.Search.Policy and, at the end, the result
		}
		if m.Final != nil {
			finished++
		}
		return nil
	})
	fmt.Println(finished, "games finished, error:", err, "policy targets:", targets > 0)
	// Output: 10 games finished, error: <nil> policy targets: true
}
