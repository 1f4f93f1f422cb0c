package tablebase

import (
	"errors"
	"fmt"

	"github.com/urim-rl/urim/env"
)

// ErrNotInTable is returned for a position with more than K seeds on the
// board.
var ErrNotInTable = errors.New("tablebase: position not in the table")

// Entry is what the table knows of a position: bounds on the seeds, of the
// Seeds on the board, that the player to move ends with under perfect play
// from this position with a fresh repetition history (see
// docs/tablebase.md for positions with a history).
type Entry struct {
	Seeds int `json:"seeds"` // seeds on the board
	Lower int `json:"lower"` // the mover can make sure of at least this many
	Upper int `json:"upper"` // the opponent can hold the mover to at most this
	// Rank is the progress rank of the upper bound's analysis (the round at
	// which it settled); an agent holding its lower bound moves to the child
	// of least rank. 0 for terminal positions.
	Rank int `json:"rank"`
}

// Exact reports whether the bounds meet.
func (e Entry) Exact() bool { return e.Lower == e.Upper }

// Probe returns the table's entry for s. A finished game is exact: each
// player keeps its row.
func (t *Table) Probe(s *env.State) (Entry, error) {
	if err := t.check(s); err != nil {
		return Entry{}, err
	}
	mover := s.ToMove()
	n := s.RowSeeds(0) + s.RowSeeds(1)
	if n > t.k && !s.Terminal() {
		return Entry{Seeds: n}, fmt.Errorf("%w: %d seeds on the board, the table holds at most %d", ErrNotInTable, n, t.k)
	}
	if s.Terminal() {
		own := s.RowSeeds(mover)
		return Entry{Seeds: n, Lower: own, Upper: own}, nil
	}
	b := canonical(s, t.r.p)
	g, ok := t.lookup(&b, n, s.Store(mover))
	if !ok {
		return Entry{Seeds: n}, fmt.Errorf("%w: stores %d-%d outside the table's range", ErrNotInTable, s.Store(0), s.Store(1))
	}
	lo, hi, rank := t.entry(g)
	return Entry{Seeds: n, Lower: lo, Upper: hi, Rank: rank}, nil
}

// check reports whether s is played under the table's rules.
func (t *Table) check(s *env.State) error { return t.CheckGame(s.Game()) }

// CheckGame returns an error wrapping [ErrMismatch] if g is not the game the
// table was built for (its rules differ; the name alone does not matter),
// nil otherwise. After the first success for g it costs one comparison, so
// agents call it at every move to refuse a table for other rules before
// they rely on it.
func (t *Table) CheckGame(g *env.Game) error {
	if t.matched.Load() == g {
		return nil
	}
	if d := sameRules(t.rules, g.Rules()); d != "" {
		return fmt.Errorf("%w: table for %s, position under %s (%s)", ErrMismatch, t.rules.Name, g.Name(), d)
	}
	t.matched.Store(g)
	return nil
}

// canonical returns the pits of s with the mover's row first.
func canonical(s *env.State, p int) [16]uint8 {
	var b [16]uint8
	off := s.ToMove() * p
	for i := 0; i < 2*p; i++ {
		b[i] = uint8(s.Pit((i + off) % (2 * p)))
	}
	return b
}
