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
	// Rank is the progress rank of the upper bound's analysis (the sweep at
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

// Move is the value of one legal action: bounds on the mover's seeds, of
// those on the board before the move.
type Move struct {
	Action   int  `json:"action"`
	Lower    int  `json:"lower"`
	Upper    int  `json:"upper"`
	Captured int  `json:"captured"`
	Ends     bool `json:"ends"` // the move ends the game (its value is exact)
	// Rank orders moves of equal lower bound for steady progress: -1 for a
	// move that captures or ends the game, else the child's rank.
	Rank int `json:"rank"`
}

// Moves returns the value of every legal action of s, in action order. The
// children are played by env, so a move that repeats a position of the
// history of s gets its exact value (each side keeps its row).
func (t *Table) Moves(s *env.State) ([]Move, error) {
	if err := t.check(s); err != nil {
		return nil, err
	}
	var out []Move
	mover := s.ToMove()
	for m := s.Legal(); m != 0; m &= m - 1 {
		a := m.Nth(0)
		c := *s
		c.Play(a)
		mv := Move{Action: a, Captured: c.Store(mover) - s.Store(mover)}
		if c.Terminal() {
			v := c.FinalStores()[mover] - s.Store(mover)
			mv.Lower, mv.Upper, mv.Ends, mv.Rank = v, v, true, -1
		} else {
			e, err := t.Probe(&c)
			if err != nil {
				return nil, err
			}
			mv.Lower = mv.Captured + e.Seeds - e.Upper
			mv.Upper = mv.Captured + e.Seeds - e.Lower
			mv.Rank = e.Rank
			if mv.Captured > 0 {
				mv.Rank = -1
			}
		}
		out = append(out, mv)
	}
	return out, nil
}

// Best returns the moves that keep the best lower bound, ordered by the
// agent's preference: least rank first (steady progress, which the lower
// bound's guarantee needs), then the higher upper bound, then the lower
// action. The first is the table's move.
func Best(moves []Move) []Move {
	best := -1
	for _, m := range moves {
		best = max(best, m.Lower)
	}
	var out []Move
	for _, m := range moves {
		if m.Lower == best {
			out = append(out, m)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && better(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func better(a, b Move) bool {
	if a.Rank != b.Rank {
		return a.Rank < b.Rank
	}
	if a.Upper != b.Upper {
		return a.Upper > b.Upper
	}
	return a.Action < b.Action
}
