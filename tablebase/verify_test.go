package tablebase

import (
	"testing"

	"github.com/urim-rl/urim/env"
)

// verifier checks a table by its strategies: from a position it lets one
// side play the table's move (Table.Pick) while the other side tries every legal
// move, all through env (so every capture, feeding and repetition ending is
// the engine's), and returns what the side is sure of. The outcome of a
// position is memoized only when no line below it ended by repetition: only
// then does it not depend on how the position was reached. (The table's
// ranks leave repetitions only where the side's bound is 0.) Where the table promises the side nothing beyond its store,
// the search answers with the store, which is true whatever follows.
type verifier struct {
	t    testing.TB
	tb   *Table
	memo map[vkey]int
}

type vkey struct {
	pos  posKey
	side int
}

// guaranteed returns the final seeds (store plus row) side ends with from
// s when it follows the table and its opponent plays every move, and
// whether a repetition ending was met.
func (v *verifier) guaranteed(s *env.State, side int) (int, bool) {
	if s.Terminal() {
		return s.FinalStores()[side], s.Reason() == env.EndRepetition
	}
	k := vkey{keyOf(s), side}
	if r, ok := v.memo[k]; ok {
		return r, false
	}
	// Where the table promises the side nothing more than its store, the
	// store is a sound answer for every history (stores never shrink), and
	// the search stops: this is also where the table's ranks allow cycles.
	e, err := v.tb.Probe(s)
	if err != nil {
		v.t.Fatalf("%s: %v", s.String(), err)
	}
	promise := e.Lower
	if s.ToMove() != side {
		promise = e.Seeds - e.Upper
	}
	if promise == 0 {
		return s.Store(side), false
	}
	var r int
	var rep bool
	if s.ToMove() == side {
		m, _, err := v.tb.Pick(s)
		if err != nil {
			v.t.Fatalf("%s: %v", s.String(), err)
		}
		c := *s
		c.Play(m.Action)
		r, rep = v.guaranteed(&c, side)
	} else {
		r = 1 << 30
		for m := s.Legal(); m != 0; m &= m - 1 {
			c := *s
			c.Play(m.Nth(0))
			cr, crep := v.guaranteed(&c, side)
			r, rep = min(r, cr), rep || crep
		}
	}
	if !rep {
		v.memo[k] = r
	}
	return r, rep
}
