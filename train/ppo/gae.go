package ppo

import "math"

// rollout holds one PPO iteration's moves: Steps × Games entries, entry
// t·N + i being game i's move at step t. Values are from the view of the
// player who moved; rewards are per player (South, North) as the env.Vec
// gives them on the step a game ends.
type rollout struct {
	n, t, dim, actions int

	obs    []float32 // (T·N) × dim: the mover's observation
	mask   []float32 // (T·N) × actions
	act    []int32
	logp   []float32 // log-probability of act under the rollout's policy
	value  []float32 // the value head for the mover
	player []int8    // the mover, 0 or 1
	train  []bool    // a decision of the learning policy (not a pool snapshot's)
	reward []float32 // (T·N) × 2: the rewards of the step, per player
	term   []bool    // the rules ended the game on this step
	trunc  []bool    // the ply cap cut the game on this step
	// boot is, for a truncated step, the value head on the final position
	// for the player to move there (the one who did not move at t).
	boot []float32

	// lastValue and lastMover are the value and mover of each game's
	// position after the last step, for bootstrapping.
	lastValue []float32
	lastMover []int8

	adv, ret []float32 // filled by advantages
}

func newRollout(n, t, dim, actions int) *rollout {
	k := n * t
	return &rollout{n: n, t: t, dim: dim, actions: actions,
		obs: make([]float32, k*dim), mask: make([]float32, k*actions), act: make([]int32, k),
		logp: make([]float32, k), value: make([]float32, k), player: make([]int8, k), train: make([]bool, k),
		reward: make([]float32, 2*k), term: make([]bool, k), trunc: make([]bool, k), boot: make([]float32, k),
		lastValue: make([]float32, n), lastMover: make([]int8, n), adv: make([]float32, k), ret: make([]float32, k)}
}

// advantages computes GAE advantages and returns (adv + value) of every
// trained move, with each player's credit assignment kept apart: the two
// seats' moves interleave in one game, and each player's chain runs over
// its own decisions only. For player p's decision at step t:
//
//   - its reward is the sum of p's rewards (p's column, so with p's sign)
//     from step t up to p's next decision, which in a game that ends
//     between them is the result of the game for p, whoever made the last
//     move;
//   - its next value is the value at p's next decision (the head's value
//     for p, p being the mover there); if the rules end the game before it
//     (terminated), there is none (0) and the chain of advantages is cut;
//     if the ply cap cuts the game (truncated), the game's scored result is
//     ignored and the value of the final position for p bootstraps
//     instead (the head's value there is for the player to move, so p's is
//     its negation when the opponent is to move), and the chain is cut;
//   - at the end of the rollout, the value of the game's current position
//     for p bootstraps the same way.
//
// Then δ = r + γ·next − v and A = δ + γλ·A(p's next decision). Moves of a
// pool snapshot (train false) get no advantage and break no chain of the
// learner's.
func (ro *rollout) advantages(gamma, lambda float32) {
	n := ro.n
	for i := 0; i < n; i++ {
		var next, carry, rew [2]float32
		m := ro.lastMover[i]
		next[m], next[1-m] = ro.lastValue[i], -ro.lastValue[i]
		for t := ro.t - 1; t >= 0; t-- {
			k := t*n + i
			switch {
			case ro.trunc[k]:
				// The final position's mover is the player who did not move
				// at t (turns alternate).
				fm := 1 - ro.player[k]
				next[fm], next[1-fm] = ro.boot[k], -ro.boot[k]
				carry, rew = [2]float32{}, [2]float32{}
			case ro.term[k]:
				next, carry = [2]float32{}, [2]float32{}
				rew = [2]float32{ro.reward[2*k], ro.reward[2*k+1]}
			default:
				rew[0] += ro.reward[2*k]
				rew[1] += ro.reward[2*k+1]
			}
			p := ro.player[k]
			if !ro.train[k] {
				ro.adv[k], ro.ret[k] = 0, 0
				continue
			}
			v := ro.value[k]
			delta := rew[p] + gamma*next[p] - v
			a := delta + gamma*lambda*carry[p]
			ro.adv[k], ro.ret[k] = a, a+v
			next[p], carry[p], rew[p] = v, a, 0
		}
	}
}

// explainedVariance returns 1 − Var(ret − value) / Var(ret) over the
// trained moves (NaN when the returns do not vary).
func (ro *rollout) explainedVariance() float64 {
	var n, sr, sr2, sd, sd2 float64
	for k, ok := range ro.train {
		if !ok {
			continue
		}
		r, d := float64(ro.ret[k]), float64(ro.ret[k]-ro.value[k])
		n++
		sr += r
		sr2 += r * r
		sd += d
		sd2 += d * d
	}
	if n < 2 {
		return math.NaN()
	}
	vr := sr2/n - (sr/n)*(sr/n)
	vd := sd2/n - (sd/n)*(sd/n)
	if vr <= 0 {
		return math.NaN()
	}
	return 1 - vd/vr
}
