package ppo

import "math"

// sampleMasked draws an action from the softmax of logits restricted to the
// legal actions (mask entry not 0), with u uniform in [0, 1), and returns it
// with its log-probability. Illegal actions have probability exactly zero:
// they are never looked at, whatever their logits. With no legal action it
// returns -1.
func sampleMasked(logits, mask []float32, u float64) (int, float32) {
	top := math.Inf(-1)
	last := -1
	for a, z := range logits {
		if mask[a] != 0 {
			last = a
			if float64(z) > top {
				top = float64(z)
			}
		}
	}
	if last < 0 {
		return -1, 0
	}
	var sum float64
	for a, z := range logits {
		if mask[a] != 0 {
			sum += math.Exp(float64(z) - top)
		}
	}
	x := u * sum
	pick := last
	for a, z := range logits {
		if mask[a] == 0 {
			continue
		}
		e := math.Exp(float64(z) - top)
		if x < e {
			pick = a
			break
		}
		x -= e
	}
	return pick, float32(float64(logits[pick]) - top - math.Log(sum))
}
