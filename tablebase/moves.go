package tablebase

import (
	"github.com/urim-rl/urim/env"
)

// Move is the value of one legal action from a position with its history:
// bounds on the mover's seeds, of those on the board before the move.
type Move struct {
	Action int `json:"action"`
	// Lower and Upper bound what the move yields from this position with
	// this history: for a move without a capture, the child's value with
	// the position's run in its history (the opponent may steer back into
	// a position already played and end the game by repetition), not the
	// child's value with a fresh history.
	Lower    int  `json:"lower"`
	Upper    int  `json:"upper"`
	Captured int  `json:"captured"`
	Ends     bool `json:"ends"` // the move ends the game (its value is exact)
	// Rank orders moves of equal lower bound for steady progress: -1 for a
	// move that captures or ends the game, else the child's rank.
	Rank int `json:"rank"`
	// TableLower and TableUpper are the table's figures with a fresh
	// history: what was captured plus the child's bounds as if its history
	// were fresh. They equal Lower and Upper for a capture or an ending.
	TableLower int `json:"table_lower"`
	TableUpper int `json:"table_upper"`
	// Status says whether the move is best, keeps the bound, may cycle,
	// is worse, or cannot be told, from this position with this history.
	Status Status `json:"status"`
}

// Moves returns the value of every legal action of s, in action order,
// from s with its history, each with its status. The children are played
// by env, so a move that repeats a position of the history of s gets its
// exact value (each side keeps its row); for the other moves without a
// capture the bounds account for the opponent steering back into the run
// of s (docs/tablebase.md, "Best moves").
func (t *Table) Moves(s *env.State) ([]Move, error) {
	moves, err := t.freshMoves(s)
	if err != nil || len(moves) == 0 {
		return moves, err
	}
	if err := t.inRun(s, moves, wantAll); err != nil {
		return nil, err
	}
	classify(moves)
	return moves, nil
}

// Pick returns the table's move from s with its history, Pick(t.Moves(s)),
// with only the work that move needs (the `tb` agent plays it). It returns
// false when s has no legal move.
func (t *Table) Pick(s *env.State) (Move, bool, error) {
	moves, err := t.freshMoves(s)
	if err != nil || len(moves) == 0 {
		return Move{}, false, err
	}
	if err := t.inRun(s, moves, wantPick); err != nil {
		return Move{}, false, err
	}
	return Pick(moves), true, nil
}

// Best returns the moves the table calls best from s with its history
// (status best, or keeps-bound where the position is not exact), the
// table's move first; see [Best]. From a fresh history (s.Quiet() is 0) a
// table with the stored best moves ([Table.HasStoredMoves]) answers from
// them and the children's entries, without analysing the run; each move's
// figures are then its fresh-history figures (TableLower, TableUpper).
func (t *Table) Best(s *env.State) ([]Move, error) {
	if s.Quiet() == 0 && t.analysis != nil && !s.Terminal() {
		keep, ok, err := t.storedBest(s)
		if err != nil {
			return nil, err
		}
		if ok {
			e, err := t.Probe(s)
			if err != nil {
				return nil, err
			}
			moves, err := t.freshMoves(s)
			if err != nil {
				return nil, err
			}
			var out []Move
			for _, m := range moves {
				if keep.Has(m.Action) {
					m.Status = StatusKeepsBound
					if e.Exact() {
						m.Status = StatusBest
					}
					out = append(out, m)
				}
			}
			sortMoves(out)
			return out, nil
		}
	}
	moves, err := t.Moves(s)
	if err != nil {
		return nil, err
	}
	return Best(moves), nil
}

// freshMoves returns every legal action of s with the table's figures for
// a fresh history (Lower, Upper equal TableLower, TableUpper) and no
// status.
func (t *Table) freshMoves(s *env.State) ([]Move, error) {
	return t.appendFreshMoves(nil, s)
}

// appendFreshMoves is freshMoves appending to out[:0].
func (t *Table) appendFreshMoves(out []Move, s *env.State) ([]Move, error) {
	if err := t.check(s); err != nil {
		return nil, err
	}
	out = out[:0]
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
		mv.TableLower, mv.TableUpper = mv.Lower, mv.Upper
		out = append(out, mv)
	}
	return out, nil
}

// Bounds returns the bounds of a position from the values of its moves
// (from [Table.Moves]): the best lower and the best upper bound. With a
// fresh history they are the table's entry.
func Bounds(moves []Move) (lower, upper int) {
	lower, upper = -1, -1
	for _, m := range moves {
		lower, upper = max(lower, m.Lower), max(upper, m.Upper)
	}
	return lower, upper
}

// classify sets each move's status from the bounds of all of them.
func classify(moves []Move) {
	lo, hi := Bounds(moves)
	for i := range moves {
		m := &moves[i]
		switch {
		case m.Lower >= hi:
			m.Status = StatusBest
		case m.Lower == lo:
			m.Status = StatusKeepsBound
		case m.Upper < lo:
			m.Status = StatusWorse
		case m.TableLower >= lo:
			m.Status = StatusMayCycle
		default:
			m.Status = StatusUnknown
		}
	}
}

// Best returns the moves of moves (from [Table.Moves]) that the table
// calls best: those that make sure of the position's lower bound from the
// position with its history (status best or keeps-bound), ordered by the
// agent's preference (see [Pick]). The first is the table's move.
func Best(moves []Move) []Move {
	var out []Move
	for _, m := range moves {
		if m.Status.Keeps() {
			out = append(out, m)
		}
	}
	sortMoves(out)
	return out
}

// Pick returns the table's move among moves (from [Table.Moves], at least
// one): the largest lower bound, then the least rank (steady progress,
// which the lower bound's guarantee needs), then the larger upper bound,
// then the lower action. It is the first of [Best] whenever Best is not
// empty, which it never is from a position with a fresh history.
func Pick(moves []Move) Move {
	best := moves[0]
	for _, m := range moves[1:] {
		if m.Lower > best.Lower || m.Lower == best.Lower && better(m, best) {
			best = m
		}
	}
	return best
}

func sortMoves(out []Move) {
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && better(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
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
