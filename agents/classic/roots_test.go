package classic_test

import (
	"math"
	"testing"

	"github.com/urim-rl/urim/agents/agenttest"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
)

// TestMCTSRootMoves: the root moves add up to the visits LastSearch
// reports, the first is the move played with the value reported, and each
// line starts with its move and follows the rules.
func TestMCTSRootMoves(t *testing.T) {
	g := env.MustGame(env.Urim)
	for _, threads := range []int{1, 3} {
		m, err := classic.NewMCTS(classic.MCTSConfig{Sims: 600, C: 1.4, Threads: threads}, 7)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range agenttest.RandomPositions(g, 12, 3) {
			a, err := m.Act(&s)
			if err != nil {
				t.Fatal(err)
			}
			info := m.LastSearch()
			roots, err := m.RootMoves(&s)
			if err != nil {
				t.Fatal(err)
			}
			if len(roots) == 0 || roots[0].Action != a || math.Abs(roots[0].Value-info.Value) > 1e-9 {
				t.Fatalf("threads %d, %v: roots %+v, played %d with value %g", threads, s, roots, a, info.Value)
			}
			sum := 0
			for _, r := range roots {
				sum += r.Visits
				if r.Visits != info.Visits[r.Action] || r.Value < -1 || r.Value > 1 || r.PV[0] != r.Action {
					t.Fatalf("%v: root move %+v, visits %v", s, r, info.Visits)
				}
				u := s
				for _, x := range r.PV {
					if u.Terminal() || !u.Legal().Has(x) {
						t.Fatalf("%v: line %v is not playable", s, r.PV)
					}
					u.Play(x)
				}
			}
			if want := info.Depth - threads; sum < want-len(roots) || sum > info.Depth {
				t.Fatalf("%v: root moves hold %d visits of %d", s, sum, info.Depth)
			}
			other := s
			other.Play(a)
			if !other.Terminal() {
				if _, err := m.RootMoves(&other); err == nil {
					t.Fatal("RootMoves answered for a position the last search was not of")
				}
			}
		}
	}
}

// TestAlphaBetaRootMoves: every legal move gets its exact minimax value
// one ply less deep (for the mover), the best of them is the value of the
// search, best first.
func TestAlphaBetaRootMoves(t *testing.T) {
	for _, name := range []string{"urim", "urim7"} {
		g, err := env.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		for depth := 1; depth <= 4; depth++ {
			ab := classic.NewAlphaBeta(classic.AlphaBetaConfig{Depth: depth, TTBits: 12})
			for _, s := range agenttest.RandomPositions(g, 10, uint64(depth)) {
				if _, err := ab.Act(&s); err != nil {
					t.Fatal(err)
				}
				roots, err := ab.RootMoves(&s)
				if err != nil {
					t.Fatal(err)
				}
				if len(roots) != s.Legal().Count() || int(roots[0].Value) != int(ab.LastSearch().Value) {
					t.Fatalf("%s depth %d, %v: roots %+v, value %g", name, depth, s, roots, ab.LastSearch().Value)
				}
				for i, r := range roots {
					u := s
					u.Play(r.Action)
					if want := -minimax(&u, depth-1); int(r.Value) != want || (i > 0 && r.Value > roots[i-1].Value) {
						t.Fatalf("%s depth %d, %v: move %d valued %g, minimax %d (roots %+v)", name, depth, s, r.Action, r.Value, want, roots)
					}
					if r.PV[0] != r.Action || len(r.PV) > depth {
						t.Fatalf("%v: line %v for move %d at depth %d", s, r.PV, r.Action, depth)
					}
				}
			}
		}
	}
}
