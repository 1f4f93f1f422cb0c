package tablebase

import (
	"github.com/urim-rl/urim/env"
)

// Budgets bound the positions a forcing check explores; past one the check
// gives up and the move keeps its weaker bounds. A check that decides
// whether a move keeps the best bound gets more than one that only makes
// the bounds of a worse move exact.
const (
	keepBudget  = 1 << 12
	exactBudget = 1 << 9
)

// forcing is one check of whether player p can force, from a position
// whose history holds a run, an outcome worth at least need seeds to it.
// It explores the region of positions where p's fresh-history figure stays
// at its value v0 at the start, and decides each move out of it once:
//
//   - an ending (a capture, a finished game, a position of the run, which
//     ends the game by repetition with each side keeping its row) is good
//     when p's seeds, by the table's sound figure for the smaller board or
//     exactly, reach need;
//   - a position where p's figure is above v0 is good when p's table
//     strategy from it makes sure of need despite the run (sureOf): along
//     that strategy p's figure never falls, so it never comes back into
//     the region;
//   - a position where p's figure is below v0 is bad.
//
// p forces need when the start lies in the attractor of the good moves and
// of the positions p can hold (see hold): p has a move that is good or
// stays in the attractor, every move of the opponent does. Playing down the
// attractor's levels never repeats a position; a repetition in the held
// positions pays p its row there, which is enough.
type forcing struct {
	t     *Table
	p     int
	need  int
	v0    int
	run   []env.State
	views []view
	index map[[17]uint8]int
	nodes []forceNode
	// low is the largest rank at which a position of the region is good by
	// itself, -1 for none: where need is p's figure v0 and every position of
	// the run that could cost p has that figure too, p's table strategy from
	// a position of the region ranked no higher than all of them (their
	// least rank) can reach none of them, nor a position played on the way
	// there (all ranked higher), as the ranks fall strictly while the figure
	// stays.
	low int
}

type forceNode struct {
	s      env.State // the position with a fresh history
	pmove  bool      // p is to move
	good   bool      // p to move: some move is good; else every move is good or stays in the region
	bad    bool      // the opponent to move has a bad move
	kids   []int     // the moves that stay in the region
	forced bool
}

func (f *forcing) key(s *env.State) [17]uint8 {
	var k [17]uint8
	for i := 0; i < s.Game().Pits(); i++ {
		k[i] = uint8(s.Pit(i))
	}
	k[16] = uint8(s.ToMove())
	return k
}

// forces reports whether p can force, from start (an ongoing position
// without a capture since the run, whose history holds the run), at least
// need of the seeds on the board.
func (t *Table) forces(p int, start *env.State, need int, run []env.State, views []view, budget int) (bool, error) {
	e, err := t.Probe(start)
	if err != nil {
		return false, err
	}
	f := &forcing{t: t, p: p, need: need, v0: figure(p, start, e), run: run, views: views, index: map[[17]uint8]int{}, low: -1}
	if need <= f.v0 {
		f.low = MaxRank
		for i := range views {
			h := &views[i]
			switch {
			case h.row[p] >= need || h.val[p] < f.v0:
			case h.val[p] > f.v0:
				f.low = -1
			case f.low >= 0:
				f.low = min(f.low, h.rank[p])
			}
		}
	}
	if _, err := f.add(start.Fresh()); err != nil {
		return false, err
	}
	for i := 0; i < len(f.nodes); i++ {
		if len(f.nodes) > budget {
			return false, nil
		}
		if err := f.expand(i); err != nil {
			return false, err
		}
	}
	parents := make([][]int, len(f.nodes))
	for i := range f.nodes {
		for _, k := range f.nodes[i].kids {
			parents[k] = append(parents[k], i)
		}
	}
	hold := f.hold(parents)
	// The attractor, by counting: a node of p's is forced by its first
	// forced move, a node of the opponent's by its last.
	left := make([]int, len(f.nodes))
	var queue []int
	for i := range f.nodes {
		nd := &f.nodes[i]
		left[i] = len(nd.kids)
		if hold[i] || nd.pmove && nd.good || !nd.pmove && !nd.bad && left[i] == 0 {
			nd.forced = true
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		k := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, i := range parents[k] {
			nd := &f.nodes[i]
			if nd.forced {
				continue
			}
			left[i]--
			if nd.pmove || !nd.bad && left[i] == 0 {
				nd.forced = true
				queue = append(queue, i)
			}
		}
	}
	return f.nodes[0].forced, nil
}

// hold returns the positions of the region from which p can keep the play,
// forever or until a good move, among positions whose row holds need seeds
// for p: a repetition among them pays p enough. It is the greatest such
// set, found by removing what cannot stay: a node of p's without a good
// move or a move that stays, a node of the opponent's with a bad move or
// one that leaves.
func (f *forcing) hold(parents [][]int) []bool {
	hold := make([]bool, len(f.nodes))
	stays := make([]int, len(f.nodes)) // p's moves into the set
	for i := range f.nodes {
		hold[i] = f.nodes[i].s.RowSeeds(f.p) >= f.need
	}
	for i := range f.nodes {
		for _, k := range f.nodes[i].kids {
			if hold[k] {
				stays[i]++
			}
		}
	}
	var queue []int
	drop := func(i int) {
		if hold[i] {
			hold[i] = false
			queue = append(queue, i)
		}
	}
	for i := range f.nodes {
		nd := &f.nodes[i]
		if nd.pmove && !nd.good && stays[i] == 0 || !nd.pmove && (nd.bad || stays[i] < len(nd.kids)) {
			drop(i)
		}
	}
	for len(queue) > 0 {
		k := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, i := range parents[k] {
			nd := &f.nodes[i]
			if !hold[i] {
				continue
			}
			stays[i]--
			if !nd.pmove || !nd.good && stays[i] == 0 {
				drop(i)
			}
		}
	}
	return hold
}

// figure returns what p's table strategy makes sure of from s (entry e)
// with a fresh history.
func figure(p int, s *env.State, e Entry) int {
	if s.ToMove() == p {
		return e.Lower
	}
	return e.Seeds - e.Upper
}

// add puts s (fresh) in the region and returns its node.
func (f *forcing) add(s env.State) (int, error) {
	k := f.key(&s)
	if i, ok := f.index[k]; ok {
		return i, nil
	}
	f.index[k] = len(f.nodes)
	f.nodes = append(f.nodes, forceNode{s: s, pmove: s.ToMove() == f.p, good: s.ToMove() != f.p})
	return len(f.nodes) - 1, nil
}

// expand decides every move of node i.
func (f *forcing) expand(i int) error {
	s := f.nodes[i].s
	mover := s.ToMove()
	for m := s.Legal(); m != 0; m &= m - 1 {
		c := s
		c.Play(m.Nth(0))
		took := c.Store(mover) - s.Store(mover)
		good, stay, err := f.decide(&s, &c, took)
		if err != nil {
			return err
		}
		nd := &f.nodes[i]
		switch {
		case stay:
			k, err := f.add(c.Fresh())
			if err != nil {
				return err
			}
			nd = &f.nodes[i]
			nd.kids = append(nd.kids, k)
		case nd.pmove:
			nd.good = nd.good || good
		default:
			nd.bad = nd.bad || !good
		}
	}
	return nil
}

// decide judges the move from s to c, which captured took seeds: good
// (an outcome worth need to p), or staying in the region.
func (f *forcing) decide(s, c *env.State, took int) (good, stay bool, err error) {
	p := f.p
	if c.Terminal() {
		return c.FinalStores()[p]-s.Store(p) >= f.need, false, nil
	}
	if took > 0 {
		e, err := f.t.Probe(c)
		if err != nil {
			return false, false, err
		}
		return c.Store(p)-s.Store(p)+figure(p, c, e) >= f.need, false, nil
	}
	for j := range f.run {
		if f.run[j].SamePosition(c) {
			return c.RowSeeds(p) >= f.need, false, nil
		}
	}
	e, err := f.t.Probe(c)
	if err != nil {
		return false, false, err
	}
	switch v := figure(p, c, e); {
	case v < f.v0:
		return false, false, nil
	case v == f.v0:
		if f.low < 0 {
			return false, true, nil
		}
		rank := e.Rank
		if c.ToMove() == p {
			fc := c.Fresh()
			if rank, err = f.t.lowerRank(&fc, e); err != nil {
				return false, false, err
			}
		}
		return rank <= f.low, rank > f.low, nil
	}
	v := figure(p, c, e)
	if v < f.need {
		return false, false, nil
	}
	risky := false // a position of the run could cost p (its ranks decide)
	for j := range f.views {
		h := &f.views[j]
		risky = risky || h.row[p] < f.need && h.val[p] >= v
	}
	if !risky {
		return true, false, nil
	}
	cv, err := f.t.view(c)
	if err != nil {
		return false, false, err
	}
	return sureOf(p, &cv, f.views) >= f.need, false, nil
}
