package train

import "math"

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

	fn  func(logits, values []float32, rows, actions int, dlogits, dvalues []float32) float64
	buf [64]float64
}

func newPPOLoss(p PPO) *ppoLoss {
	l := &ppoLoss{clip: p.Clip, valueClip: p.ValueClip, entropyCoef: p.EntropyCoef, valueCoef: p.ValueCoef}
	l.fn = l.loss
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
func (l *ppoLoss) loss(logits, values []float32, rows, actions int, dlogits, dvalues []float32) float64 {
	inv := 1 / float64(rows)
	p := l.buf[:actions]
	var total, pol, val, ent, kl, clipped float64
	for r := 0; r < rows; r++ {
		z := logits[r*actions : (r+1)*actions]
		m := l.mask[r*actions : (r+1)*actions]
		dz := dlogits[r*actions : (r+1)*actions]
		top := math.Inf(-1)
		for a, v := range z {
			if m[a] != 0 && float64(v) > top {
				top = float64(v)
			}
		}
		var sum float64
		for a, v := range z {
			p[a] = 0
			if m[a] != 0 {
				p[a] = math.Exp(float64(v) - top)
				sum += p[a]
			}
		}
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
	l.policy, l.value, l.entropy, l.kl, l.clipFrac = pol*inv, val*inv, ent*inv, kl*inv, clipped*inv
	total = l.policy + l.valueCoef*l.value - l.entropyCoef*l.entropy
	return total
}
