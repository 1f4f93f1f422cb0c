package ppo

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPPOSamplerNeverIllegal draws a million moves from masked policies
// whose illegal actions have by far the largest logits: none is illegal,
// and the legal ones come at their softmax frequencies.
func TestPPOSamplerNeverIllegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const actions, draws = 6, 1_000_000
	logits := make([]float32, actions)
	mask := make([]float32, actions)
	count := make([]int, actions)
	for n := 0; n < draws; n++ {
		if n%1000 == 0 {
			// A new position every thousand draws: a random non-empty mask,
			// illegal logits huge, legal ones spread out.
			for {
				legal := 0
				for a := range mask {
					mask[a] = float32(rng.IntN(2))
					legal += int(mask[a])
				}
				if legal > 0 {
					break
				}
			}
			for a := range logits {
				logits[a] = float32(rng.NormFloat64() * 3)
				if mask[a] == 0 {
					logits[a] = 80 + float32(rng.Float64())*1e3
				}
			}
		}
		a, logp := sampleMasked(logits, mask, rng.Float64())
		if a < 0 || mask[a] == 0 {
			t.Fatalf("draw %d: action %d with mask %v and logits %v", n, a, mask, logits)
		}
		if logp > 0 || math.IsNaN(float64(logp)) {
			t.Fatalf("draw %d: log-probability %v", n, logp)
		}
		count[a]++
	}
	// Frequencies on one fixed position.
	copy(mask, []float32{1, 0, 1, 1, 0, 1})
	copy(logits, []float32{0, 100, 1, -1, 100, 0.5})
	clear(count)
	const m = 200_000
	for range m {
		a, _ := sampleMasked(logits, mask, rng.Float64())
		count[a]++
	}
	var sum float64
	for a := range logits {
		if mask[a] != 0 {
			sum += math.Exp(float64(logits[a]))
		}
	}
	for a := range logits {
		want := 0.0
		if mask[a] != 0 {
			want = math.Exp(float64(logits[a])) / sum
		}
		got := float64(count[a]) / m
		if math.Abs(got-want) > 5*math.Sqrt(want*(1-want)/m)+1e-9 {
			t.Errorf("action %d: frequency %.4f, want %.4f", a, got, want)
		}
	}
	if a, _ := sampleMasked(logits, make([]float32, actions), 0.5); a != -1 {
		t.Errorf("no legal action: got %d, want -1", a)
	}
}
