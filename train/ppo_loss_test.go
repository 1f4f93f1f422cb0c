package train

import (
	"math"
	"math/rand/v2"
	"strconv"
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

// TestPPOLossGradient checks the clipped surrogate, the clipped value loss
// and the entropy bonus against central finite differences, on rows where
// some ratios are clipped and some values are.
func TestPPOLossGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows, actions = 12, 5
	p := DefaultPPO()
	p.EntropyCoef = 0.05
	l := newPPOLoss(p)
	logits := make([]float32, rows*actions)
	values := make([]float32, rows)
	l.mask = make([]float32, rows*actions)
	l.act = make([]int32, rows)
	l.oldLogp = make([]float32, rows)
	l.oldValue = make([]float32, rows)
	l.adv = make([]float32, rows)
	l.ret = make([]float32, rows)
	for r := 0; r < rows; r++ {
		var legal []int
		for a := 0; a < actions; a++ {
			if a == r%actions || rng.IntN(3) > 0 {
				l.mask[r*actions+a] = 1
				legal = append(legal, a)
			}
			logits[r*actions+a] = float32(rng.NormFloat64())
		}
		act := legal[rng.IntN(len(legal))]
		l.act[r] = int32(act)
		// The old log-probability: the current one shifted by up to ±0.5,
		// so about half the ratios fall outside [0.8, 1.2].
		l.oldLogp[r] = float32(logProb(logits[r*actions:(r+1)*actions], l.mask[r*actions:(r+1)*actions], act) + rng.Float64() - 0.5)
		l.adv[r] = float32(rng.NormFloat64())
		values[r] = float32(rng.Float64()*1.6 - 0.8)
		l.oldValue[r] = values[r] + float32(rng.Float64()*0.8-0.4)
		l.ret[r] = float32(rng.Float64()*2 - 1)
	}
	dl := make([]float32, rows*actions)
	dv := make([]float32, rows)
	scratchL := make([]float32, rows*actions)
	scratchV := make([]float32, rows)
	l.loss(logits, values, rows, actions, dl, dv)
	if l.clipFrac == 0 || l.clipFrac == 1 {
		t.Fatalf("clip fraction %v: the test wants clipped and unclipped rows", l.clipFrac)
	}
	f := func() float64 { return l.loss(logits, values, rows, actions, scratchL, scratchV) }
	const h = 1e-3
	check := func(what string, x *float32, grad float32) {
		old := *x
		*x = old + h
		up := f()
		*x = old - h
		down := f()
		*x = old
		fd := (up - down) / (2 * h)
		if math.Abs(fd-float64(grad)) > 2e-4+1e-3*math.Abs(fd) {
			t.Errorf("%s: gradient %.6f, finite difference %.6f", what, grad, fd)
		}
	}
	for i := range logits {
		check("logit "+strconv.Itoa(i), &logits[i], dl[i])
		if l.mask[i] == 0 && dl[i] != 0 {
			t.Errorf("illegal logit %d has gradient %v", i, dl[i])
		}
	}
	for r := range values {
		check("value "+strconv.Itoa(r), &values[r], dv[r])
	}
}

func logProb(z, mask []float32, act int) float64 {
	var sum float64
	for a, v := range z {
		if mask[a] != 0 {
			sum += math.Exp(float64(v))
		}
	}
	return float64(z[act]) - math.Log(sum)
}
