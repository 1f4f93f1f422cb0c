package classic

import (
	"math"

	"github.com/urim-rl/urim/env"
)

// Forced playouts and policy target pruning (KataGo, Wu 2019, §3.1): at the
// root of a full self-play search, a child that has been visited at all but
// fewer than n_forced(c) = √(k·P(c)·N) times (N the root's visits) is
// selected before PUCT is asked, so moves the network rates low still get
// looked at; the policy target then takes those forced visits back from
// every child but the most visited, as far as they were not ones PUCT would
// have given anyway, and drops children left with a single visit. The
// move played still comes from the unpruned visits.

// forcedCount is n_forced for a child of prior p under a root of n visits.
func forcedCount(k, p float32, n int32) float32 {
	return float32(math.Sqrt(float64(k * p * float32(n))))
}

// selectForced returns the first root child below its forced playouts
// (pending simulations count), or -1.
func (t *tree) selectForced() int32 {
	root := &t.nodes[0]
	n := root.visits + int32(root.vloss)
	for i := root.first; i < root.first+int32(root.kids); i++ {
		c := &t.nodes[i]
		if v := c.visits + int32(c.vloss); v > 0 && float32(v) < forcedCount(t.forced, c.prior, n) {
			return i
		}
	}
	return -1
}

// prunedPolicy writes the pruned visit distribution of the root's children
// to policy (over actions) and reports whether any child was visited.
func (t *tree) prunedPolicy(k float32, policy *[env.MaxActions]float32) bool {
	root := &t.nodes[0]
	kids := t.nodes[root.first : root.first+int32(root.kids)]
	best := -1
	for i := range kids {
		if kids[i].visits > 0 && (best < 0 || kids[i].visits > kids[best].visits) {
			best = i
		}
	}
	if best < 0 {
		return false
	}
	explore := t.c * sqrtCount(root.visits)
	puct := func(c *node, n float32) float32 { return c.value/float32(c.visits) + explore*c.prior/(1+n) }
	b := &kids[best]
	bestScore := puct(b, float32(b.visits))
	var pruned [env.MaxActions]float32
	var sum float32
	for i := range kids {
		c := &kids[i]
		n := float32(c.visits)
		if i != best && c.visits > 0 {
			// The fewest visits c could keep: at most its forced playouts
			// taken back, and no fewer than PUCT would have given it
			// against the best child (its score falls as its visits grow).
			floor := max(n-float32(math.Floor(float64(forcedCount(k, c.prior, root.visits)))), 0)
			if q := c.value / float32(c.visits); bestScore > q {
				need := float32(math.Ceil(float64(explore*c.prior/(bestScore-q) - 1)))
				n = min(n, max(floor, need))
			}
			if n <= 1 {
				n = 0
			}
		}
		pruned[c.action] = n
		sum += n
	}
	for a := range policy {
		policy[a] = pruned[a] / sum
	}
	return true
}
