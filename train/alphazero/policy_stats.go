package alphazero

import (
	"math"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// policyOf returns the network's masked softmax policy on the rows'
// observations, row-major rows×actions.
func policyOf(net *nn.Net, t *dataset.Tensors) []float32 {
	rows := t.N
	actions := net.Actions()
	out := make([]float32, rows*actions)
	if rows == 0 {
		return out
	}
	pred := net.NewPredictor(rows)
	logits, _ := pred.Predict(t.Obs, rows)
	for i := 0; i < rows; i++ {
		var legal env.Mask
		for a, ok := range t.Mask[i*t.Actions : (i+1)*t.Actions] {
			if ok {
				legal |= 1 << a
			}
		}
		nn.MaskedSoftmax(out[i*actions:(i+1)*actions], logits[i*actions:(i+1)*actions], legal, 1)
	}
	return out
}

// entropyKL returns the mean entropy of the policy after and the mean
// KL(before ‖ after), in nats, over the rows.
func entropyKL(before, after []float32, rows, actions int) (entropy, kl float64) {
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
