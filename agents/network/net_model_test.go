package network

import (
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// countingModel is an nn.Model other than *nn.Net: it forwards to a network
// and counts the forward passes made, as another back-end's model would
// stand in for it.
type countingModel struct {
	nn.Model
	made int
}

func (m *countingModel) NewInference(maxBatch, threads int) nn.Inference {
	m.made++
	return m.Model.NewInference(maxBatch, threads)
}

// TestAgentsTakeAnyModel: the network agents and the lock-step search take
// the nn.Model interface, make their forward passes through it, and play as
// on the *nn.Net itself.
func TestAgentsTakeAnyModel(t *testing.T) {
	g := env.MustGame(env.Urim)
	net, err := nn.New(nn.Arch{Kind: nn.KindMLP, Width: 16, Depth: 1}, g.Rules(), env.EncodingCompact, 3)
	if err != nil {
		t.Fatal(err)
	}
	s := g.Start()
	play := func(a agents.Agent) int {
		t.Helper()
		m, err := a.Act(&s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := &countingModel{Model: net}
	if got, want := play(NewNeural(m, "x", 0, 1)), play(NewNeural(net, "x", 0, 1)); got != want {
		t.Errorf("neural: %d through the interface, %d on the net", got, want)
	}
	cfg := classic.MCTSConfig{Sims: 64, C: 1.5, Batch: 4}
	viaModel, err := NewAZ(m, "x", cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	onNet, err := NewAZ(net, "x", cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := play(viaModel), play(onNet); got != want {
		t.Errorf("az: %d through the interface, %d on the net", got, want)
	}
	if _, err := NewLockstep(m, classic.LockstepConfig{Games: 2, Search: classic.MCTSConfig{Sims: 8, Rule: classic.PUCT}}, 1, 1); err != nil {
		t.Fatal(err)
	}
	if m.made < 3 {
		t.Errorf("%d forward passes made through the model, want one per agent at least", m.made)
	}
}
