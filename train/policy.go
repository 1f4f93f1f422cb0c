package train

import (
	"math"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// policyOf returns the network's masked softmax policy on the batch's
// observations, row-major rows×actions.
func policyOf(net *nn.Net, b *Batch) []float32 {
	rows := len(b.Value)
	actions := net.Actions()
	out := make([]float32, rows*actions)
	if rows == 0 {
		return out
	}
	pred := net.NewPredictor(rows)
	logits, _ := pred.Predict(b.Obs, rows)
	for i := 0; i < rows; i++ {
		maskedSoftmax(out[i*actions:(i+1)*actions], logits[i*actions:(i+1)*actions], b.Mask[i])
	}
	return out
}

// maskedSoftmax writes the softmax of the legal logits into p (0 for the
// illegal actions).
func maskedSoftmax(p, logits []float32, legal env.Mask) {
	hi := float32(math.Inf(-1))
	for a := range logits {
		if legal.Has(a) && logits[a] > hi {
			hi = logits[a]
		}
	}
	var sum float64
	for a := range logits {
		p[a] = 0
		if legal.Has(a) {
			e := math.Exp(float64(logits[a] - hi))
			p[a] = float32(e)
			sum += e
		}
	}
	for a := range p {
		p[a] = float32(float64(p[a]) / sum)
	}
}

// entropyKL returns the mean entropy of the policy after and the mean
// KL(before ‖ after), in nats, over the rows.
func entropyKL(before, after []float32, masks []env.Mask, actions int) (entropy, kl float64) {
	rows := len(masks)
	if rows == 0 {
		return math.NaN(), math.NaN()
	}
	for i := 0; i < rows; i++ {
		for a := 0; a < actions; a++ {
			p, q := float64(before[i*actions+a]), float64(after[i*actions+a])
			if q > 0 {
				entropy -= q * math.Log(q)
			}
			if p > 0 {
				kl += p * math.Log(p/math.Max(q, 1e-12))
			}
		}
	}
	return entropy / float64(rows), kl / float64(rows)
}
