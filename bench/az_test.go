package bench

import (
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)

// TestAZ runs the benchmark briefly on a small network and checks that its
// report is consistent.
func TestAZ(t *testing.T) {
	net, err := nn.New(nn.Arch{Kind: nn.KindMLP, Width: 16, Depth: 1}, env.Oware, env.EncodingCompact, 1)
	if err != nil {
		t.Fatal(err)
	}
	rounds := 0
	cfg := train.Default() // no playout cap: every search has Sims
	r, err := AZ(AZOptions{Config: &cfg, Net: net, Games: 8, Sims: 16, Leaves: 2, Moves: 2, Progress: func(done, total int) {
		rounds++
		if done != rounds || total != 2 {
			t.Errorf("progress %d of %d after %d rounds", done, total, rounds)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Moves != 16 || r.Simulations != 16*16 || r.Rules != "oware" || r.Games != 8 || rounds != 2 {
		t.Fatalf("report %+v: want 16 moves of 16 simulations on oware", r)
	}
	if r.NetShare <= 0 || r.NetShare >= 1 || r.MeanBatch <= 1 || r.MeanBatch > 16 || r.SimsPerSec <= 0 {
		t.Fatalf("report %+v: want a share of time in (0, 1), batches of 2 to 16", r)
	}
	if _, err := AZ(AZOptions{Games: -1}); err == nil {
		t.Fatal("no error for -1 games")
	}
}

// BenchmarkAZ is the self-play of configs/urim.yaml (128 games in
// lock-step, 32 simulations, 8 leaves, no playout cap, resmlp 3×128 with
// layer norm); one op is one move of every game.
func BenchmarkAZ(b *testing.B) {
	for b.Loop() {
		r, err := AZ(AZOptions{Moves: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(r.SimsPerSec, "sims/s")
		b.ReportMetric(100*r.NetShare, "%net")
	}
}
