package ppo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

// ppoState is what a PPO run keeps between iterations of one session: the
// games in progress, the rollout buffers and the opponent pool.
type ppoState struct {
	vec     *env.Vec
	pred    nn.Inference
	ro      *rollout
	actions []int32
	threads int

	pool      []int // snapshot iterations, oldest first
	poolNets  []*nn.Net
	poolPreds []nn.Inference
	oppGames  int    // games [0, oppGames) play a snapshot when the pool is not empty
	slot      []int  // each opponent game's snapshot (index into pool)
	seat      []int8 // the learner's seat in each opponent game
	rows      [][]int
	gather    []float32

	finalRows []int
	finalObs  []float32

	mb minibatch
	tr nn.Training // the update's, made by the session's first iteration

	data *ppoLog // the games into dataset.dir, nil without
}

// minibatch is one gradient step's rows, gathered from the rollout.
type minibatch struct {
	obs, mask, logp, value, adv, ret []float32
	act                              []int32
}

// batch returns the first n rows (observations of width d, a actions) as
// nn's PPO batch.
func (m *minibatch) batch(n, d, a int) nn.PPOBatch {
	return nn.PPOBatch{Obs: m.obs[:n*d], Mask: m.mask[:n*a], Action: m.act[:n],
		OldLogProb: m.logp[:n], OldValue: m.value[:n], Advantage: m.adv[:n], Return: m.ret[:n], N: n}
}

// ppoTimes splits an iteration's time.
type ppoTimes struct{ env, forward, backward, total float64 }

// newPPOState starts the session's games, seeded by the iteration it
// starts with, and loads the pool's snapshots.
func newPPOState(sess *train.Session, it int, pool []int) (*ppoState, error) {
	p := Section.Of(sess.Config)
	threads := sess.Threads()
	vec, err := env.NewVec(sess.Game, p.Games, env.VecOptions{AutoReset: env.AutoResetSameStep, Reward: sess.Reward,
		Encoding: sess.Encoding, Seed: sess.Seed(0x766563, uint64(it)), OpeningPlies: p.OpeningPlies})
	if err != nil {
		return nil, fmt.Errorf("train: ppo: %w", err)
	}
	s := &ppoState{vec: vec, pred: sess.Net.NewInference(p.Games, threads), threads: threads,
		ro: newRollout(p.Games, p.Steps, vec.ObsDim(), vec.Actions()), actions: make([]int32, p.Games)}
	s.oppGames = int(p.Pool.Share*float64(p.Games) + 0.5)
	s.slot = make([]int, s.oppGames)
	s.seat = make([]int8, s.oppGames)
	for i := range s.seat {
		s.seat[i], s.slot[i] = int8(i%2), -1
	}
	s.gather = make([]float32, max(s.oppGames, 1)*vec.ObsDim())
	s.finalObs = make([]float32, p.Games*vec.ObsDim())
	d, a, b := vec.ObsDim(), vec.Actions(), p.Minibatch
	s.mb = minibatch{obs: make([]float32, b*d), mask: make([]float32, b*a), logp: make([]float32, b),
		value: make([]float32, b), adv: make([]float32, b), ret: make([]float32, b), act: make([]int32, b)}
	if err := s.setPool(sess, pool); err != nil {
		vec.Close()
		return nil, err
	}
	s.data = newPPOLog(sess.Data, vec, sess.State.Games)
	return s, nil
}

func (s *ppoState) close() {
	if s != nil && s.vec != nil {
		s.vec.Close()
	}
	s.closeTrainer()
}

// closeTrainer stops the update's trainer, if any; the next iteration makes
// another from the learner's state.
func (s *ppoState) closeTrainer() {
	if s != nil && s.tr != nil {
		s.tr.Close()
		s.tr = nil
	}
}

// collect plays Steps steps of every game into s.ro: the learner's policy
// (s.pred, on the run's network) samples the moves of both seats, but in
// the opponent games, where a pool snapshot plays the other seat.
func (s *ppoState) collect(ctx context.Context, cfg *train.Config, rng *rand.Rand, bar func(done, total int)) (ppoTimes, int, error) {
	var tm ppoTimes
	ro, vec := s.ro, s.vec
	n, d, a := ro.n, ro.dim, ro.actions
	usePool := len(s.pool) > 0 && s.oppGames > 0
	sampling := Section.Of(cfg).Pool.Sampling
	if usePool {
		// A game keeps its snapshot until it ends; games without one (the
		// pool was empty, or shrank) draw one now.
		for i, k := range s.slot {
			if k < 0 || k >= len(s.pool) {
				s.slot[i] = pickSnapshot(len(s.pool), sampling, rng)
			}
		}
	}
	episodes := 0
	for t := 0; t < ro.t; t++ {
		if err := ctx.Err(); err != nil {
			return tm, episodes, err
		}
		base := t * n
		copy(ro.obs[base*d:(base+n)*d], vec.Obs())
		copy(ro.mask[base*a:(base+n)*a], vec.Mask())
		toMove := vec.ToMove()
		t0 := time.Now()
		logits, values := s.pred.Predict(vec.Obs(), n)
		tm.forward += time.Since(t0).Seconds()
		for k := range s.rows {
			s.rows[k] = s.rows[k][:0]
		}
		for i := 0; i < n; i++ {
			k := base + i
			p := int8(toMove[i])
			ro.player[k] = p
			if usePool && i < s.oppGames && p != s.seat[i] {
				s.rows[s.slot[i]] = append(s.rows[s.slot[i]], i)
				ro.train[k], ro.value[k], ro.logp[k] = false, 0, 0
				continue
			}
			act, logp := sampleMasked(logits[i*a:(i+1)*a], ro.mask[k*a:(k+1)*a], rng.Float64())
			if act < 0 {
				return tm, episodes, fmt.Errorf("train: ppo: game %d has no legal move", i)
			}
			ro.train[k], ro.act[k], ro.logp[k], ro.value[k] = true, int32(act), logp, values[i]
			s.actions[i] = int32(act)
		}
		for q, rows := range s.rows {
			if len(rows) == 0 {
				continue
			}
			for j, i := range rows {
				copy(s.gather[j*d:(j+1)*d], ro.obs[(base+i)*d:(base+i+1)*d])
			}
			t0 := time.Now()
			ol, _ := s.poolPreds[q].Predict(s.gather, len(rows))
			tm.forward += time.Since(t0).Seconds()
			for j, i := range rows {
				k := base + i
				act, _ := sampleMasked(ol[j*a:(j+1)*a], ro.mask[k*a:(k+1)*a], rng.Float64())
				ro.act[k] = int32(act)
				s.actions[i] = int32(act)
			}
		}
		s.data.moves(s, base, logits, values)
		t0 = time.Now()
		if err := vec.Step(s.actions); err != nil {
			return tm, episodes, fmt.Errorf("train: ppo: %w", err)
		}
		tm.env += time.Since(t0).Seconds()
		copy(ro.reward[2*base:2*(base+n)], vec.Rewards())
		copy(ro.term[base:base+n], vec.Terminated())
		copy(ro.trunc[base:base+n], vec.Truncated())
		s.data.ended(ro, base)
		vec.ClearEpisodes()
		// Truncated games bootstrap from their final position's value.
		s.finalRows = s.finalRows[:0]
		fin := vec.FinalObs()
		for i := 0; i < n; i++ {
			k := base + i
			ro.boot[k] = 0
			if ro.term[k] || ro.trunc[k] {
				episodes++
				if usePool && i < s.oppGames {
					s.seat[i] = 1 - s.seat[i]
					s.slot[i] = pickSnapshot(len(s.pool), sampling, rng)
				}
			}
			if ro.trunc[k] {
				copy(s.finalObs[len(s.finalRows)*d:], fin[i*d:(i+1)*d])
				s.finalRows = append(s.finalRows, i)
			}
		}
		if len(s.finalRows) > 0 {
			t0 := time.Now()
			_, fv := s.pred.Predict(s.finalObs, len(s.finalRows))
			tm.forward += time.Since(t0).Seconds()
			for j, i := range s.finalRows {
				ro.boot[base+i] = fv[j]
			}
		}
		if bar != nil {
			bar(t+1, ro.t)
		}
	}
	t0 := time.Now()
	_, values := s.pred.Predict(vec.Obs(), n)
	tm.forward += time.Since(t0).Seconds()
	copy(ro.lastValue, values)
	for i, p := range vec.ToMove() {
		ro.lastMover[i] = int8(p)
	}
	return tm, episodes, nil
}

// updateStats are the means of an update's minibatches.
type updateStats struct {
	policy, value, entropy, kl, clipFrac, lr float64
	steps                                    int
}

// gatherBlock is the number of minibatch rows one unit of the gathering
// copies.
const gatherBlock = 512

// update runs the PPO epochs over the rollout's trained moves with a
// trainer of the run's network.
func (s *ppoState) update(ctx context.Context, t nn.Training, cfg *train.Config, rng *rand.Rand, bar func(done, total int)) (updateStats, error) {
	var st updateStats
	ro, p := s.ro, Section.Of(cfg)
	idx := make([]int32, 0, len(ro.train))
	for k, ok := range ro.train {
		if ok {
			idx = append(idx, int32(k))
		}
	}
	if len(idx) == 0 {
		return st, nil
	}
	if err := ro.checkFinite(idx); err != nil {
		return st, err
	}
	mb := p.Minibatch
	per := (len(idx) + mb - 1) / mb
	total := per * p.Epochs
	d, a := ro.dim, ro.actions
	loss := ppoLoss(p)
	// The gathering of each minibatch runs on the trainer's threads when it
	// offers them (nn.Runner), in units cut by row counts alone.
	run := func(units int, f func(unit int)) {
		for u := range units {
			f(u)
		}
	}
	if r, ok := t.(nn.Runner); ok {
		run = r.Run
	}
	var rows []int32
	gather := func(u int) {
		for j := u * gatherBlock; j < min((u+1)*gatherBlock, len(rows)); j++ {
			k := int(rows[j])
			copy(s.mb.obs[j*d:(j+1)*d], ro.obs[k*d:(k+1)*d])
			copy(s.mb.mask[j*a:(j+1)*a], ro.mask[k*a:(k+1)*a])
			s.mb.act[j], s.mb.logp[j], s.mb.value[j] = ro.act[k], ro.logp[k], ro.value[k]
			s.mb.adv[j], s.mb.ret[j] = ro.adv[k], ro.ret[k]
		}
	}
	for e := 0; e < p.Epochs; e++ {
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		stop := false
		for lo := 0; lo < len(idx); lo += mb {
			if err := ctx.Err(); err != nil {
				return st, err
			}
			rows = idx[lo:min(lo+mb, len(idx))]
			n := len(rows)
			run((n+gatherBlock-1)/gatherBlock, gather)
			var sum, sq float64
			for _, v := range s.mb.adv[:n] {
				sum += float64(v)
				sq += float64(v) * float64(v)
			}
			if p.NormalizeAdvantages && n > 1 {
				mean := sum / float64(n)
				sd := math.Sqrt(max(sq/float64(n)-mean*mean, 0))
				for j := 0; j < n; j++ {
					s.mb.adv[j] = float32((float64(s.mb.adv[j]) - mean) / (sd + 1e-8))
				}
			}
			ss := t.StepPPO(s.mb.batch(n, d, a), loss)
			st.policy += ss.Policy
			st.value += ss.Value
			st.entropy += ss.Entropy
			st.kl += ss.KL
			st.clipFrac += ss.ClipFrac
			st.lr = ss.LR
			st.steps++
			if bar != nil {
				bar(st.steps, total)
			}
			if p.TargetKL > 0 && ss.KL > p.TargetKL {
				stop = true
				break
			}
		}
		if stop {
			break
		}
	}
	k := float64(st.steps)
	st.policy, st.value, st.entropy, st.kl, st.clipFrac = st.policy/k, st.value/k, st.entropy/k, st.kl/k, st.clipFrac/k
	return st, nil
}
