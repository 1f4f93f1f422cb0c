package alphazero

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/train"
)

// TestGumbelRunWithSimsSchedule: a tiny run with root: gumbel and a
// simulation schedule trains and evaluates; each iteration's search has the
// schedule's count and the Gumbel rule with noise, the evaluation's none.
func TestGumbelRunWithSimsSchedule(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := tinyConfig(t, dir, "search.root=gumbel", "search.sims={steps: {1: 4, 2: 12}}", "search.gumbel.m=4")
	for it, want := range map[int]int{1: 4, 2: 12} {
		lc := lockstepConfig(&cfg, env.RewardMatchPoints, it)
		if lc.Search.Sims != want || lc.Search.Rule != classic.Gumbel || lc.Search.Gumbel.Noise != 1 || lc.Search.Gumbel.M != 4 {
			t.Errorf("iteration %d: search %+v, want %d simulations under the Gumbel rule with noise, m 4", it, lc.Search, want)
		}
	}
	if mc := searchConfig(&cfg, env.RewardMatchPoints, 8); mc.Rule != classic.Gumbel || mc.Gumbel.Noise != 0 {
		t.Errorf("evaluation search %+v: want Gumbel without noise", mc)
	}
	if _, err := train.Run(context.Background(), cfg, train.Options{}); err != nil {
		t.Fatal(err)
	}
	tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 2 {
		t.Fatalf("%d rows, want 2", len(tab.Rows))
	}
	for _, v := range tab.Column("policy_loss") {
		if math.IsNaN(v) || v < 0 {
			t.Errorf("policy_loss %v", v)
		}
	}
}

// TestBestOpponent: evaluation.opponents may list best, the run's best
// network so far, which the candidate is scored against like any agent.
func TestBestOpponent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := tinyConfig(t, dir, "evaluation.every=1", "evaluation.opponents=[random, best]")
	if _, err := train.Run(context.Background(), cfg, train.Options{}); err != nil {
		t.Fatal(err)
	}
	tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	col := tab.Column("score_best")
	if len(col) != 2 {
		t.Fatalf("score_best %v: want 2 rows", col)
	}
	for i, v := range col {
		if !(v >= 0 && v <= 1) {
			t.Errorf("iteration %d: score against best %v", i+1, v)
		}
	}
}
