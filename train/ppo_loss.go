package train

import (
	"math"

	"github.com/urim-rl/urim/nn"
)

// ppoLoss is PPO's loss on one minibatch, as an nn.HeadLoss (see
// ppoLoss.loss). The caller fills the minibatch's slices before each step.
type ppoLoss struct {
	clip, valueClip, entropyCoef, valueCoef float64

	mask     []float32 // rows × actions
	act      []int32
	oldLogp  []float32
	oldValue []float32
	adv      []float32 // normalized already, if asked
	ret      []float32

	// Figures of the last call, means over its rows.
	policy, value, entropy, kl, clipFrac float64

	fn func(logits, values []float32, rows, actions int, dlogits, dvalues []float32) float64

	// run, when set, runs the blocks of rows on the trainer's threads
	// (nn.Trainer.Run); blockFn is l.block, made once; call holds the
	// current call's arguments and parts each block's sums.
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

func newPPOLoss(p PPO) *ppoLoss {
	l := &ppoLoss{clip: p.Clip, valueClip: p.ValueClip, entropyCoef: p.EntropyCoef, valueCoef: p.ValueCoef}
	l.fn = l.loss
	l.blockFn = l.block
	return l
}

// loss is the mean over rows of
//
//	−min(ρA, clip(ρ, 1−ε, 1+ε)A) + c_v·½·max((v−R)², (v_old + clip(v−v_old, ±ε_v) − R)²) − c_e·H
//
// where ρ = π(a)/π_old(a) on the masked softmax, A the advantage, R the
// return, v the value head and H the masked policy's entropy. It writes the
// exact gradient of that with respect to the logits (zero on illegal
// actions) and the values. With value_clip 0 the value term is ½(v−R)².
//
// The rows run in blocks of lossBlock, on the trainer's threads when run is
// set.
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
	return l.policy + l.valueCoef*l.value - l.entropyCoef*l.entropy
}

// block computes the loss terms and gradients of block b's rows into
// l.parts[b] and the gradient slices.
func (l *ppoLoss) block(b int) {
	c := &l.call
	logits, values, dlogits, dvalues, actions := c.logits, c.values, c.dlogits, c.dvalues, c.actions
	inv := 1 / float64(c.rows)
	q := &l.parts[b]
	p := q.buf[:actions]
	var pol, val, ent, kl, clipped float64
	for r := b * lossBlock; r < min((b+1)*lossBlock, c.rows); r++ {
		z := logits[r*actions : (r+1)*actions]
		m := l.mask[r*actions : (r+1)*actions]
		dz := dlogits[r*actions : (r+1)*actions]
		top, sum := nn.MaskedExp(p, z, m)
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
		act := int(l.act[r])
		logp := float64(z[act]) - top - logSum
		lr := logp - float64(l.oldLogp[r])
		ratio := math.Exp(lr)
		adv := float64(l.adv[r])
		s1 := ratio * adv
		s2 := math.Min(math.Max(ratio, 1-l.clip), 1+l.clip) * adv
		// d(loss)/d(logp): −ρA where the unclipped term is the minimum,
		// 0 where the clipped (constant) one is.
		var dlogp float64
		if s1 <= s2 {
			pol -= s1
			dlogp = -s1
		} else {
			pol -= s2
		}
		if math.Abs(ratio-1) > l.clip {
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
				g += l.entropyCoef * p[a] * (lp + h)
			}
			dz[a] = float32(g * inv)
		}
		// Value.
		v, ov, ret := float64(values[r]), float64(l.oldValue[r]), float64(l.ret[r])
		d1 := v - ret
		var dv float64
		if l.valueClip > 0 {
			vc := ov + math.Min(math.Max(v-ov, -l.valueClip), l.valueClip)
			d2 := vc - ret
			if d1*d1 >= d2*d2 {
				val += 0.5 * d1 * d1
				dv = d1
			} else {
				val += 0.5 * d2 * d2
				if math.Abs(v-ov) < l.valueClip {
					dv = d2
				}
			}
		} else {
			val += 0.5 * d1 * d1
			dv = d1
		}
		dvalues[r] = float32(l.valueCoef * dv * inv)
	}
	q.pol, q.val, q.ent, q.kl, q.clipped = pol, val, ent, kl, clipped
}
