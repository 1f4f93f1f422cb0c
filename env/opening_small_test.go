package env

import (
	"strings"
	"testing"
)

// tinyRules is a board on which every game ends within a few plies.
func tinyRules() Rules {
	r := Urim
	r.Name, r.PitsPerRow, r.SeedsPerPit = "tiny", 2, 1
	return r
}

// TestOpeningLongerThanAnyGame: on a 2×2 board of 1 seed no game outlasts
// 7 plies, so CheckOpening refuses 8 opening plies with an error that says
// the most there can be, a Vec refuses them, and openings of 7 are drawn
// for every seed and episode without a panic, leaving the game running.
func TestOpeningLongerThanAnyGame(t *testing.T) {
	g := MustGame(tinyRules())
	if err := g.CheckOpening(8); err == nil || !strings.Contains(err.Error(), "want at most 7 opening plies") {
		t.Fatalf("CheckOpening(8): %v", err)
	}
	if err := g.CheckOpening(7); err != nil {
		t.Fatalf("CheckOpening(7): %v", err)
	}
	if _, err := NewVec(g, 4, VecOptions{OpeningPlies: 8}); err == nil {
		t.Error("a Vec took 8 opening plies")
	}
	for seed := range uint64(300) {
		s := g.Start()
		for _, a := range g.RandomOpening(7, seed) {
			if s.Terminal() {
				t.Fatalf("seed %d: the opening goes on after the game ended", seed)
			}
			s.Play(a)
		}
		if s.Terminal() {
			t.Fatalf("seed %d: the opening ends the game", seed)
		}
	}
	v, err := NewVec(g, 8, VecOptions{OpeningPlies: 7, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	v.Reset()
	acts := make([]int32, 8)
	for range 50 {
		for i, m := range v.Legal() {
			if len(v.Opening(i, nil)) != 7 {
				t.Fatal("an opening of another length")
			}
			if acts[i] = 0; m != 0 {
				acts[i] = int32(m.Nth(0))
			}
		}
		if err := v.Step(acts); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFirstOpeningFallback: the opening a draw falls back on stays in the
// game and is the same every time.
func TestFirstOpeningFallback(t *testing.T) {
	g := MustGame(tinyRules())
	a, b := make([]int, 7), make([]int, 7)
	g.firstOpening(a)
	g.firstOpening(b)
	s := g.Start()
	for i, m := range a {
		if s.Terminal() || m != b[i] {
			t.Fatalf("opening %v, again %v", a, b)
		}
		s.Play(m)
	}
	if s.Terminal() {
		t.Fatalf("opening %v ends the game", a)
	}
}
