package classic

import (
	"math"
	"math/bits"
	"slices"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/tablebase"
)

// node is one position of a search tree. Nodes live in one slice (the
// arena) and refer to their children by index, so the tree holds no
// pointers and growing it copies a flat block. A node's children are
// contiguous: first … first+kids-1. Positions are not stored: a simulation
// replays the actions from the root's state.
type node struct {
	first  int32   // index of the first child; 0 until the node is expanded (the root is never a child)
	visits int32   // simulations through this node
	value  float32 // sum of their values, for the player who moved into this node
	prior  float32 // the evaluator's probability of the move into this node
	action int8    // the move into this node
	kids   int8    // number of children; 0 for a leaf or a finished game
	vloss  int16   // simulations through this node waiting for a batched evaluation (virtual loss; see mcts_batch.go)
}

// tree is the search of one thread: its arena, its evaluator and generator,
// and the scratch a simulation reuses.
type tree struct {
	nodes []node
	spare []node // the other arena, used when the tree is re-rooted
	root  env.State
	path  []int32
	prior [env.MaxActions]float32
	eval  Evaluator
	rng   Xorshift
	c     float32
	rule  Rule
	kind  env.RewardKind
	table *tablebase.Table // MCTSConfig.Table, or nil
	gum   gumbelRoot       // the Gumbel rule's search (gumbel.go)
	// forced is the k of forced playouts at the root (mcts_forced.go) for
	// the running search; 0: none.
	forced float32

	batched // the rounds of a batched search (mcts_batch.go)

	// cur is the position of the running simulation. It lives here rather
	// than on the stack because the evaluator, an interface, receives a
	// pointer to it, which would move a local to the heap every time. It
	// comes last, after the fields every descent reads, which then share
	// cache lines with the end of root (the lock-step search, which
	// descends on a scratch position of its own, never touches it).
	cur env.State
}

func newTree(cfg *MCTSConfig, seed uint64) *tree {
	return &tree{
		path:  make([]int32, 0, 128),
		eval:  cfg.NewEvaluator(splitSeed(seed, 1)),
		rng:   NewXorshift(splitSeed(seed, 2)),
		c:     float32(cfg.C),
		rule:  cfg.Rule,
		kind:  cfg.Reward,
		table: cfg.Table,
		gum:   newGumbelRoot(cfg.Gumbel),

		batched: batched{batch: cfg.Batch},
	}
}

// reset makes s the root of an empty tree.
func (t *tree) reset(s *env.State) {
	t.root = *s
	t.nodes = append(t.nodes[:0], node{})
}

// simulate runs one simulation: select down the tree by the UCT (or PUCT)
// rule, evaluate the leaf, expand, and back the value up the path.
//
// Under UCT a leaf is expanded on its second visit, as OpenSpiel does: the
// first visit only evaluates it, so the tree holds about two nodes per
// simulation rather than one per legal move. PUCT (and Gumbel) needs the evaluator's
// priors for the children, so it expands a leaf when it evaluates it.
func (t *tree) simulate() {
	t.cur = t.root
	s := &t.cur
	t.path = append(t.path[:0], 0)
	idx := int32(0)
	for t.nodes[idx].kids > 0 {
		idx = t.descend(idx, s)
	}
	// v is the value for the player to move in s.
	v, ended := t.ended(idx, s)
	if !ended && !t.rule.priors() && t.nodes[idx].visits > 0 {
		t.expand(idx, s.Legal())
		idx = t.descend(idx, s)
		v, ended = t.ended(idx, s)
	}
	if !ended {
		v = t.eval.Evaluate(s, t.prior[:s.Game().PitsPerRow()])
		if t.rule.priors() {
			t.expand(idx, s.Legal())
		}
	}
	// Each node holds values for the player who moved into it, the
	// opponent of the player to move there; players alternate every ply.
	for i := len(t.path) - 1; i >= 0; i-- {
		v = -v
		n := &t.nodes[t.path[i]]
		n.visits++
		n.value += v
	}
}

// ended reports whether a simulation that reached node idx at s ends there
// without the evaluator, and its value for the player to move: a finished
// game, valued by the reward, or a position the table holds below the root,
// valued as the game ended at the table's bounds. Such a node is never
// expanded.
func (t *tree) ended(idx int32, s *env.State) (float32, bool) {
	if s.Terminal() {
		return s.Rewards(t.kind)[s.ToMove()], true
	}
	if t.table != nil && idx != 0 {
		return tableReward(t.table, s, t.kind)
	}
	return 0, false
}

// descend selects a child of idx, plays its move on s and adds it to the
// path.
func (t *tree) descend(idx int32, s *env.State) int32 {
	idx = t.selectChild(idx)
	s.Play(int(t.nodes[idx].action))
	t.path = append(t.path, idx)
	return idx
}

// selectChild returns the child of parent with the highest UCT score,
// Q + c·sqrt(ln N / n), or with PUCT, Q + c·P·sqrt(N) / (1 + n). Under UCT an
// unvisited child is taken first; children were shuffled at expansion, so
// the order among unvisited ones is random.
func (t *tree) selectChild(parent int32) int32 {
	if t.rule == Gumbel {
		return t.selectGumbel(parent)
	}
	p := &t.nodes[parent]
	first, end := p.first, p.first+int32(p.kids)
	best, bestScore := first, float32(math.Inf(-1))
	if t.rule == PUCT {
		if parent == 0 && t.forced > 0 {
			if c := t.selectForced(); c >= 0 {
				return c
			}
		}
		// Pending simulations count as visits that lost (virtual loss), so
		// the leaves of one batch spread over the tree; vloss is 0 outside
		// batched search, where this is plain PUCT.
		explore := t.c * sqrtCount(p.visits+int32(p.vloss))
		kids := t.nodes[first:end]
		// The running maximum is kept as an ordered integer key (orderKey),
		// so the compiler selects it without a branch: which child wins is
		// not predictable.
		b, bestKey := 0, orderKey(bestScore)
		if p.vloss == 0 {
			// No simulation is pending below p (a pending one marks its
			// whole path), so no child has a virtual loss: the same
			// scores, without reading it.
			for i := range kids {
				c := &kids[i]
				sc := explore * c.prior
				if n := c.visits; n > 0 {
					sc = c.value/float32(n) + sc/float32(1+n)
				}
				if k := orderKey(sc); k > bestKey {
					b, bestKey = i, k
				}
			}
			return first + int32(b)
		}
		for i := range kids {
			c := &kids[i]
			// An unvisited child scores explore·P exactly: Q is 0 and the
			// division is by 1, so both divisions are skipped.
			sc := explore * c.prior
			if n := c.visits + int32(c.vloss); n > 0 {
				sc = (c.value-float32(c.vloss))/float32(n) + sc/float32(1+n)
			}
			if k := orderKey(sc); k > bestKey {
				b, bestKey = i, k
			}
		}
		return first + int32(b)
	}
	logN := float32(math.Log(float64(p.visits)))
	for i := first; i < end; i++ {
		c := &t.nodes[i]
		if c.visits == 0 {
			return i
		}
		n := float32(c.visits)
		sc := c.value/n + t.c*sqrt32(logN/n)
		if sc > bestScore {
			best, bestScore = i, sc
		}
	}
	return best
}

// orderKey maps a score to an integer that orders as the scores do under >,
// and a NaN, which never wins a comparison, to the lowest integer. Scores
// are never -0 (values start at +0 and priors are not negative), the one
// float the key tells apart from an equal one.
func orderKey(x float32) int32 {
	k := int32(math.Float32bits(x))
	k ^= int32(uint32(k>>31) >> 1) // negative floats order backwards
	if x != x {
		k = math.MinInt32
	}
	return k
}

// sqrtCount returns float32(√n) for a count n ≥ 0. Below 2^24, float32(n)
// is exact and the float32 square root (one instruction, shorter than the
// float64 one and its conversions) is the float64 root rounded to float32:
// rounding a square root to 53 bits and then to 24 gives the same float32
// as rounding it once (53 ≥ 2·24 + 2).
func sqrtCount(n int32) float32 {
	if n < 1<<24 {
		return float32(math.Sqrt(float64(float32(n))))
	}
	return float32(math.Sqrt(float64(n)))
}

func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// expand gives node idx one child per legal action, in random order, with
// the priors the evaluator last wrote (PUCT; UCT ignores them).
func (t *tree) expand(idx int32, legal env.Mask) {
	var acts [env.MaxActions]int8
	n := 0
	for m := legal; m != 0; m &= m - 1 {
		acts[n] = int8(bits.TrailingZeros8(uint8(m)))
		n++
	}
	for i := n - 1; i > 0; i-- { // Fisher–Yates
		j := t.rng.intn(i + 1)
		acts[i], acts[j] = acts[j], acts[i]
	}
	first := int32(len(t.nodes))
	t.nodes = slices.Grow(t.nodes, n)[:int(first)+n] // one capacity check, not one per child
	kids := t.nodes[first:]
	for i, a := range acts[:n] {
		kids[i] = node{action: a, prior: t.prior[a]}
	}
	t.nodes[idx].first = first
	t.nodes[idx].kids = int8(n)
}

// child returns the child of idx reached by action a, or -1.
func (t *tree) child(idx int32, a int) int32 {
	p := &t.nodes[idx]
	for i := p.first; i < p.first+int32(p.kids); i++ {
		if int(t.nodes[i].action) == a {
			return i
		}
	}
	return -1
}

// line appends to dst the actions of the most visited path below node idx
// (idx's own action not included), and returns it.
func (t *tree) line(idx int32, dst []int) []int {
	for idx >= 0 {
		n := &t.nodes[idx]
		next := int32(-1)
		for i := n.first; i < n.first+int32(n.kids); i++ {
			if t.nodes[i].visits > 0 && (next < 0 || t.nodes[i].visits > t.nodes[next].visits) {
				next = i
			}
		}
		if next < 0 {
			break
		}
		dst = append(dst, int(t.nodes[next].action))
		idx = next
	}
	return dst
}

// addRoot adds the visits and summed values of the root's children to
// visits and value, by action.
func (t *tree) addRoot(visits *[env.MaxActions]int, value *[env.MaxActions]float64) {
	r := &t.nodes[0]
	for i := r.first; i < r.first+int32(r.kids); i++ {
		c := &t.nodes[i]
		visits[c.action] += int(c.visits)
		value[c.action] += float64(c.value)
	}
}

// advance moves the root to s, keeping the subtree below it when s is the
// root itself, a child or a grandchild (the agent's move and the opponent's
// reply) of the current root; otherwise the tree starts afresh.
func (t *tree) advance(s *env.State) {
	if len(t.nodes) == 0 {
		t.reset(s)
		return
	}
	if found := t.find(s); found >= 0 {
		if found > 0 {
			t.reroot(found)
		}
		t.root = *s
		return
	}
	t.reset(s)
}

// find returns the node at most two plies below the root whose position is
// s, or -1.
func (t *tree) find(s *env.State) int32 {
	same := func(u *env.State) bool { return u.SamePosition(s) && u.Ply() == s.Ply() }
	if same(&t.root) {
		return 0
	}
	r := &t.nodes[0]
	for i := r.first; i < r.first+int32(r.kids); i++ {
		u := t.root
		u.Play(int(t.nodes[i].action))
		if same(&u) {
			return i
		}
		if u.Ply() >= s.Ply() || u.Terminal() {
			continue
		}
		c := &t.nodes[i]
		for j := c.first; j < c.first+int32(c.kids); j++ {
			w := u
			w.Play(int(t.nodes[j].action))
			if same(&w) {
				return j
			}
		}
	}
	return -1
}

// reroot copies the subtree under idx into the spare arena, breadth first,
// with idx as the new root at index 0, and swaps the arenas.
func (t *tree) reroot(idx int32) {
	out := append(t.spare[:0], t.nodes[idx])
	for i := 0; i < len(out); i++ {
		n := &out[i]
		if n.kids == 0 {
			continue
		}
		first := n.first
		n.first = int32(len(out))
		out = append(out, t.nodes[first:first+int32(n.kids)]...)
	}
	t.spare, t.nodes = t.nodes, out
}

// size returns the number of nodes in the tree.
func (t *tree) size() int { return len(t.nodes) }

// maxTreeNodes bounds a tree's nodes, so that a search limited by time
// alone stops growing at the size MaxSims allows (and the int32 node
// indices never overflow).
const maxTreeNodes = agents.MaxSims * 8
