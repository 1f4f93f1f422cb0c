package nn

import "math"

// LossStats are the figures of one batch's loss. Means are over the batch's
// rows; rows without a legal action (finished games) add nothing to the
// policy figures.
type LossStats struct {
	// Loss is PolicyWeight·Policy + ValueWeight·Value, the minimised total.
	Loss float64
	// Policy is the mean cross-entropy of the masked softmax against the
	// target distribution.
	Policy float64
	// Value is the mean squared error of the value head against the target.
	Value float64
	// Entropy is the mean entropy of the network's masked policy.
	Entropy float64
	// KL is the mean KL divergence from the target to the network's policy,
	// KL(target ‖ policy): Policy minus the target's entropy.
	KL float64
}

// policyValueLoss computes the loss of rows rows and writes its gradients
// with respect to the logits (dlogits, rows×actions) and the values
// (dvalues). Logits of illegal actions (mask false or 0) take no part: their
// probability is exactly zero, their gradient zero, and target mass on them
// is ignored. Sums run in float64, in row order.
func policyValueLoss[M MaskEntry](logits, values []float32, mask []M, target, tvalue []float32, rows, actions int, wp, wv float64, dlogits, dvalues []float32) LossStats {
	var illegal M // false, or 0
	var st LossStats
	inv := 1 / float64(rows)
	var p [16]float64
	for r := 0; r < rows; r++ {
		z := logits[r*actions : (r+1)*actions]
		m := mask[r*actions : (r+1)*actions]
		t := target[r*actions : (r+1)*actions]
		dz := dlogits[r*actions : (r+1)*actions]
		top, sum := MaskedExp(p[:actions], z, m)
		if math.IsInf(top, -1) { // no legal action
			clear(dz)
			continue
		}
		logSum := math.Log(sum)
		var tsum, ce, ent, tent float64
		for a, v := range z {
			if m[a] == illegal {
				continue
			}
			logp := float64(v) - top - logSum
			p[a] /= sum
			ti := float64(t[a])
			tsum += ti
			ce -= ti * logp
			if p[a] > 0 {
				ent -= p[a] * logp
			}
			if ti > 0 {
				tent -= ti * math.Log(ti)
			}
		}
		for a := range z {
			dz[a] = 0
			if m[a] != illegal {
				dz[a] = float32(wp * inv * (p[a]*tsum - float64(t[a])))
			}
		}
		st.Policy += ce
		st.Entropy += ent
		st.KL += ce - tent
	}
	for r := 0; r < rows; r++ {
		d := float64(values[r]) - float64(tvalue[r])
		st.Value += d * d
		dvalues[r] = float32(wv * inv * 2 * d)
	}
	st.Policy *= inv
	st.Entropy *= inv
	st.KL *= inv
	st.Value *= inv
	st.Loss = wp*st.Policy + wv*st.Value
	return st
}
