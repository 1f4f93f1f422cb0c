package classic

import (
	"fmt"
	"time"

	"github.com/urim-rl/urim/env"
)

// Batched PUCT search. A round descends from the root up to Batch times;
// each descent that ends on a new leaf marks its path with a virtual loss
// (node.vloss: the pending simulation counts as a visit that lost, so the
// next descent of the round prefers other lines) and queues the leaf in a
// BatchEvaluator. One flush evaluates the round's leaves together; each is
// then expanded with its priors and its value backed up along its path,
// which removes the virtual loss. A descent that ends on a finished game is
// backed up at once; one that ends on a leaf already queued (a collision)
// ends the round early, so the first round of a fresh tree evaluates the
// root alone. A descent that ends in a position the endgame table holds
// (MCTSConfig.Table) is backed up at once too, like a finished game: in a
// table position every descent below the root ends so, and batched search
// is then exactly the unbatched search. Virtual loss is a separate counter, not a change to the value
// sums, so it leaves no rounding residue.
//
// With one leaf per round this is exactly the unbatched PUCT search: the
// same descents, the same expansions, the same generator draws. A round of
// one descent marks no virtual loss (no other descent could see it).

// MaxBatch bounds MCTSConfig.Batch: node.vloss is an int16 and the root
// carries the virtual loss of every leaf of a round.
const MaxBatch = 1024

// batched is what a tree needs for batched rounds.
type batched struct {
	batch    int       // leaves per round; 0 or 1: one at a time, unbatched
	pend     []pending // leaves of the running round
	pendPath []int32   // their paths, end to end
}

// pending is a leaf selected in the running round, waiting for its
// evaluation.
type pending struct {
	leaf         int32    // the leaf's node
	row          int32    // its row in the evaluator's batch
	path0, path1 int32    // its path: tree.pendPath[path0:path1], or tree.path if path0 < 0
	legal        env.Mask // the leaf's legal actions, for its expansion
	vloss        int16    // the virtual loss its path carries: 1, or 0 in a round of one descent
}

// checkBatch validates the batching fields of cfg.
func checkBatch(cfg *MCTSConfig) error {
	if cfg.Batch < 0 || cfg.Batch > MaxBatch {
		return fmt.Errorf("%w: batch %d: want 0 to %d", ErrMCTSConfig, cfg.Batch, MaxBatch)
	}
	if cfg.Batch > 1 && !cfg.Rule.priors() {
		return fmt.Errorf("%w: batch %d needs PUCT or Gumbel (UCT expands leaves on their second visit and cannot batch them)", ErrMCTSConfig, cfg.Batch)
	}
	return nil
}

// checkBatchEvaluators checks that batched trees got batch evaluators.
func checkBatchEvaluators(trees []*tree) error {
	for _, t := range trees {
		if _, ok := t.eval.(BatchEvaluator); t.batch > 1 && !ok {
			return fmt.Errorf("%w: batch %d needs an evaluator that implements BatchEvaluator, not %T", ErrMCTSConfig, t.batch, t.eval)
		}
	}
	return nil
}

// searchBatched is search in rounds of up to t.batch leaves.
func (t *tree) searchBatched(s *env.State, sims int, deadline time.Time, noReuse bool) {
	if noReuse {
		t.reset(s)
	} else {
		t.advance(s)
	}
	if t.rule == Gumbel {
		t.beginGumbel(sims)
	}
	ev := t.eval.(BatchEvaluator)
	timed := !deadline.IsZero()
	for done := 0; (sims == 0 || done < sims) && len(t.nodes) < maxTreeNodes; {
		// A round costs a network call: the clock is cheap next to it.
		if timed && done > 0 && time.Now().After(deadline) {
			break
		}
		n := t.batch
		if sims > 0 {
			n = min(n, sims-done)
		}
		done += t.gather(n, ev, &t.cur, false)
		t.flush(ev)
	}
}

// flush evaluates the queued leaves of the round, if any, and scatters
// their results.
func (t *tree) flush(ev BatchEvaluator) {
	if len(t.pend) > 0 {
		ev.Flush()
		t.scatter(ev)
	}
}

// gather runs up to n descents from the root, replaying them on s,
// queueing new leaves in ev with virtual loss and backing up finished games
// and table positions (tree.ended) at once. It returns the simulations done or queued, fewer than n after a
// collision. (The lock-step search passes one s for all its trees, which
// stays in the cache.) ready tells that s holds the root already, for the
// first descent.
func (t *tree) gather(n int, ev BatchEvaluator, s *env.State, ready bool) int {
	done := 0
	for done < n {
		if !ready {
			*s = t.root
		}
		ready = false
		t.path = append(t.path[:0], 0)
		idx := int32(0)
		for t.nodes[idx].kids > 0 {
			idx = t.descend(idx, s)
		}
		if v, ended := t.ended(idx, s); ended {
			t.backup(t.path, v, 0)
			done++
			continue
		}
		if t.nodes[idx].vloss > 0 {
			break // a collision: this leaf waits in the batch already
		}
		// A round of one descent needs no virtual loss, no other descent of
		// the round could see it, and no copy of its path: t.path keeps it
		// until the scatter (path0 < 0 says so).
		p := pending{leaf: idx, row: int32(ev.Queue(s)), path0: -1, legal: s.Legal()}
		if n > 1 {
			p.vloss = 1
			for _, i := range t.path {
				t.nodes[i].vloss++
			}
			p.path0 = int32(len(t.pendPath))
			t.pendPath = append(t.pendPath, t.path...)
			p.path1 = int32(len(t.pendPath))
		}
		t.pend = append(t.pend, p)
		done++
	}
	return done
}

// scatter expands the round's leaves with the priors ev computed and backs
// up their values, removing their virtual loss.
func (t *tree) scatter(ev BatchEvaluator) {
	prior := t.prior[:t.root.Game().PitsPerRow()]
	for _, p := range t.pend {
		v := ev.Result(int(p.row), prior)
		t.expand(p.leaf, p.legal)
		path := t.path
		if p.path0 >= 0 {
			path = t.pendPath[p.path0:p.path1]
		}
		t.backup(path, v, p.vloss)
	}
	t.pend = t.pend[:0]
	t.pendPath = t.pendPath[:0]
}

// backup adds v, the value for the player to move at the end of path, to
// every node of path, from the point of view of the player who moved into
// it, and takes vloss off each node's virtual loss.
func (t *tree) backup(path []int32, v float32, vloss int16) {
	for i := len(path) - 1; i >= 0; i-- {
		v = -v
		n := &t.nodes[path[i]]
		n.visits++
		n.value += v
		n.vloss -= vloss
	}
}
