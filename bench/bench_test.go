package bench

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/urim-rl/urim/env"
)

// The harnesses run briefly; their figures are not judged, only that they
// count what they did and report rates that are positive and finite.

func TestGames(t *testing.T) {
	all, err := Games("all")
	if err != nil || len(all) != len(env.PresetNames()) {
		t.Fatalf("all: %d games, %v", len(all), err)
	}
	file := filepath.Join(t.TempDir(), "five.yaml")
	os.WriteFile(file, []byte("preset: urim\nseeds_per_pit: 5\n"), 0o644)
	gs, err := Games("oware, " + file)
	if err != nil || len(gs) != 2 || gs[1].Name() != file || gs[1].Rules().SeedsPerPit != 5 {
		t.Fatalf("oware and a file: %v", err)
	}
	if _, err := Games("urim,mancala"); err == nil {
		t.Error("an unknown preset was accepted")
	}
}

func TestPlayoutsAndSearch(t *testing.T) {
	g := env.MustGame(env.Urim)
	p := Playouts(g, 10*time.Millisecond, 2)
	if p.Games < 128 || p.Moves <= p.Games || p.MovesPerSecPerCore <= 0 || p.Threads != 2 {
		t.Errorf("playouts: %+v", p)
	}
	var calls, last int
	m, err := MCTS(g, MCTSOptions{Sims: 20, C: 1.4, Moves: 200, Progress: func(d, n int) { calls++; last = d }})
	if err != nil {
		t.Fatal(err)
	}
	if m.Sims != 200*20 || m.Games < 1 || m.SimsPerSecPerCore <= 0 || last != 200 || calls < 2 {
		t.Errorf("mcts: %+v (progress %d calls, last %d)", m, calls, last)
	}
	a := AlphaBeta(g, AlphaBetaOptions{Depth: 3, TTBits: 10, Positions: 4, Seed: 1})
	if a.Positions != 4 || a.Nodes < 4 || a.NodesPerSec <= 0 {
		t.Errorf("alphabeta: %+v", a)
	}
}

func TestEnv(t *testing.T) {
	g := env.MustGame(env.Urim)
	var done int
	rows, err := Env(g, EnvOptions{N: []int{8, 16}, Workers: []int{1, 2}, Steps: 64, AutoReset: env.AutoResetDisabled,
		Progress: func(d, n int) { done = d }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || done != 4 {
		t.Fatalf("%d rows, progress at %d", len(rows), done)
	}
	for _, r := range rows {
		if r.BatchSteps != int64((64+r.N-1)/r.N) || r.StepsPerSec <= 0 || r.ObsDim <= 0 || (r.Workers == 2 && r.Speedup <= 0) {
			t.Errorf("row %+v", r)
		}
	}
}

// TestPlayoutsZeroDuration: even a deadline already past gives finite rates
// (one round of games per thread), so JSON can hold them.
func TestPlayoutsZeroDuration(t *testing.T) {
	r := Playouts(env.MustGame(env.Urim), 0, 2)
	if r.Games == 0 || math.IsInf(r.MovesPerSecPerCore, 0) || math.IsNaN(r.MovesPerGame) {
		t.Errorf("%+v", r)
	}
}
