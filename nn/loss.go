package nn

import "math"

// LossStats are the figures of one batch's loss. Means are over the batch's
// rows; rows without a legal action (finished games) add nothing to the
// policy figures.
type LossStats struct {
	// Loss is PolicyWeight·Policy + ValueWeight·Value (+ ScoreWeight·Score
	// with a score head), the minimised total.
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
	// Score is the mean squared error of the score head against the
	// batch's margins: 0 without a score head, or without margins (a
	// score weight of 0 reads none).
	Score float64
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

// scoreLoss returns the mean squared error of the score head's outputs
// against margin (one target a row; nil: none, the loss 0) and writes its
// gradient, weighted by w, into dscores: zero when w is 0, so that the head
// takes no part in training. Sums run in float64, in row order.
func scoreLoss(scores, margin []float32, w float64, dscores []float32) float64 {
	if margin == nil {
		clear(dscores)
		return 0
	}
	rows := len(scores)
	inv := 1 / float64(rows)
	var sum float64
	for r, s := range scores {
		d := float64(s) - float64(margin[r])
		sum += d * d
		dscores[r] = float32(w * inv * 2 * d)
	}
	return sum * inv
}
