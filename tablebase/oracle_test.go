package tablebase

import (
	"fmt"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
)

// The oracle is an exhaustive search written only against env: it plays
// every line with env's own States, which carry the repetition history, so
// every repetition ending is decided by the engine along each path. Values
// are the seeds, of those on the board, that the player to move ends with.
// Positions right after a capture (an empty history) have a value that
// depends on the position alone, so they are memoized; inside a run without
// captures the search walks every path, with alpha-beta cut-offs.
type oracle struct {
	memo   map[posKey]int
	nodes  int
	budget int // panic with errBudget past this many nodes (0: none)
}

var errBudget = fmt.Errorf("oracle: node budget exhausted")

type posKey struct {
	pits   [MaxPits]uint8
	stores [2]int
	mover  int
}

func keyOf(s *env.State) posKey {
	k := posKey{stores: [2]int{s.Store(0), s.Store(1)}, mover: s.ToMove()}
	for i := 0; i < s.Game().Pits(); i++ {
		k.pits[i] = uint8(s.Pit(i))
	}
	return k
}

func boardSeeds(s *env.State) int { return s.RowSeeds(0) + s.RowSeeds(1) }

// value returns the value of s if it lies strictly inside (alpha, beta),
// else a bound on the correct side of the window (fail-soft). Positions with
// a fresh history below the root are searched with the full window and
// memoized.
func (o *oracle) value(s *env.State, alpha, beta int, root bool) int {
	o.nodes++
	if o.budget > 0 && o.nodes > o.budget {
		panic(errBudget)
	}
	mover := s.ToMove()
	if s.Terminal() {
		return s.FinalStores()[mover] - s.Store(mover)
	}
	n := boardSeeds(s)
	memo := !root && s.Quiet() == 0
	if memo {
		if v, ok := o.memo[keyOf(s)]; ok {
			return v
		}
		alpha, beta = -1, n+1
	}
	best := -1
	for m := s.Legal(); m != 0; m &= m - 1 {
		a := m.Nth(0)
		c := *s
		c.Play(a)
		took := c.Store(mover) - s.Store(mover)
		rest := n - took
		// v = took + rest - cv must beat max(alpha, best) and stay below beta.
		cv := o.value(&c, took+rest-beta, took+rest-max(alpha, best), false)
		if v := took + rest - cv; v > best {
			best = v
			if best >= beta {
				break
			}
		}
	}
	if memo {
		o.memo[keyOf(s)] = best
	}
	return best
}

// exact returns the value of s.
func (o *oracle) exact(s *env.State) int { return o.value(s, -1, boardSeeds(s)+1, true) }

// within searches s with the window (lo-1, hi+1): the result is the exact
// value when it lies in [lo, hi], and otherwise a bound proving that the
// value lies outside, which is all a check of the bounds [lo, hi] needs.
func (o *oracle) within(s *env.State, lo, hi int) int { return o.value(s, lo-1, hi+1, true) }

// position builds the State of canonical board b (the mover's row first)
// with the given mover and mover's store.
func position(t testing.TB, g *env.Game, b *[16]uint8, mover, store int) env.State {
	p := g.PitsPerRow()
	var abs [16]uint8
	for i := 0; i < 2*p; i++ {
		abs[(i+mover*p)%(2*p)] = b[i]
	}
	n := 0
	for i := 0; i < 2*p; i++ {
		n += int(b[i])
	}
	stores := [2]int{}
	stores[mover] = store
	stores[1-mover] = g.Total() - n - store
	var sb strings.Builder
	for i := 0; i < 2*p; i++ {
		switch {
		case i == p:
			sb.WriteByte('/')
		case i > 0:
			sb.WriteByte(',')
		}
		fmt.Fprint(&sb, abs[i])
	}
	fmt.Fprintf(&sb, " %d-%d %c 0", stores[0], stores[1], "SN"[mover])
	s, err := g.ParsePosition(sb.String())
	if err != nil {
		t.Fatalf("%s: %v", sb.String(), err)
	}
	return s
}
