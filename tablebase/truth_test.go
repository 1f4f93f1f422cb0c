package tablebase

import (
	"fmt"
	"math"
	"strings"

	"github.com/urim-rl/urim/env"
)

// The decider answers exactly, by a search that plays every line through
// env (so every capture, feeding and repetition ending is the engine's),
// whether a player p ends with at least a given store (the goal) from a
// position with its history. It is written apart from the table's
// labelling (inRun, sureOf, forces): of the table it reads only the bounds
// for a fresh history, after a capture and as cut-offs, which
// TestStrategiesProveBounds proves through env. The search is cut wherever
// one side is provably sure of the outcome; every cut-off rests on one
// fact: a repetition only ends the game, each side keeping its row; it
// never lets the play go on.
//
// Table bounds. With a history H (the positions since the last capture),
// a strategy that reaches the goal from x with a fresh history reaches it
// with H too, unless the play comes back to a position h of H: then the
// game ends with p's row at h. So p's value from x with H lies between
// min(fresh lower bound, p's least row over H) and max(fresh upper bound,
// p's largest row over H).
//
// Winning ranks. Between two captures the play walks the positions of one
// layer (n seeds on the board, fixed stores) along quiet moves; the
// decider builds that graph through env, the captures and endings as exits
// (valued by env, and by the table's fresh bounds after a capture), and on
// it ranks for each side q and goal, with the positions of a history as
// sinks (see winRanks): rank 0 is a safe set where q's row reaches the goal
// and q keeps the play, and from rank r+1 q forces rank at most r. Playing
// down the ranks q reaches the goal: no position repeats before rank 0, and
// inside the safe set every repetition leaves q its goal. Built for a
// fresh history once per layer, the ranks prove q's goal from x with a
// history H too when no position of H where q falls short has a rank below
// x's (the play from x never comes back to it); where that fails, they are
// built again with H as sinks.
//
// Where nothing cuts, the search tries every move, with x added to the
// history; env ends each line that repeats. After a capture the history is
// empty, and the answer, which then depends on the position alone, is
// memoized.
type decider struct {
	tb     *Table
	layers []*layer // by seeds on the board
	x      *index
	memo   map[goalKey]bool
	p      int // the player whose final store is tested
	goal   int // the store p must reach
	nodes  int // positions searched
	budget int // panic with errBudget past this many nodes (0: none)
	// path holds the positions played since the root's last capture, the
	// root's run first; wins reads the history of its position from it.
	path    []step
	work    work // historyRank's buffers
	rebuilt int  // winning ranks built again for a history
}

// step is a position of the history: its vertex in its layer and player
// 0's row.
type step struct {
	v    int32
	row0 int8
}

type goalKey struct {
	pos     posKey
	p, goal int8
}

const unranked = math.MaxInt32

// summary is what the cheap cut-offs need of the history since the last
// capture, for the current player and goal: the least fresh rank of p over
// the positions where p's row falls short of the goal, the least fresh rank
// of the opponent over the others, and p's least and largest row.
type summary struct {
	bad, good  int32
	rmin, rmax int
}

var emptyHistory = summary{bad: unranked, good: unranked, rmin: math.MaxInt, rmax: -1}

// newDecider builds the layers of up to k seeds (shared, read only: a
// decider for each goroutine).
func newDecider(tb *Table, g *env.Game, k int) *decider {
	if g.Rules().EndOnMajority {
		panic("decider: the layers ignore the stores, which the majority ending reads")
	}
	d := &decider{tb: tb, x: newIndex(g.Pits(), k), memo: map[goalKey]bool{}}
	for n := 0; n <= k; n++ {
		d.layers = append(d.layers, buildLayer(tb, g, d.x, n))
	}
	return d
}

// fork returns a decider for another goroutine, sharing the layers.
func (d *decider) fork() *decider {
	return &decider{tb: d.tb, layers: d.layers, x: d.x, memo: map[goalKey]bool{}}
}

// atLeast reports whether player p ends with a store of at least goal when
// the player to move at root (ongoing, with its history) plays action a and
// both sides then play their best.
func (d *decider) atLeast(root *env.State, a, p, goal int) bool {
	d.p, d.goal = p, goal
	c := *root
	c.Play(a)
	h := emptyHistory
	d.path = d.path[:0]
	if c.Store(0) == root.Store(0) && c.Store(1) == root.Store(1) {
		run := root.Run()
		for i := range run {
			h = d.add(h, &run[i])
			d.path = append(d.path, step{d.id(&run[i]), int8(run[i].RowSeeds(0))})
		}
	}
	return d.wins(&c, h, 0)
}

// budgeted runs a search of d that may expand at most budget positions
// and reports whether it finished.
func (d *decider) budgeted(budget int, search func() bool) (r, decided bool) {
	d.budget = d.nodes + budget
	defer func() {
		d.budget = 0
		if p := recover(); p != nil {
			if p != errBudget {
				panic(p)
			}
			decided = false
		}
	}()
	return search(), true
}

// add returns h with the ongoing position s added.
func (d *decider) add(h summary, s *env.State) summary {
	n := boardSeeds(s)
	g := d.goal - s.Store(d.p)
	row := s.RowSeeds(d.p)
	h.rmin, h.rmax = min(h.rmin, row), max(h.rmax, row)
	if g <= 0 || g > n {
		return h // the goal is sure, or out of reach, whatever the history
	}
	l, id := d.layers[n], d.id(s)
	if row < g {
		h.bad = min(h.bad, l.rank(d.p, g, id))
	} else {
		h.good = min(h.good, l.rank(1-d.p, n-g+1, id))
	}
	return h
}

// id returns the vertex of s in its layer.
func (d *decider) id(s *env.State) int32 {
	var b [16]uint8
	for i := 0; i < s.Game().Pits(); i++ {
		b[i] = uint8(s.Pit(i))
	}
	return int32(d.x.rank(&b, boardSeeds(s)))*2 + int32(s.ToMove())
}

// cut returns 1 if p is sure of the goal from x with history h, -1 if the
// opponent is sure p falls short, 0 if the cut-offs cannot tell, and the
// fresh winning ranks of p and of the opponent at x (to try moves in
// order).
func (d *decider) cut(x *env.State, h summary) (r int, rp, ro int32) {
	if x.Terminal() {
		if x.FinalStores()[d.p] >= d.goal {
			return 1, 0, 0
		}
		return -1, 0, 0
	}
	n := boardSeeds(x)
	g := d.goal - x.Store(d.p)
	switch {
	case g <= 0:
		return 1, 0, 0
	case g > n:
		return -1, 0, 0
	}
	l, id := d.layers[n], d.id(x)
	rp, ro = l.rank(d.p, g, id), l.rank(1-d.p, n-g+1, id)
	switch {
	case rp != unranked && rp <= h.bad:
		return 1, rp, ro
	case ro != unranked && ro <= h.good:
		return -1, rp, ro
	}
	// The table's fresh bounds, widened by the rows the history can end on.
	e, err := d.tb.Probe(x)
	if err != nil {
		panic(err)
	}
	lo, hi := e.Lower, e.Upper
	if x.ToMove() != d.p {
		lo, hi = n-e.Upper, n-e.Lower
	}
	if h.rmax >= 0 {
		lo, hi = min(lo, h.rmin), max(hi, h.rmax)
	}
	switch {
	case lo >= g:
		return 1, rp, ro
	case hi < g:
		return -1, rp, ro
	}
	return 0, rp, ro
}

// wins reports whether p reaches the goal from x with history h, the
// positions path[from:].
func (d *decider) wins(x *env.State, h summary, from int) bool {
	if r, _, _ := d.cut(x, h); r != 0 {
		return r > 0
	}
	fresh := h.rmax < 0
	key := goalKey{pos: keyOf(x), p: int8(d.p), goal: int8(d.goal)}
	if fresh {
		if r, ok := d.memo[key]; ok {
			return r
		}
	}
	d.nodes++
	if d.budget > 0 && d.nodes > d.budget {
		panic(errBudget)
	}
	if hist := d.path[from:]; len(hist) > 0 {
		n := boardSeeds(x)
		g := d.goal - x.Store(d.p)
		l, v := d.layers[n], d.id(x)
		if d.historyRank(l, d.p, g, v, hist) != unranked {
			return true
		}
		if d.historyRank(l, 1-d.p, n-g+1, v, hist) != unranked {
			return false
		}
	}
	mine := x.ToMove() == d.p
	want := -1
	if mine {
		want = 1
	}
	quiet := d.add(h, x)
	var kids [env.MaxPitsPerRow]env.State
	var hist [env.MaxPitsPerRow]summary
	var rank [env.MaxPitsPerRow]int32
	var order [env.MaxPitsPerRow]int
	k := 0
	result := !mine
	for m := x.Legal(); m != 0; m &= m - 1 {
		c := &kids[k]
		*c = *x
		c.Play(m.Nth(0))
		hist[k] = quiet
		if c.Store(0) != x.Store(0) || c.Store(1) != x.Store(1) {
			hist[k] = emptyHistory
		}
		r, rp, ro := d.cut(c, hist[k])
		if r == want {
			result, k = mine, 0 // a move that settles it
			break
		}
		if r == 0 {
			// The side to move tries first the moves to the least rank of
			// its own fresh winning ranks.
			rank[k], order[k] = ro, k
			if mine {
				rank[k] = rp
			}
			for j := k; j > 0 && rank[order[j]] < rank[order[j-1]]; j-- {
				order[j], order[j-1] = order[j-1], order[j]
			}
			k++
		}
	}
	d.path = append(d.path, step{d.id(x), int8(x.RowSeeds(0))})
	for _, i := range order[:k] {
		from := from
		if hist[i].rmax < 0 {
			from = len(d.path) // after a capture
		}
		if d.wins(&kids[i], hist[i], from) == mine {
			result = mine
			break
		}
	}
	d.path = d.path[:len(d.path)-1]
	if fresh {
		d.memo[key] = result
	}
	return result
}

// historyRank returns the rank of vertex v (not in hist) in q's winning
// ranks for g seeds or more of the layer's n with the history hist (see
// winRanks), or unranked.
func (d *decider) historyRank(l *layer, q, g int, v int32, hist []step) int32 {
	d.rebuilt++
	r := l.winRanks(q, g, hist, &d.work, v)[v]
	if r < blocked {
		return r
	}
	return unranked
}

// layer is the graph of quiet moves between the positions with n seeds on
// the board, each side to move (vertex 2·rank+mover, rank in the index),
// with the endings and captures as exits, and the winning ranks. The
// stores are set to T-n and 0: without the majority ending the play does
// not read them, and the exits are stored relative to them.
type layer struct {
	n, p        int
	arcs        []arc        // P per vertex, by action
	row0        []int8       // player 0's row at each vertex
	start, pred []int32      // the predecessors of v, one per arc: pred[start[v]:start[v+1]]
	ranks       [2][]ranking // ranks[q][g]: q's to g seeds or more
}

// ranking is q's winning ranks for g seeds or more of the n with a fresh
// history, and what building them again with sinks needs.
type ranking struct {
	rank    []int32
	need    []int32 // see base
	initial []int32 // the vertices of rank 1
}

// arc is one action from a vertex.
type arc struct {
	to     int32 // the child's vertex, -1 for an exit, -2 for no such move
	lo, hi int8  // an exit's bounds on the seeds of the n that player 0 ends with
}

// buildLayer plays every legal move of every position of n seeds through
// env and ranks the layer.
func buildLayer(tb *Table, g *env.Game, x *index, n int) *layer {
	p := g.PitsPerRow()
	verts := 2 * int(x.boards(n))
	l := &layer{n: n, p: p, arcs: make([]arc, verts*p), row0: make([]int8, verts)}
	var b [16]uint8
	x.unrank(0, n, &b)
	for more := true; more; more = x.next(&b) {
		for mover := 0; mover < 2; mover++ {
			v := int(x.rank(&b, n))*2 + mover
			s := stateOf(g, &b, mover, g.Total()-n)
			l.row0[v] = int8(s.RowSeeds(0))
			for a := 0; a < p; a++ {
				l.arcs[v*p+a] = arc{to: -2}
			}
			for m := s.Legal(); m != 0; m &= m - 1 {
				a := m.Nth(0)
				c := s
				c.Play(a)
				arc := arc{to: -1}
				switch {
				case c.Terminal():
					f := c.FinalStores()[0] - s.Store(0)
					arc.lo, arc.hi = int8(f), int8(f)
				case c.Store(0) != s.Store(0) || c.Store(1) != s.Store(1):
					e, err := tb.Probe(&c)
					if err != nil {
						panic(err)
					}
					lo, hi := e.Lower, e.Upper // the child's mover's
					if c.ToMove() != 0 {
						lo, hi = e.Seeds-e.Upper, e.Seeds-e.Lower
					}
					took := c.Store(0) - s.Store(0)
					arc.lo, arc.hi = int8(took+lo), int8(took+hi)
				default:
					var cb [16]uint8
					for i := 0; i < 2*p; i++ {
						cb[i] = uint8(c.Pit(i))
					}
					arc.to = int32(x.rank(&cb, n))*2 + int32(c.ToMove())
				}
				l.arcs[v*p+a] = arc
			}
		}
	}
	l.attract()
	return l
}

// attract computes the predecessors and every winning rank of the layer
// for a fresh history.
func (l *layer) attract() {
	verts := len(l.arcs) / max(l.p, 1)
	// The predecessors of each vertex, one entry per arc.
	l.start = make([]int32, verts+1)
	for _, a := range l.arcs {
		if a.to >= 0 {
			l.start[a.to+1]++
		}
	}
	for v := 0; v < verts; v++ {
		l.start[v+1] += l.start[v]
	}
	l.pred = make([]int32, l.start[verts])
	fill := append([]int32(nil), l.start[:verts]...)
	for i, a := range l.arcs {
		if a.to >= 0 {
			l.pred[fill[a.to]] = int32(i / l.p)
			fill[a.to]++
		}
	}
	for q := 0; q < 2; q++ {
		l.ranks[q] = make([]ranking, l.n+1)
		for g := 1; g <= l.n; g++ {
			l.ranks[q][g] = l.base(q, g)
			var w work
			l.ranks[q][g].rank = append([]int32(nil), l.winRanks(q, g, nil, &w, -1)...)
		}
	}
}

// base returns what q's winning ranks for g seeds or more of the n need
// before they are spread: the vertices of rank 1 (q moves and has a move
// that ends the game or captures with the goal sure, or the opponent moves
// and every move does) and, for each vertex of the opponent, the number of
// its moves into the layer (MaxInt32 if it has an exit that does not make
// q sure).
func (l *layer) base(q, g int) ranking {
	verts := len(l.arcs) / l.p
	a := ranking{need: make([]int32, verts)}
	for v := 0; v < verts; v++ {
		mover := v & 1
		sure, short, open := false, false, int32(0)
		for _, arc := range l.arcs[v*l.p : (v+1)*l.p] {
			switch {
			case arc.to == -2:
				continue
			case arc.to >= 0:
				open++
			case l.exitValue(q, arc) >= g:
				sure = true
			default:
				short = true
			}
		}
		if !sure && !short && open == 0 {
			continue // no legal move: a finished game, not a vertex
		}
		switch {
		case mover == q && sure, mover != q && !short && open == 0:
			a.initial = append(a.initial, int32(v))
		case mover != q && short:
			a.need[v] = math.MaxInt32
		default:
			a.need[v] = open
		}
	}
	return a
}

// exitValue returns the seeds of the n that q is sure of after the exit a.
func (l *layer) exitValue(q int, a arc) int {
	if q == 1 {
		return l.n - int(a.hi)
	}
	return int(a.lo)
}

// blocked marks a vertex the winning ranks never use: a position of the
// history where q falls short.
const blocked = unranked - 1

// work holds the buffers of winRanks.
type work struct {
	rank, need, ok, queue, drop []int32
}

// winRanks returns q's winning ranks for g seeds or more of the n (in w's
// buffer), with the positions of the history hist as sinks: coming back to
// one ends the game, each side keeping its row. Rank 0 holds the sinks
// where q's row reaches g and the safe set: the greatest set of positions
// where q's row reaches g from which q can keep the play inside it (or end
// it on such a sink, or by an exit that makes q sure of g) whatever the
// opponent does. Inside it every repetition, the only way the play can end
// there but the exits, leaves q with g or more. Then rank r+1 holds each
// position where q moves and has a move to rank r or an exit sure of g, or
// where the opponent moves and every move goes to rank at most r or to
// such an exit. Along the ranks the play falls a rank at every move until
// it reaches rank 0: no position repeats before, and none of rank at least
// the start's comes again; sinks where q falls short are never entered.
// Ranking stops once target (if not -1) is ranked.
func (l *layer) winRanks(q, g int, hist []step, w *work, target int32) []int32 {
	a := &l.ranks[q][g]
	verts := len(a.need)
	if len(w.rank) < verts {
		w.rank, w.need, w.ok = make([]int32, verts), make([]int32, verts), make([]int32, verts)
	}
	rank, need, ok := w.rank[:verts], w.need[:verts], w.ok[:verts]
	for i := range rank {
		rank[i] = unranked
	}
	queue := w.queue[:0]
	for _, h := range hist {
		if l.row(q, h.v) >= g {
			rank[h.v] = 0
			queue = append(queue, h.v)
		} else {
			rank[h.v] = blocked
		}
	}
	sinks := len(queue)
	// The safe set: the candidates (positions where q's row reaches g,
	// not of the history) less those that cannot keep the play safe, and
	// what dropping them uncovers. ok counts a candidate's safe moves.
	const out = -1
	for v := range verts {
		ok[v] = out
		if rank[v] == unranked && l.row(q, int32(v)) >= g && l.moves(int32(v)) > 0 {
			ok[v] = 0
		}
	}
	drop := w.drop[:0]
	for v := range verts {
		if ok[v] == out {
			continue
		}
		good := int32(0)
		for _, arc := range l.arcs[v*l.p : (v+1)*l.p] {
			switch {
			case arc.to == -2:
			case arc.to >= 0:
				if rank[arc.to] == 0 || ok[arc.to] != out {
					good++
				}
			case l.exitValue(q, arc) >= g:
				good++
			}
		}
		ok[v] = good
		if v&1 == q && good == 0 || v&1 != q && good < l.moves(int32(v)) {
			drop = append(drop, int32(v))
		}
	}
	for _, v := range drop {
		ok[v] = out
	}
	for i := 0; i < len(drop); i++ {
		for _, u := range l.pred[l.start[drop[i]]:l.start[drop[i]+1]] {
			if ok[u] == out {
				continue
			}
			if int(u&1) == q {
				if ok[u]--; ok[u] > 0 {
					continue
				}
			}
			ok[u] = out
			drop = append(drop, u)
		}
	}
	w.drop = drop
	queue = queue[:sinks]
	for v := range verts {
		if ok[v] != out {
			rank[v] = 0
			queue = append(queue, int32(v))
		}
	}
	copy(need, a.need)
	for _, u := range a.initial {
		if rank[u] == unranked {
			rank[u] = 1
			queue = append(queue, u)
		}
	}
	w.queue = l.spread(q, rank, need, queue, target)
	return rank
}

// moves returns the number of legal moves at vertex v.
func (l *layer) moves(v int32) int32 {
	m := int32(0)
	for _, arc := range l.arcs[int(v)*l.p : int(v+1)*l.p] {
		if arc.to != -2 {
			m++
		}
	}
	return m
}

// spread ranks, backwards from the vertices in queue (ranked, in order of
// rank), every vertex that reaches them: a vertex of q (by parity) from
// any ranked successor, an opponent's vertex once need says all its moves
// are ranked. Vertices already ranked (or blocked) are left alone. It
// stops once target (if not -1) is ranked and returns the queue for reuse.
func (l *layer) spread(q int, rank, need, queue []int32, target int32) []int32 {
	for i := 0; i < len(queue) && (target < 0 || rank[target] == unranked); i++ {
		v := queue[i]
		r := rank[v] + 1
		for _, u := range l.pred[l.start[v]:l.start[v+1]] {
			if rank[u] != unranked {
				continue
			}
			if int(u&1) != q {
				if need[u]--; need[u] > 0 {
					continue
				}
			}
			rank[u] = r
			queue = append(queue, u)
		}
	}
	return queue
}

// row returns q's row at vertex v.
func (l *layer) row(q int, v int32) int {
	if q == 0 {
		return int(l.row0[v])
	}
	return l.n - int(l.row0[v])
}

// rank returns the fresh winning rank of vertex v for q and g seeds or more.
func (l *layer) rank(q, g int, v int32) int32 {
	switch {
	case g <= 0:
		return 0
	case g > l.n:
		return unranked
	}
	return l.ranks[q][g].rank[v]
}

// stateOf returns the position of board b (absolute pits) with the mover
// and player 0's store given (player 1 holds the rest).
func stateOf(g *env.Game, b *[16]uint8, mover, store0 int) env.State {
	p := g.PitsPerRow()
	var sb strings.Builder
	for i := 0; i < 2*p; i++ {
		switch {
		case i == p:
			sb.WriteByte('/')
		case i > 0:
			sb.WriteByte(',')
		}
		fmt.Fprint(&sb, b[i])
	}
	n := 0
	for i := 0; i < 2*p; i++ {
		n += int(b[i])
	}
	fmt.Fprintf(&sb, " %d-%d %c 0", store0, g.Total()-n-store0, "SN"[mover])
	s, err := g.ParsePosition(sb.String())
	if err != nil {
		panic(fmt.Sprintf("%s: %v", sb.String(), err))
	}
	return s
}
