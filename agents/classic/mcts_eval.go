package classic

import (
	"github.com/urim-rl/urim/env"
)

// Evaluator estimates the positions at the leaves of an MCTS tree: a value
// and a prior over the moves. Random rollouts are one evaluator
// ([RolloutEvaluator]); a neural network is another, so AlphaZero is MCTS with
// a different evaluator and the PUCT selection rule.
//
// An MCTS search calls an evaluator from one goroutine only: each search
// thread gets its own from [MCTSConfig.NewEvaluator].
type Evaluator interface {
	// Evaluate returns the value of s, an ongoing position, for the player
	// to move, in [-1, 1], and writes prior[a] for each legal action a (the
	// others are ignored; len(prior) is the number of actions). It must not
	// change s and should not allocate.
	Evaluate(s *env.State, prior []float32) float32
}

// BatchEvaluator is an Evaluator that can also value many positions in one
// call, as a network's forward pass over a batch does. A batched search
// ([MCTSConfig.Batch] above 1, or the lock-step search of [Lockstep]) queues
// the leaves it selects, flushes the queue once, then reads each result.
type BatchEvaluator interface {
	Evaluator
	// Queue adds s, an ongoing position, to the next batch and returns its
	// row. Callers queue at most the evaluator's capacity (the batch size
	// it was made for) between flushes. It must not change s.
	Queue(s *env.State) int
	// Flush evaluates the queued positions and empties the queue. The
	// results stay readable until the next Flush or Evaluate, while new
	// positions are queued.
	Flush()
	// Result returns the value of row i of the last flush for its player
	// to move, in [-1, 1], and writes prior[a] for each of its legal
	// actions, as Evaluate does.
	Result(i int, prior []float32) float32
}

// RolloutEvaluator values a position by playing random games from it. The
// zero value plays one rollout to the end of the game and scores it in match
// points; the prior is uniform over the legal moves.
type RolloutEvaluator struct {
	// Rollouts is the number of random games averaged per evaluation; 0
	// means 1.
	Rollouts int
	// Cutoff stops a rollout after this many plies and scores the position
	// reached by its store difference, (mine − theirs) / T, which lies in
	// [-1, 1] like the rewards; 0 plays every rollout to the end.
	Cutoff int
	// Reward turns a finished rollout into a value (env.RewardMatchPoints by
	// default).
	Reward env.RewardKind

	rng Xorshift
}

// NewRolloutEvaluator returns a RolloutEvaluator with its own generator
// seeded with seed.
func NewRolloutEvaluator(rollouts, cutoff int, reward env.RewardKind, seed uint64) *RolloutEvaluator {
	return &RolloutEvaluator{Rollouts: rollouts, Cutoff: cutoff, Reward: reward, rng: NewXorshift(seed)}
}

// Evaluate plays the rollouts from s and returns their mean value for the
// player to move in s.
func (r *RolloutEvaluator) Evaluate(s *env.State, prior []float32) float32 {
	if r.rng == 0 {
		r.rng = NewXorshift(0)
	}
	legal := s.Legal()
	uniform := 1 / float32(legal.Count())
	for m := legal; m != 0; m &= m - 1 {
		prior[m.Nth(0)] = uniform
	}
	me := s.ToMove()
	n := max(r.Rollouts, 1)
	var sum float32
	for range n {
		t := *s
		if r.Cutoff <= 0 {
			env.Playout(&t, (*uint64)(&r.rng))
			sum += t.Rewards(r.Reward)[me]
			continue
		}
		for ply := 0; ply < r.Cutoff && !t.Terminal(); ply++ {
			m := t.Legal()
			t.Play(m.Nth(r.rng.intn(m.Count())))
		}
		if t.Terminal() {
			sum += t.Rewards(r.Reward)[me]
		} else {
			sum += float32(t.Store(me)-t.Store(1-me)) / float32(t.Game().Total())
		}
	}
	return sum / float32(n)
}
