package tablebase

import (
	"testing"

	"github.com/urim-rl/urim/env"
)

// runSolve bounds, against env alone, what each move of a position yields
// with the position's run in the history: it collects every position
// reachable from the children without a capture, where reaching a position
// of the run ends the game by repetition (each side keeps its row), and
// solves the two repetition games of docs/tablebase.md on them by value
// iteration, as the solver does for a fresh history (a repetition of a
// position first played after the root gives every seed to one side, resp.
// the other). Captures lead to a fresh history, where the table's bounds
// hold (TestStrategiesProveBounds proves them through env). So the value of
// each child with its history lies within its bounds, exact where they
// meet; undecided ones are left to the exhaustive search (exactMove).
// ok is false past budget positions.
type runSolve struct {
	t     testing.TB
	tb    *Table
	run   []env.State
	index map[posKey]int
	nodes []env.State
	edges [][]runEdge
}

type runEdge struct {
	child  int // index of the child, or -1 for an ending
	lo, hi int // the ending's bounds for the mover
}

// moveBounds returns, for each legal move of root (in Moves order), bounds
// on the seeds the mover ends with after it, with the root's history.
func moveBounds(t testing.TB, tb *Table, root *env.State, budget int) (lo, hi []int, ok bool) {
	r := &runSolve{t: t, tb: tb, run: root.Run(), index: map[posKey]int{}}
	n := boardSeeds(root)
	mover := root.ToMove()
	var roots []runEdge
	for m := root.Legal(); m != 0; m &= m - 1 {
		c := *root
		c.Play(m.Nth(0))
		roots = append(roots, r.edge(root, &c, c.Store(mover)-root.Store(mover)))
	}
	for i := 0; i < len(r.nodes); i++ {
		if len(r.nodes) > budget {
			return nil, nil, false
		}
		s := r.nodes[i]
		var es []runEdge
		for m := s.Legal(); m != 0; m &= m - 1 {
			c := s
			c.Play(m.Nth(0))
			es = append(es, r.edge(&s, &c, c.Store(s.ToMove())-s.Store(s.ToMove())))
		}
		r.edges = append(r.edges, es)
	}
	l, u := make([]int, len(r.nodes)), make([]int, len(r.nodes))
	for i := range u {
		u[i] = n
	}
	// Gauss-Seidel sweeps: the update is monotone, so from the bottom
	// (resp. top) they reach the least (resp. greatest) fixed point too.
	for changed := true; changed; {
		changed = false
		for i, es := range r.edges {
			bl, bu := -1, -1
			for _, e := range es {
				pl, pu := e.lo, e.hi
				if e.child >= 0 {
					pl, pu = n-u[e.child], n-l[e.child]
				}
				bl, bu = max(bl, pl), max(bu, pu)
			}
			if bl != l[i] || bu != u[i] {
				l[i], u[i], changed = bl, bu, true
			}
		}
	}
	for _, e := range roots {
		if e.child < 0 {
			lo, hi = append(lo, e.lo), append(hi, e.hi)
		} else {
			lo, hi = append(lo, n-u[e.child]), append(hi, n-l[e.child])
		}
	}
	return lo, hi, true
}

// edge classifies the move from s to c, which captured took seeds.
func (r *runSolve) edge(s, c *env.State, took int) runEdge {
	mover := s.ToMove()
	for j := range r.run {
		if r.run[j].SamePosition(c) {
			v := c.RowSeeds(mover)
			return runEdge{-1, v, v}
		}
	}
	switch {
	case c.Terminal():
		v := c.FinalStores()[mover] - s.Store(mover)
		return runEdge{-1, v, v}
	case took > 0:
		e, err := r.tb.Probe(c)
		if err != nil {
			r.t.Fatal(err)
		}
		return runEdge{-1, took + e.Seeds - e.Upper, took + e.Seeds - e.Lower}
	}
	f := c.Fresh()
	k := keyOf(&f)
	if i, ok := r.index[k]; ok {
		return runEdge{child: i}
	}
	r.index[k] = len(r.nodes)
	r.nodes = append(r.nodes, f)
	return runEdge{child: len(r.nodes) - 1}
}

// keepsExactly decides, by the exhaustive search that walks every line
// through env (oracle), whether the move from root to child c (no capture;
// c's history holds root's run) makes sure of v seeds of the n on the
// board: the opponent's value at c must be at most n-v. decided is false
// past the oracle's budget.
func keepsExactly(o *oracle, c *env.State, n, v int) (keeps, decided bool) {
	r, decided := budgeted(o, func() int { return o.value(c, n-v, n-v+1, true) })
	return r <= n-v, decided
}

// budgeted runs a search of o with a fresh node count and reports whether
// it finished within o's budget.
func budgeted(o *oracle, search func() int) (r int, decided bool) {
	defer func() {
		if p := recover(); p != nil {
			if p != errBudget {
				panic(p)
			}
			decided = false
		}
	}()
	o.nodes = 0
	return search(), true
}
