package nn

import (
	"fmt"
	"math"
)

// PPOLoss is PPO's loss, declared so that a back-end computes it itself
// (targets in, statistics out, no callback into the caller): the mean over
// rows of
//
//	−min(ρA, clip(ρ, 1−ε, 1+ε)A) + c_v·½·max((v−R)², (v_old + clip(v−v_old, ±ε_v) − R)²) − c_e·H
//
// where ρ = π(a)/π_old(a) on the masked softmax of the logits, A the
// advantage, R the return, v the value head and H the masked policy's
// entropy. With ValueClip 0 the value term is ½(v−R)².
type PPOLoss struct {
	// Clip is ε, the clip of the probability ratio.
	Clip float64
	// ValueClip is ε_v, the clip of the value's change; 0: no clipping.
	ValueClip float64
	// EntropyCoef is c_e, the weight of the entropy bonus.
	EntropyCoef float64
	// ValueCoef is c_v, the weight of the value loss.
	ValueCoef float64
}

// PPOBatch is one minibatch of PPO: observations and the loss's targets,
// row-major, N rows.
type PPOBatch struct {
	// Obs is N×InputDim observations.
	Obs []float32
	// Mask is N×Actions: 1 for a legal action, 0 for an illegal one.
	Mask []float32
	// Action is the action taken in each row (legal).
	Action []int32
	// OldLogProb is the log-probability of Action under the policy that
	// took it; OldValue is that policy's value.
	OldLogProb, OldValue []float32
	// Advantage is A (normalised already, if the caller wants it); Return
	// is R.
	Advantage, Return []float32
	// N is the number of rows.
	N int
}

// PPOStats reports one PPO step. Loss is the minimised total, Policy the
// clipped surrogate's mean (with its sign in the loss), Value the value
// term's mean before ValueCoef, Entropy the masked policy's mean entropy and
// KL the mean of (ρ−1) − log ρ, an estimate of KL(π_old ‖ π).
type PPOStats struct {
	StepStats
	// ClipFrac is the fraction of rows whose ratio lies outside [1−ε, 1+ε].
	ClipFrac float64
}

// StepPPO takes one training step on PPO's loss: the forward pass of b.Obs,
// the loss and its gradients on the trainer's threads, the backward pass,
// gradient clipping and an AdamW update at the schedule's learning rate, as
// Step does for the policy-value loss. It allocates nothing once warm, and
// its results do not depend on the number of threads. It panics on a batch
// of the wrong size (a caller bug).
func (t *Trainer) StepPPO(b PPOBatch, l PPOLoss) PPOStats {
	n := t.net
	if b.N < 1 || len(b.Mask) < b.N*n.actions || len(b.Action) < b.N || len(b.OldLogProb) < b.N ||
		len(b.OldValue) < b.N || len(b.Advantage) < b.N || len(b.Return) < b.N {
		panic(fmt.Sprintf("nn: StepPPO: a PPO batch of %d rows with %d mask entries and %d, %d, %d, %d, %d targets",
			b.N, len(b.Mask), len(b.Action), len(b.OldLogProb), len(b.OldValue), len(b.Advantage), len(b.Return)))
	}
	if t.ppo == nil {
		t.ppo = &ppoLoss{run: t.Run}
		t.ppo.fn = t.ppo.loss
		t.ppo.blockFn = t.ppo.block
	}
	p := t.ppo
	p.coef, p.b = l, b
	st := PPOStats{StepStats: StepStats{LossStats: LossStats{Loss: t.GradientsLoss(b.Obs, b.N, p.fn)}}}
	t.update(&st.StepStats)
	st.Policy, st.Value, st.Entropy, st.KL, st.ClipFrac = p.policy, p.value, p.entropy, p.kl, p.clipFrac
	p.b = PPOBatch{}
	return st
}

// ppoLoss computes PPOLoss as a HeadLoss over blocks of rows.
type ppoLoss struct {
	coef PPOLoss
	b    PPOBatch

	// Figures of the last call, means over its rows.
	policy, value, entropy, kl, clipFrac float64

	fn HeadLoss
	// run runs the blocks of rows on the trainer's threads; blockFn is
	// block, made once; call holds the current call's arguments and parts
	// each block's sums.
	run     func(units int, f func(unit int))
	blockFn func(unit int)
	call    lossCall
	parts   []lossPart
}

// lossBlock is the number of rows of one unit of the loss: the rows are cut
// by their count alone, and the blocks' sums added in block order, so the
// figures do not depend on the number of threads.
const lossBlock = 256

// lossCall is one call's arguments.
type lossCall struct {
	logits, values, dlogits, dvalues []float32
	rows, actions                    int
}

// lossPart is one block's sums, with its softmax scratch.
type lossPart struct {
	pol, val, ent, kl, clipped float64
	buf                        [64]float64
}

// loss is the HeadLoss of PPOLoss: it writes the exact gradient of the loss
// with respect to the logits (zero on illegal actions) and the values, and
// returns the loss.
func (l *ppoLoss) loss(logits, values []float32, rows, actions int, dlogits, dvalues []float32) float64 {
	l.call = lossCall{logits: logits, values: values, dlogits: dlogits, dvalues: dvalues, rows: rows, actions: actions}
	blocks := (rows + lossBlock - 1) / lossBlock
	if len(l.parts) < blocks {
		l.parts = make([]lossPart, blocks)
	}
	if l.run != nil {
		l.run(blocks, l.blockFn)
	} else {
		for b := 0; b < blocks; b++ {
			l.block(b)
		}
	}
	l.call = lossCall{}
	var pol, val, ent, kl, clipped float64
	for _, q := range l.parts[:blocks] {
		pol += q.pol
		val += q.val
		ent += q.ent
		kl += q.kl
		clipped += q.clipped
	}
	inv := 1 / float64(rows)
	l.policy, l.value, l.entropy, l.kl, l.clipFrac = pol*inv, val*inv, ent*inv, kl*inv, clipped*inv
	return l.policy + l.coef.ValueCoef*l.value - l.coef.EntropyCoef*l.entropy
}

// block computes the loss terms and gradients of block b's rows into
// l.parts[b] and the gradient slices.
func (l *ppoLoss) block(b int) {
	c, k, tg := &l.call, &l.coef, &l.b
	logits, values, dlogits, dvalues, actions := c.logits, c.values, c.dlogits, c.dvalues, c.actions
	inv := 1 / float64(c.rows)
	q := &l.parts[b]
	p := q.buf[:actions]
	var pol, val, ent, kl, clipped float64
	for r := b * lossBlock; r < min((b+1)*lossBlock, c.rows); r++ {
		z := logits[r*actions : (r+1)*actions]
		m := tg.Mask[r*actions : (r+1)*actions]
		dz := dlogits[r*actions : (r+1)*actions]
		top, sum := MaskedExp(p, z, m)
		logSum := math.Log(sum)
		var h float64
		for a, v := range z {
			if m[a] != 0 {
				p[a] /= sum
				if p[a] > 0 {
					h -= p[a] * (float64(v) - top - logSum)
				}
			}
		}
		act := int(tg.Action[r])
		logp := float64(z[act]) - top - logSum
		lr := logp - float64(tg.OldLogProb[r])
		ratio := math.Exp(lr)
		adv := float64(tg.Advantage[r])
		s1 := ratio * adv
		s2 := math.Min(math.Max(ratio, 1-k.Clip), 1+k.Clip) * adv
		// d(loss)/d(logp): −ρA where the unclipped term is the minimum,
		// 0 where the clipped (constant) one is.
		var dlogp float64
		if s1 <= s2 {
			pol -= s1
			dlogp = -s1
		} else {
			pol -= s2
		}
		if math.Abs(ratio-1) > k.Clip {
			clipped++
		}
		kl += (ratio - 1) - lr
		ent += h
		for a, v := range z {
			if m[a] == 0 {
				dz[a] = 0
				continue
			}
			g := -p[a] * dlogp // d logp / d z_a = [a = act] − p_a
			if a == act {
				g += dlogp
			}
			// dH/dz_a = −p_a (log p_a + H); the loss has −c_e·H.
			lp := float64(v) - top - logSum
			if p[a] > 0 {
				g += k.EntropyCoef * p[a] * (lp + h)
			}
			dz[a] = float32(g * inv)
		}
		// Value.
		v, ov, ret := float64(values[r]), float64(tg.OldValue[r]), float64(tg.Return[r])
		d1 := v - ret
		var dv float64
		if k.ValueClip > 0 {
			vc := ov + math.Min(math.Max(v-ov, -k.ValueClip), k.ValueClip)
			d2 := vc - ret
			if d1*d1 >= d2*d2 {
				val += 0.5 * d1 * d1
				dv = d1
			} else {
				val += 0.5 * d2 * d2
				if math.Abs(v-ov) < k.ValueClip {
					dv = d2
				}
			}
		} else {
			val += 0.5 * d1 * d1
			dv = d1
		}
		dvalues[r] = float32(k.ValueCoef * dv * inv)
	}
	q.pol, q.val, q.ent, q.kl, q.clipped = pol, val, ent, kl, clipped
}
