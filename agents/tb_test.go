package agents_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/tablebase"
)

// tableFile builds a small table for rules r into a temporary file.
func tableFile(t *testing.T, r env.Rules, k int) (string, *tablebase.Table) {
	t.Helper()
	tb, _, err := tablebase.Build(context.Background(), r, k, tablebase.Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), r.Name+".tb")
	if err := tb.Save(path); err != nil {
		t.Fatal(err)
	}
	return path, tb
}

// finish plays s to the end with players[mover] and returns the seeds,
// of those on the board at the start, that the player to move at the start
// ends with.
func finish(t *testing.T, s env.State, players [2]agents.Agent) int {
	t.Helper()
	me := s.ToMove()
	store := s.Store(me)
	for !s.Terminal() {
		a, err := players[s.ToMove()].Act(&s)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Check(a); err != nil {
			t.Fatal(err)
		}
		s.Play(a)
	}
	return s.FinalStores()[me] - store
}

// TestTBAgentKeepsValue plays the tb agent against itself from sampled
// table positions: the result must lie within the position's bounds, and
// equal its value where they meet; against random opponents the tb side
// must make at least its lower bound.
func TestTBAgentKeepsValue(t *testing.T) {
	k, games := 8, 400
	if testing.Short() {
		k, games = 6, 100
	}
	path, tb := tableFile(t, env.Urim, k)
	g := env.MustGame(env.Urim)
	spec := "tb:file=" + path + ",fallback=random"
	a, err := agents.New(spec, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := agents.New(spec, 2)
	rnd, _ := agents.New("random", 3)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < games; i++ {
		s, err := tb.Sample(g, 1+rng.IntN(k), rng)
		if err != nil {
			t.Fatal(err)
		}
		if s.Terminal() {
			continue
		}
		e, err := tb.Probe(&s)
		if err != nil {
			t.Fatal(err)
		}
		if v := finish(t, s, [2]agents.Agent{a, b}); v < e.Lower || v > e.Upper {
			t.Fatalf("%s: self-play ends with %d for the mover, the table says [%d, %d]", s.String(), v, e.Lower, e.Upper)
		}
		players := [2]agents.Agent{rnd, rnd}
		players[s.ToMove()] = a
		if v := finish(t, s, players); v < e.Lower {
			t.Fatalf("%s: tb against random ends with %d, below the lower bound %d", s.String(), v, e.Lower)
		}
	}
}

// TestTableHooks checks that alphabeta and mcts accept tb= and play legal
// moves, and that tb= and the tb agent refuse a missing file.
func TestTableHooks(t *testing.T) {
	path, _ := tableFile(t, env.Urim, 4)
	g := env.MustGame(env.Urim)
	s, err := g.ParsePosition("0,0,1,0,0,2/0,0,3,0,0,0 14-16 S 50")
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"alphabeta:depth=4,tb=" + path, "mcts:sims=200,tb=" + path, "tb:file=" + path} {
		a, err := agents.New(spec, 1)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		m, err := a.Act(&s)
		if err != nil || !s.Legal().Has(m) {
			t.Fatalf("%s: Act = %d, %v", spec, m, err)
		}
	}
	for _, spec := range []string{"alphabeta:tb=/nonexistent.tb", "mcts:tb=/nonexistent.tb", "tb:file=/nonexistent.tb", "tb"} {
		if _, err := agents.New(spec, 1); err == nil {
			t.Fatalf("%s: no error", spec)
		}
	}
}
