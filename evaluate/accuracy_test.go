package evaluate_test

import (
	"context"
	"math"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/tablebase/tbtest"

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)

// TestAccuracy scores the table's own agent (perfect: every move keeps the
// value) and random (which must lose something) on both sources.
func TestAccuracy(t *testing.T) {
	path, tb := tbtest.File(t, env.Urim, 6)
	n := 200
	if testing.Short() {
		n = 50
	}
	for _, source := range []string{"uniform", "selfplay:greedy"} {
		perfect, err := evaluate.Accuracy(context.Background(), evaluate.AccuracyConfig{
			Agent: "tb:file=" + path, Table: tb, Positions: n, Source: source, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		if perfect.Undecided > perfect.Skipped || perfect.Sampled != perfect.Skipped+n {
			t.Fatalf("%s: %d sampled, %d skipped, %d of them undecided", source, perfect.Sampled, perfect.Skipped, perfect.Undecided)
		}
		if perfect.All.Positions != n || perfect.All.Best != n || perfect.All.Loss != 0 {
			t.Fatalf("%s: the table's agent: %+v, want %d of %d best and no loss", source, perfect.All, n, n)
		}
		rnd, err := evaluate.Accuracy(context.Background(), evaluate.AccuracyConfig{
			Agent: "random", Table: tb, Positions: n, Source: source, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		if rnd.All.Best == n || rnd.All.Loss <= 0 || rnd.All.ShareLo > rnd.All.Share || rnd.All.ShareHi < rnd.All.Share {
			t.Fatalf("%s: random: %+v", source, rnd.All)
		}
	}
	// An agent built by New (a network in memory, say) is scored like the
	// same agent named by its spec.
	spec, err := evaluate.Accuracy(context.Background(), evaluate.AccuracyConfig{Agent: "random", Table: tb, Positions: n, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	built, err := evaluate.Accuracy(context.Background(), evaluate.AccuracyConfig{Agent: "mine", Table: tb, Positions: n, Seed: 9,
		New: func(seed uint64) (agents.Agent, error) { return agents.New("random", seed) }})
	if err != nil {
		t.Fatal(err)
	}
	if built.Agent != "mine" || built.All != spec.All {
		t.Fatalf("New: %s %+v; the spec: %+v", built.Agent, built.All, spec.All)
	}
	if _, err := evaluate.Accuracy(context.Background(), evaluate.AccuracyConfig{Agent: "random", Table: tb, Source: "replay"}); err == nil {
		t.Fatal("an unknown source gave no error")
	}
}

// TestAccuracyMinSeeds scores only positions of the top layers with
// MinSeeds, from both sources (positions that a training table of fewer
// seeds never covered), and refuses MinSeeds above K.
func TestAccuracyMinSeeds(t *testing.T) {
	_, tb := tbtest.File(t, env.Urim, 6)
	for _, source := range []string{"uniform", "selfplay:alphabeta:depth=2", "selfplay:mcts:sims=20"} {
		rep, err := evaluate.Accuracy(context.Background(), evaluate.AccuracyConfig{
			Agent: "greedy", Table: tb, Positions: 30, Source: source, MinSeeds: 5, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if rep.MinSeeds != 5 || rep.All.Positions != 30 || len(rep.BySeeds) == 0 {
			t.Fatalf("%s: %+v", source, rep)
		}
		for _, r := range rep.BySeeds {
			if r.Seeds < 5 || r.Seeds > 6 {
				t.Fatalf("%s: a row of %d seeds, want 5 or 6", source, r.Seeds)
			}
		}
	}
	if _, err := evaluate.Accuracy(context.Background(), evaluate.AccuracyConfig{Agent: "greedy", Table: tb, MinSeeds: 7}); err == nil {
		t.Fatal("MinSeeds above K gave no error")
	}
}

// TestWilson checks the interval against a worked value: 8 of 10 gives
// 0.490–0.943 (Wilson 1927, as tabulated by Newcombe 1998).
func TestWilson(t *testing.T) {
	lo, hi := evaluate.Wilson(8, 10)
	if math.Abs(lo-0.4902) > 5e-4 || math.Abs(hi-0.9433) > 5e-4 {
		t.Fatalf("Wilson(8, 10) = %.4f–%.4f, want 0.4902–0.9433", lo, hi)
	}
}
