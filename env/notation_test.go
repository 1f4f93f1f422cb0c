package env

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestNotationStart(t *testing.T) {
	g := MustGame(Urim)
	s := g.Start()
	if got, want := s.String(), "3,3,3,3,3,3/3,3,3,3,3,3 0-0 S 0"; got != want {
		t.Fatalf("start = %q, want %q", got, want)
	}
}

func TestNotationRoundTripRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range PresetNames() {
		g, _ := Preset(name)
		for range 50 {
			s := g.Start()
			for {
				checkRoundTrip(t, g, s)
				if s.Terminal() {
					break
				}
				m := s.Legal()
				s.Play(m.Nth(rng.IntN(m.Count())))
			}
		}
	}
}

func checkRoundTrip(t *testing.T, g *Game, s State) {
	t.Helper()
	text := s.String()
	u, err := g.ParsePosition(text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	if !equalStates(&s, &u) {
		t.Fatalf("round trip of %q gives %q (end %s vs %s)", text, u.String(), s.Reason(), u.Reason())
	}
}

// equalStates compares everything a State holds, history included.
func equalStates(a, b *State) bool {
	if a.g != b.g || !a.SamePosition(b) || a.ply != b.ply || a.end != b.end || a.legal != b.legal {
		return false
	}
	return a.hist.anchor == b.hist.anchor && slices.Equal(a.hist.actions(), b.hist.actions())
}
