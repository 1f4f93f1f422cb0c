package tablebase

import (
	"github.com/urim-rl/urim/env"
)

// The table's bounds are for a fresh history. After a move without a
// capture the child's history holds the whole run of the parent, so the
// opponent may steer back into a position already played and end the game
// by repetition, each side keeping its row: the child's fresh bounds then
// need not bound what the move yields. The progress ranks tell when that
// cannot happen (docs/tablebase.md, "Best moves"): a player p following
// the table's strategy from a position where it is sure of v seeds never
// sees its figure fall, and while the figure stays at v the rank falls
// strictly at every ply. So the play can come back to a position h of the
// run only if p's figure at h is above v, or equal to v with a rank below
// the start's; and only then, if p's row at h holds fewer than v seeds,
// may the repetition cost p anything, down to that row.

// view is what that argument needs of a position, for each player p: the
// seeds p's table strategy makes sure of from the position with a fresh
// history (the lower bound for the mover, the seeds less the upper bound
// for the other), the progress rank of that figure, and p's row.
type view struct {
	val, rank, row [2]int
}

// inRun turns the fresh-history figures of the moves of s (from
// freshMoves) into figures for s with its history. With want set to
// wantPick it stops at what the table's move needs: a forcing check only
// for a move that could become it, none to prove a move worse; with
// wantKeep, at what tells the moves that keep the lower bound of a
// position with a fresh history (which lower bound the table's move
// keeps): a forcing check only for a move whose fresh figure keeps it,
// none to prove a move worse. Only the lower bounds of the moves that keep
// it are then final.
func (t *Table) inRun(s *env.State, moves []Move, want wanted) error {
	return t.inRunWith(&scratch{}, s, moves, want)
}

// scratch is what the analysis of one position reuses for the next: one
// per worker of the build, so that the analysis allocates nothing per
// position once its buffers have grown.
type scratch struct {
	moves    []Move
	states   []env.State
	run      []view
	children []env.State
	budgets  []int
	f        forcing
}

// inRunWith is inRun with the buffers of sc.
func (t *Table) inRunWith(sc *scratch, s *env.State, moves []Move, want wanted) error {
	pick := want == wantPick
	mover := s.ToMove()
	n := s.RowSeeds(0) + s.RowSeeds(1)
	var states []env.State
	if s.Quiet() == 0 {
		// The run of a fresh history is the position itself (Run would
		// allocate it).
		states = append(sc.states[:0], s.Fresh())
		sc.states = states
	} else {
		states = s.Run()
	}
	run := grow(sc.run, len(states))
	sc.run = run
	for i := range states {
		v, err := t.view(&states[i])
		if err != nil {
			return err
		}
		run[i] = v
	}
	e, err := t.Probe(s)
	if err != nil {
		return err
	}
	children := grow(sc.children, len(moves))
	budgets := grow(sc.budgets, len(moves))
	sc.children, sc.budgets = children, budgets
	for i := range moves {
		m := &moves[i]
		if m.Captured > 0 || m.Ends {
			continue // exact, or the history starts again after a capture
		}
		budget := exactBudget
		if m.TableLower >= e.Lower {
			budget = keepBudget
		}
		c := *s
		c.Play(m.Action)
		children[i] = c
		cv, err := t.view(&c)
		if err != nil {
			return err
		}
		m.Lower = sureOf(mover, &cv, run)
		m.Upper = n - sureOf(1-mover, &cv, run)
		if s.Quiet() == 0 {
			// With a fresh history the position's own upper bound holds,
			// and no move yields more than the position.
			m.Upper = min(m.Upper, e.Upper)
		}
		budgets[i] = budget
	}
	// Where the ranks cannot rule out a costly return, search whether the
	// mover can force its fresh figure anyway.
	for i := range moves {
		m := &moves[i]
		if m.Lower >= m.TableLower {
			continue
		}
		if want == wantKeep && m.TableLower < e.Lower {
			continue
		}
		if pick {
			if cur := Pick(moves); m.TableLower < cur.Lower || m.TableLower == cur.Lower && !better(raised(*m), cur) {
				continue
			}
		}
		ok, err := t.forces(&sc.f, mover, &children[i], m.TableLower, states, run, budgets[i])
		if err != nil {
			return err
		}
		if ok {
			m.Lower = m.TableLower
		}
	}
	if want != wantAll {
		return nil
	}
	// A move that keeps the best lower bound by its fresh figures but not
	// surely here is worse if the opponent can force more than that bound
	// leaves it.
	lo, _ := Bounds(moves)
	for i := range moves {
		m := &moves[i]
		if m.Captured > 0 || m.Ends || m.Lower >= lo || m.Upper < lo || m.TableLower < lo {
			continue
		}
		ok, err := t.forces(&sc.f, 1-mover, &children[i], n-lo+1, states, run, keepBudget)
		if err != nil {
			return err
		}
		if ok {
			m.Upper = lo - 1
		}
	}
	return nil
}

// wanted says how much of the figures inRun works out.
type wanted uint8

const (
	wantAll  wanted = iota // every move's figures and the proofs of worse moves
	wantPick               // the table's move
	wantKeep               // the moves that keep the lower bound, from a fresh history
)

// raised returns m with its lower bound raised to its fresh figure.
func raised(m Move) Move {
	m.Lower = m.TableLower
	return m
}

// sureOf returns the seeds player p is sure of from a position with view
// start whose history holds the run: p's fresh figure, less where the play
// may come back into the run (see above).
func sureOf(p int, start *view, run []view) int {
	v := start.val[p]
	sure := v
	for i := range run {
		h := &run[i]
		if h.row[p] < sure && (h.val[p] > v || h.val[p] == v && h.rank[p] < start.rank[p]) {
			sure = h.row[p]
		}
	}
	return sure
}

// view returns the view of s, an ongoing position of the table.
func (t *Table) view(s *env.State) (view, error) {
	f := s.Fresh()
	e, err := t.Probe(&f)
	if err != nil {
		return view{}, err
	}
	mover := f.ToMove()
	var v view
	v.row = [2]int{f.RowSeeds(0), f.RowSeeds(1)}
	v.val[mover], v.val[1-mover] = e.Lower, e.Seeds-e.Upper
	v.rank[1-mover] = e.Rank
	v.rank[mover], err = t.lowerRank(&f, e)
	return v, err
}

// lowerRank returns the round at which the lower bound of f (a position
// with a fresh history and entry e) reached its value: 0 for a lower bound
// of 0, 1 where a capture keeps it, else one more than the least rank of
// the children that keep it. (The lower bound of a round reads the upper
// bounds of the round before; see solve.go.)
func (t *Table) lowerRank(f *env.State, e Entry) (int, error) {
	if e.Lower == 0 {
		return 0, nil
	}
	mover := f.ToMove()
	best := -1
	for m := f.Legal(); m != 0; m &= m - 1 {
		c := *f
		c.Play(m.Nth(0))
		took := c.Store(mover) - f.Store(mover)
		var lo, rank int
		switch {
		case took > 0 && c.Terminal():
			lo, rank = c.FinalStores()[mover]-f.Store(mover), 0
		case took > 0:
			ce, err := t.Probe(&c)
			if err != nil {
				return 0, err
			}
			lo, rank = took+ce.Seeds-ce.Upper, 0
		default:
			// A child without a legal move is in the layer too, with the
			// rank the solver gave it (Probe answers 0 for a finished game).
			ce, err := t.stored(&c)
			if err != nil {
				return 0, err
			}
			lo, rank = ce.Seeds-ce.Upper, 1+ce.Rank
		}
		if lo == e.Lower && (best < 0 || rank < best) {
			best = rank
		}
	}
	return max(best, 1), nil
}

// stored returns the stored entry of s, finished or not.
func (t *Table) stored(s *env.State) (Entry, error) {
	if !s.Terminal() {
		return t.Probe(s)
	}
	n := s.RowSeeds(0) + s.RowSeeds(1)
	b := canonical(s, t.r.p)
	g, ok := t.lookup(&b, n, s.Store(s.ToMove()))
	if !ok {
		return t.Probe(s)
	}
	lo, hi, rank := t.entry(g)
	return Entry{Seeds: n, Lower: lo, Upper: hi, Rank: rank}, nil
}
