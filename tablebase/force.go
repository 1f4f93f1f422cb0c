package tablebase

import (
	"encoding/binary"

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
	// low is the largest rank at which a position of the region is good by
	// itself, -1 for none: where need is p's figure v0 and every position of
	// the run that could cost p has that figure too, p's table strategy from
	// a position of the region ranked no higher than all of them (their
	// least rank) can reach none of them, nor a position played on the way
	// there (all ranked higher), as the ranks fall strictly while the figure
	// stays.
	low int

	// The rest is scratch that one check after another reuses, so that a
	// check allocates nothing once the buffers have grown.
	nodes []forceNode
	kids  []int32 // node i's moves that stay: kids[nodes[i].kid0:nodes[i].kid1]
	// index holds every position a move without a capture reached: open
	// addressing, a slot in use when its stamp is gen (a new check only
	// bumps gen). decide judges such a move by its position alone (its
	// stores are the start's), so each is judged once however many moves
	// reach it.
	index  []slot
	used   int
	gen    uint32
	pstart []int32 // node k's parents: parent[pstart[k]:pstart[k+1]]
	parent []int32
	hold   []bool
	stays  []int32
	left   []int32
	queue  []int32
}

type forceNode struct {
	s          env.State // the position with a fresh history
	key        [17]uint8
	pmove      bool // p is to move
	good       bool // p to move: some move is good; else every move is good or stays in the region
	bad        bool // the opponent to move has a bad move
	forced     bool
	kid0, kid1 int32
}

// slot is an entry of forcing.index: val is the node of a position in the
// region, or judgedBad or judgedGood for one outside.
type slot struct {
	key   [17]uint8
	stamp uint32
	val   int32
}

const (
	judgedBad  = -1
	judgedGood = -2
)

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
// need of the seeds on the board. f is the scratch of the check.
func (t *Table) forces(f *forcing, p int, start *env.State, need int, run []env.State, views []view, budget int) (bool, error) {
	e, err := t.Probe(start)
	if err != nil {
		return false, err
	}
	f.reset(t, p, need, figure(p, start, e), run, views)
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
	fs := start.Fresh()
	k := f.key(&fs)
	f.add(&fs, &k)
	for i := 0; i < len(f.nodes); i++ {
		if len(f.nodes) > budget {
			return false, nil
		}
		if err := f.expand(i); err != nil {
			return false, err
		}
	}
	f.parents()
	hold := f.holds()
	// The attractor, by counting: a node of p's is forced by its first
	// forced move, a node of the opponent's by its last.
	left := grow(f.left, len(f.nodes))
	f.left = left
	queue := f.queue[:0]
	for i := range f.nodes {
		nd := &f.nodes[i]
		left[i] = nd.kid1 - nd.kid0
		if hold[i] || nd.pmove && nd.good || !nd.pmove && !nd.bad && left[i] == 0 {
			nd.forced = true
			queue = append(queue, int32(i))
		}
	}
	for len(queue) > 0 {
		k := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, i := range f.parent[f.pstart[k]:f.pstart[k+1]] {
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
	f.queue = queue
	return f.nodes[0].forced, nil
}

// reset starts a new check with f's buffers.
func (f *forcing) reset(t *Table, p, need, v0 int, run []env.State, views []view) {
	f.t, f.p, f.need, f.v0, f.run, f.views, f.low = t, p, need, v0, run, views, -1
	f.nodes, f.kids = f.nodes[:0], f.kids[:0]
	if f.index == nil {
		f.index = make([]slot, 1<<10)
	}
	f.used = 0
	f.gen++
	if f.gen == 0 { // wrapped: no stale stamp may read as current
		clear(f.index)
		f.gen = 1
	}
}

// grow returns b resized to n, reusing its array when it is large enough;
// the contents are not kept.
func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n, 2*n)
	}
	return b[:n]
}

// parents fills pstart and parent, the inverse of the kids, in node order.
func (f *forcing) parents() {
	n := len(f.nodes)
	f.pstart = grow(f.pstart, n+1)
	clear(f.pstart)
	for _, k := range f.kids {
		f.pstart[k+1]++
	}
	for k := range n {
		f.pstart[k+1] += f.pstart[k]
	}
	f.parent = grow(f.parent, len(f.kids))
	// Fill with left as each node's cursor.
	f.left = grow(f.left, n)
	copy(f.left, f.pstart[:n])
	for i := range f.nodes {
		nd := &f.nodes[i]
		for _, k := range f.kids[nd.kid0:nd.kid1] {
			f.parent[f.left[k]] = int32(i)
			f.left[k]++
		}
	}
}

// holds returns the positions of the region from which p can keep the
// play, forever or until a good move, among positions whose row holds need
// seeds for p: a repetition among them pays p enough. It is the greatest
// such set, found by removing what cannot stay: a node of p's without a
// good move or a move that stays, a node of the opponent's with a bad move
// or one that leaves.
func (f *forcing) holds() []bool {
	n := len(f.nodes)
	hold := grow(f.hold, n)
	stays := grow(f.stays, n) // p's moves into the set
	f.hold, f.stays = hold, stays
	for i := range f.nodes {
		hold[i] = f.nodes[i].s.RowSeeds(f.p) >= f.need
	}
	for i := range f.nodes {
		nd := &f.nodes[i]
		stays[i] = 0
		for _, k := range f.kids[nd.kid0:nd.kid1] {
			if hold[k] {
				stays[i]++
			}
		}
	}
	queue := f.queue[:0]
	for i := range f.nodes {
		nd := &f.nodes[i]
		if hold[i] && (nd.pmove && !nd.good && stays[i] == 0 || !nd.pmove && (nd.bad || stays[i] < nd.kid1-nd.kid0)) {
			hold[i] = false
			queue = append(queue, int32(i))
		}
	}
	for len(queue) > 0 {
		k := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, i := range f.parent[f.pstart[k]:f.pstart[k+1]] {
			nd := &f.nodes[i]
			if !hold[i] {
				continue
			}
			stays[i]--
			if !nd.pmove || !nd.good && stays[i] == 0 {
				hold[i] = false
				queue = append(queue, i)
			}
		}
	}
	f.queue = queue
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

// find returns the slot of key k in the index, in use if k is there, else
// the free slot where it goes.
func (f *forcing) find(k *[17]uint8) *slot {
	mask := uint64(len(f.index) - 1)
	for j := hashKey(k) & mask; ; j = (j + 1) & mask {
		sl := &f.index[j]
		if sl.stamp != f.gen || sl.key == *k {
			return sl
		}
	}
}

// put records val for key k, not in the index.
func (f *forcing) put(k *[17]uint8, val int32) {
	if 2*(f.used+1) > len(f.index) {
		f.rehash(2 * len(f.index))
	}
	sl := f.find(k)
	sl.key, sl.stamp, sl.val = *k, f.gen, val
	f.used++
}

// add puts s (fresh, with key k, not in the index) in the region and
// returns its node.
func (f *forcing) add(s *env.State, k *[17]uint8) int32 {
	i := int32(len(f.nodes))
	f.put(k, i)
	f.nodes = append(f.nodes, forceNode{s: *s, pmove: s.ToMove() == f.p, good: s.ToMove() != f.p})
	return i
}

// rehash grows the index to n slots (a power of two).
func (f *forcing) rehash(n int) {
	old := f.index
	f.index = make([]slot, n)
	gen := f.gen
	f.gen = 1
	for i := range old {
		if sl := &old[i]; sl.stamp == gen {
			*f.find(&sl.key) = slot{key: sl.key, stamp: 1, val: sl.val}
		}
	}
}

func hashKey(k *[17]uint8) uint64 {
	lo := binary.LittleEndian.Uint64(k[:8])
	hi := binary.LittleEndian.Uint64(k[8:16])
	h := (lo ^ uint64(k[16])<<61) * 0x9e3779b97f4a7c15
	h = (h ^ h>>29 ^ hi) * 0xbf58476d1ce4e5b9
	return h ^ h>>32
}

// expand decides every move of node i.
func (f *forcing) expand(i int) error {
	s := &f.nodes[i].s
	mover := s.ToMove()
	kid0 := int32(len(f.kids))
	var good, bad bool
	for m := s.Legal(); m != 0; m &= m - 1 {
		s = &f.nodes[i].s // add may move the nodes
		c := *s
		c.Play(m.Nth(0))
		took := c.Store(mover) - s.Store(mover)
		var g, stay bool
		var kid int32
		var err error
		if took > 0 || c.Terminal() {
			g, stay, err = f.decide(s, &c, took)
		} else {
			// decide does not touch the index, so sl stays valid across it.
			k := f.key(&c)
			sl := f.find(&k)
			known := sl.stamp == f.gen
			switch {
			case known && sl.val != 0:
				// Judged before. (The start, node 0, is in the index
				// without a judgement: a move back to it is judged each
				// time.)
				g, stay, kid = sl.val == judgedGood, sl.val >= 0, sl.val
			default:
				if g, stay, err = f.decide(s, &c, took); err != nil {
					break
				}
				switch {
				case known: // the start: kid stays 0
				case stay:
					fc := c.Fresh()
					kid = f.add(&fc, &k)
				case g:
					f.put(&k, judgedGood)
				default:
					f.put(&k, judgedBad)
				}
			}
		}
		if err != nil {
			return err
		}
		switch {
		case stay:
			f.kids = append(f.kids, kid)
		case mover == f.p:
			good = good || g
		default:
			bad = bad || !g
		}
	}
	nd := &f.nodes[i]
	nd.good = nd.good || good
	nd.bad = nd.bad || bad
	nd.kid0, nd.kid1 = kid0, int32(len(f.kids))
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
