package dataset

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/urim-rl/urim/env"
)

// TestRecordMargins: the margins a record gives its rows are, for a game
// played out, the outcomes a seed_margin recorder writes (each row's
// mover's (own − opponent's final seeds) / T); for a resigned game, those of
// the winner taking the seeds left on the board.
func TestRecordMargins(t *testing.T) {
	for _, rules := range []env.Rules{env.Urim4, env.Urim, env.Oware} {
		g := env.MustGame(rules)
		rng := rand.New(rand.NewPCG(2, 3))
		rec := NewRecorder(g, env.EncodingCompact, env.RewardSeedMargin)
		for k := range 40 {
			rec.Start(int64(k), 0, [2]string{"x", "x"}, []int{})
			s := g.Start()
			resignAt := -1
			if k%3 == 0 {
				resignAt = 1 + rng.IntN(30)
			}
			for !s.Terminal() && s.Ply() != resignAt {
				m := s.Legal()
				a := m.Nth(rng.IntN(m.Count()))
				if rng.IntN(3) == 0 {
					rec.Skip(&s, a) // no row: the rows' plies are not every ply
				} else {
					rec.Add(&s, a, nil)
				}
				s.Play(a)
			}
			var gm *Game
			if s.Terminal() {
				gm = rec.Finish(&s)
			} else {
				gm = rec.Resign(&s, s.ToMove())
			}
			got := make([]float32, gm.Record.Positions)
			gm.Record.Margins(got, gm.Ply)
			want := slices.Clone(gm.Outcome)
			if gm.Record.Reason == Resigned {
				f := [2]int{s.Store(0), s.Store(1)}
				w := 1 - s.ToMove()
				f[w] += g.Total() - f[0] - f[1]
				for i, p := range gm.Ply {
					me := int(p) % 2
					want[i] = float32(f[me]-f[1-me]) / float32(g.Total())
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s game %d (%s): margins %v, want %v", rules.Name, k, gm.Record.Reason, got, want)
			}
		}
	}
}
