package classic_test

import (
	"context"
	"github.com/urim-rl/urim/agents/agenttest"
	"math"
	"testing"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/agents/network"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// TestLockstepOneSim: searches of one simulation (sims 1, or fast sims 1
// under playout-cap randomization) play legal moves with a policy target
// that sums to 1, from fresh trees and reused ones, in positions where
// action 0 is illegal. A fresh root's one simulation only expands it, so
// the search used to report no visits and play action 0.
func TestLockstepOneSim(t *testing.T) {
	net, err := nn.LoadNet(agenttest.WriteNet(t, t.TempDir(), "urim", false))
	if err != nil {
		t.Fatal(err)
	}
	g := env.MustGame(env.Urim)
	// Openings that empty pit 0 of the mover, so that action 0 is illegal.
	start := func(int) env.State {
		s := g.Start()
		s.Play(0)
		s.Play(0)
		return s
	}
	if s := start(0); s.Legal().Has(0) {
		t.Fatal("the test's opening leaves action 0 legal")
	}
	for _, cfg := range []classic.LockstepConfig{
		{Games: 3, Search: classic.MCTSConfig{Sims: 1, Rule: classic.PUCT}, Moves: classic.SelfPlayPolicy{Start: start}},
		{Games: 3, Search: classic.MCTSConfig{Sims: 1, NoReuse: true, Rule: classic.PUCT}, Moves: classic.SelfPlayPolicy{Start: start}},
		{Games: 2, Search: classic.MCTSConfig{Sims: 8, Batch: 4, Rule: classic.PUCT},
			Moves: classic.SelfPlayPolicy{FastSims: 1, FullProb: 0.25, Start: start}},
		{Games: 2, Search: classic.MCTSConfig{Sims: 1, Batch: 8, Rule: classic.PUCT},
			Moves: classic.SelfPlayPolicy{Temperature: 1, TempPlies: 10, Start: start}},
	} {
		l, err := network.NewLockstep(net, cfg, 1, 7)
		if err != nil {
			t.Fatal(err)
		}
		err = l.Play(context.Background(), 4, func(m *classic.SelfPlayMove) error {
			if !m.Before.Legal().Has(m.Action) {
				t.Fatalf("%+v: played illegal action %d in %v", cfg, m.Action, m.Before)
			}
			var sum float64
			for a, p := range m.Search.Policy {
				if p > 0 && !m.Before.Legal().Has(a) {
					t.Fatalf("%+v: policy %g on illegal action %d", cfg, p, a)
				}
				sum += float64(p)
			}
			if math.Abs(sum-1) > 1e-5 {
				t.Fatalf("%+v: policy target sums to %g in %v", cfg, sum, m.Before)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
