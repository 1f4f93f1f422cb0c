package classic

import (
	"fmt"
	"math"

	"github.com/urim-rl/urim/env"
)

// The Gumbel rule (Rule Gumbel), after Danihelka, Guez, Schrittwieser and
// Silver, "Policy improvement by planning with Gumbel", ICLR 2022.
//
// A search of n simulations on a fresh tree spends the first on the root
// (its evaluation and expansion, as every search here does) and the other
// n − 1 on the root's children, by Sequential Halving: the min(M, legal)
// actions with the highest g + logits (g Gumbel noise, logits the log
// priors) are visited in phases, each phase giving every remaining action
// max(1, ⌊(n − 1) / (⌈log₂ k⌉ · remaining)⌋) visits and then keeping the
// best half by g + logits + σ(q̂) (never fewer than two), until the budget
// is spent (halvingSequence). The root child a descent takes is the best by
// that score among the children whose visit count is the one the schedule
// gives the simulation its index (as mctx does it), so the schedule needs no
// state beyond the counts.
//
// σ(q̂) = (CVisit + max_b N(b)) · CScale · q̂, where q̂ is the completed Q:
// a visited child's mean value, an unvisited child's the mixed value
// approximation v_mix = (v̂ + ΣN · Σ_visited π(a)q(a) / Σ_visited π(a)) /
// (1 + ΣN), v̂ being the network's value of the node; completed Q-values
// are rescaled to [0, 1] by their minimum and maximum over the node's
// children (mctx's default). The node's own network value is not stored:
// a node is expanded at its first visit and every later visit goes through
// a child, so v̂ = −(node value sum + Σ children's value sums).
//
// The move chosen is the best by g + logits + σ(q̂) among the most visited
// children; the policy target is softmax(logits + σ(q̂)) over the legal
// actions. Below the root, a descent takes the child with the highest
// π'(a) − N(a) / (1 + ΣN), π' = softmax(logits + σ(q̂)): the paper's
// deterministic non-root selection. Pending simulations of a batched round
// count as visits that lost (virtual loss, as under PUCT), in N and in Q.

// GumbelConfig holds the constants of the Gumbel rule; each zero field
// takes the paper's default, as its comment says.
type GumbelConfig struct {
	// M is the number of root actions sampled without replacement by
	// Gumbel-top-k, min(M, legal actions); 0 means 16 (every legal action
	// of a 6- or 7-pit board).
	M int
	// CVisit and CScale set σ(q̂) = (CVisit + max_b N(b)) · CScale · q̂; 0
	// means 50 and 0.1.
	CVisit, CScale float64
	// Noise scales the Gumbel noise g added to the root's logits: 0 means
	// none (the search then plays deterministically: evaluation), 1 is the
	// paper's sampling (self-play).
	Noise float64
}

func (c *GumbelConfig) check() error {
	switch {
	case c.M < 0 || c.M > 64:
		return fmt.Errorf("%w: gumbel m %d: want 0 (16) to 64", ErrMCTSConfig, c.M)
	case !(c.CVisit >= 0 && c.CVisit <= 1e6) || !(c.CScale >= 0 && c.CScale <= 1e3):
		return fmt.Errorf("%w: gumbel c_visit %g, c_scale %g: want 0 to 1e6 and 0 to 1000", ErrMCTSConfig, c.CVisit, c.CScale)
	case !(c.Noise >= 0 && c.Noise <= 100):
		return fmt.Errorf("%w: gumbel noise %g: want 0 to 100", ErrMCTSConfig, c.Noise)
	}
	return nil
}

// withDefaults returns c with its zero fields set to the defaults.
func (c GumbelConfig) withDefaults() GumbelConfig {
	if c.M == 0 {
		c.M = 16
	}
	if c.CVisit == 0 {
		c.CVisit = 50
	}
	if c.CScale == 0 {
		c.CScale = 0.1
	}
	return c
}

// gumbelRoot is a tree's state of the running Gumbel search.
type gumbelRoot struct {
	m              int
	cVisit, cScale float32
	noise          float32
	g              [env.MaxActions]float32 // the root's Gumbel noise, by action
	seq            []int32                 // halvingSequence of this search
	// logits caches the log priors of the root's children, by child,
	// filled as the root selection first reads them (known[i]).
	logits [env.MaxActions]float32
	known  [env.MaxActions]bool
}

// rootLogit returns the log prior of the root's i-th child, computed once a
// search.
func (gr *gumbelRoot) rootLogit(i int, prior float32) float32 {
	if !gr.known[i] {
		gr.logits[i], gr.known[i] = logit(prior), true
	}
	return gr.logits[i]
}

func newGumbelRoot(c GumbelConfig) gumbelRoot {
	c = c.withDefaults()
	return gumbelRoot{m: c.M, cVisit: float32(c.CVisit), cScale: float32(c.CScale), noise: float32(c.Noise)}
}

// halvingSequence appends to out, for each of the n simulations of a
// Sequential Halving over k actions, the number of visits the action it
// visits has before the visit (mctx's considered visits). It appends
// exactly n entries.
func halvingSequence(k, n int, out []int32) []int32 {
	if k <= 1 {
		for i := range n {
			out = append(out, int32(i))
		}
		return out
	}
	log2k := 0
	for 1<<log2k < k {
		log2k++
	}
	start := len(out)
	var visits int32
	for considered := k; len(out)-start < n; considered = max(2, considered/2) {
		extra := max(1, n/(log2k*considered))
		for range extra {
			for range considered {
				out = append(out, visits)
			}
			visits++
		}
	}
	return out[:start+n]
}

// beginGumbel starts a Gumbel search of sims simulations at the root of a
// fresh tree: the schedule and the root's noise.
func (t *tree) beginGumbel(sims int) {
	gr := &t.gum
	k := min(gr.m, t.root.Legal().Count())
	gr.seq = halvingSequence(k, max(sims-1, 0), gr.seq[:0])
	gr.known = [env.MaxActions]bool{}
	for a := range gr.g {
		gr.g[a] = 0
		if gr.noise > 0 {
			// u in (0, 1): 53 random bits, offset by half a step.
			u := (float64(t.rng.Next()>>11) + 0.5) / (1 << 53)
			gr.g[a] = gr.noise * float32(-math.Log(-math.Log(u)))
		}
	}
}

// logit is the log prior, floored so that a prior that underflowed to 0
// still orders.
func logit(prior float32) float32 {
	return float32(math.Log(float64(max(prior, 1e-30))))
}

// sigma writes σ(q̂) of each child of p (kids, in the arena's order) to sig.
func (t *tree) sigma(p *node, kids []node, sig []float32) {
	var sumN, maxN int32
	var valueSum, wq, wp float32
	for i := range kids {
		c := &kids[i]
		valueSum += c.value
		// Pending simulations of a batched round count as visits that
		// lost (virtual loss, as under PUCT), so the next descents of the
		// round turn to other children; 0 outside batched search.
		if n := c.visits + int32(c.vloss); n > 0 {
			sumN += n
			maxN = max(maxN, n)
			q := (c.value - float32(c.vloss)) / float32(n)
			sig[i] = q // the completed Q below, once for both loops
			pr := max(c.prior, 1e-30)
			wq += pr * q
			wp += pr
		}
	}
	// The network's value for the player to move at p: p.value holds the
	// values of p's visits for the player who moved into p.
	vmix := -(p.value + valueSum)
	if sumN > 0 {
		vmix = (vmix + float32(sumN)*wq/wp) / float32(sumN+1)
	}
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for i := range kids {
		q := vmix
		if c := &kids[i]; c.visits+int32(c.vloss) > 0 {
			q = sig[i]
		}
		sig[i] = q
		lo, hi = min(lo, q), max(hi, q)
	}
	scale := (t.gum.cVisit + float32(maxN)) * t.gum.cScale / max(hi-lo, 1e-8)
	for i := range kids {
		sig[i] = (sig[i] - lo) * scale
	}
}

// selectGumbel returns the child of parent a descent takes under the
// Gumbel rule.
func (t *tree) selectGumbel(parent int32) int32 {
	p := &t.nodes[parent]
	kids := t.nodes[p.first : p.first+int32(p.kids)]
	var sig [env.MaxActions]float32
	t.sigma(p, kids, sig[:len(kids)])
	var total int32
	for i := range kids {
		total += kids[i].visits + int32(kids[i].vloss)
	}
	if parent == 0 && int(total) < len(t.gum.seq) {
		want := t.gum.seq[total]
		best, bestScore := -1, float32(math.Inf(-1))
		for i := range kids {
			c := &kids[i]
			if c.visits+int32(c.vloss) != want {
				continue
			}
			if sc := t.gum.g[c.action] + t.gum.rootLogit(i, c.prior) + sig[i]; best < 0 || sc > bestScore {
				best, bestScore = i, sc
			}
		}
		if best >= 0 {
			return p.first + int32(best)
		}
		// No child has the count the schedule wants: the tree was not
		// searched from empty by this schedule. The interior rule decides.
	}
	// π'(a) ∝ prior(a) · exp(σ(a)), shifted by the largest σ.
	top := sig[0]
	for _, s := range sig[1:len(kids)] {
		top = max(top, s)
	}
	var w [env.MaxActions]float32
	var sum float32
	for i := range kids {
		w[i] = kids[i].prior * float32(math.Exp(float64(sig[i]-top)))
		sum += w[i]
	}
	if sum == 0 {
		sum = 1
	}
	den := 1 / float32(1+total)
	best, bestScore := 0, float32(math.Inf(-1))
	for i := range kids {
		if sc := w[i]/sum - float32(kids[i].visits+int32(kids[i].vloss))*den; sc > bestScore {
			best, bestScore = i, sc
		}
	}
	return p.first + int32(best)
}

// gumbelDecide returns the move of a finished Gumbel search at the root, the
// best by g + logits + σ(q̂) among the most visited children, and writes
// the policy target softmax(logits + σ(q̂)) to policy (0 for illegal
// actions), when policy is not nil.
func (t *tree) gumbelDecide(policy *[env.MaxActions]float32) int {
	p := &t.nodes[0]
	kids := t.nodes[p.first : p.first+int32(p.kids)]
	var sig [env.MaxActions]float32
	t.sigma(p, kids, sig[:len(kids)])
	var most int32
	for i := range kids {
		most = max(most, kids[i].visits)
	}
	best, bestScore := -1, float32(math.Inf(-1))
	top := float32(math.Inf(-1))
	for i := range kids {
		c := &kids[i]
		top = max(top, sig[i])
		if c.visits != most {
			continue
		}
		if sc := t.gum.g[c.action] + logit(c.prior) + sig[i]; best < 0 || sc > bestScore {
			best, bestScore = i, sc
		}
	}
	if policy != nil {
		*policy = [env.MaxActions]float32{}
		var sum float32
		for i := range kids {
			w := kids[i].prior * float32(math.Exp(float64(sig[i]-top)))
			policy[kids[i].action] = w
			sum += w
		}
		if sum > 0 {
			for a := range policy {
				policy[a] /= sum
			}
		}
	}
	return int(kids[best].action)
}

// checkGumbel validates the Gumbel fields of an MCTS config and makes its
// searches start from an empty tree.
func checkGumbel(cfg *MCTSConfig) error {
	if cfg.Rule != Gumbel {
		return nil
	}
	if err := cfg.Gumbel.check(); err != nil {
		return err
	}
	if cfg.Sims == 0 || cfg.Time > 0 || cfg.Threads > 1 {
		return fmt.Errorf("%w: the gumbel rule needs a simulation budget (sims), no time limit and one thread (sims %d, time %s, threads %d)",
			ErrMCTSConfig, cfg.Sims, cfg.Time, cfg.Threads)
	}
	cfg.NoReuse = true
	return nil
}

// decideGumbel records the one tree's root statistics in m.info, as decide
// does, and returns the Gumbel search's move.
func (m *MCTS) decideGumbel(s *env.State) int {
	m.decide(s)
	best := m.trees[0].gumbelDecide(nil)
	if m.info.Visits[best] > 0 {
		m.info.Value = float64(m.trees[0].nodes[m.trees[0].child(0, best)].value) / float64(m.info.Visits[best])
	}
	m.info.PV = append(m.info.PV[:0], best)
	return best
}

// GumbelDesc is the part of an az agent's description for the Gumbel rule.
func GumbelDesc(cfg *MCTSConfig) string {
	if cfg.Rule != Gumbel {
		return ""
	}
	return fmt.Sprintf(",root=gumbel,m=%d", cfg.Gumbel.withDefaults().M)
}
