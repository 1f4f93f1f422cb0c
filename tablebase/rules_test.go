package tablebase

import (
	"testing"

	"github.com/urim-rl/urim/env"
)

// TestMovesMatchEnv compares the solver's move generator with env on every
// board of up to 6 seeds (up to 9 on the tiny board, where pits fill up),
// both players to move: the legal actions, the board after each move and
// the seeds captured.
func TestMovesMatchEnv(t *testing.T) {
	for _, c := range []struct {
		rules env.Rules
		k     int
	}{{env.Urim, 6}, {env.Oware, 5}, {env.Urim7, 5}, {tiny, 9}} {
		if testing.Short() {
			c.k = min(c.k, 4)
		}
		g := env.MustGame(c.rules)
		r, err := compile(c.rules)
		if err != nil {
			t.Fatal(err)
		}
		x := newIndex(r.n, c.k)
		for n := 0; n <= c.k; n++ {
			var b [16]uint8
			x.unrank(0, n, &b)
			for more := true; more; more = x.next(&b) {
				if !r.valid(&b) {
					continue
				}
				for mover := 0; mover < 2; mover++ {
					store := storesFor(g, n)
					if len(store) == 0 {
						continue
					}
					s := position(t, g, &b, mover, store[0])
					legal := r.legal(&b)
					if s.Terminal() { // no legal move (env reports none once the game has ended)
						if s.Reason() != env.EndNoLegalMove || legal != 0 {
							t.Fatalf("%s: env ends the game (%s), the solver has actions %b", s.String(), s.Reason(), legal)
						}
						continue
					}
					if uint8(s.Legal()) != legal {
						t.Fatalf("%s %s: env's legal actions %b, the solver's %b", c.rules.Name, s.String(), s.Legal(), legal)
					}
					for a := 0; a < r.p; a++ {
						if legal>>uint(a)&1 == 0 {
							continue
						}
						child := b
						k := r.play(&child, a)
						e := s
						e.Play(a)
						if got := e.Store(mover) - s.Store(mover); got != k {
							t.Fatalf("%s action %d: env captures %d, the solver %d", s.String(), a, got, k)
						}
						if want := canonical(&e, r.p); flipped(r, child) != want {
							t.Fatalf("%s action %d: env gives %v, the solver %v", s.String(), a, want[:r.n], child[:r.n])
						}
					}
				}
			}
		}
	}
}

func flipped(r rules, b [16]uint8) [16]uint8 {
	r.flip(&b)
	return b
}
