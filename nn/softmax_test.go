package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/urim-rl/urim/env"
)

// TestExpNeg: the softmax's exponential agrees with math.Exp.
func TestExpNeg(t *testing.T) {
	if expNeg(0) != 1 || expNeg(-100) != 0 || !math.IsNaN(float64(expNeg(float32(math.NaN())))) {
		t.Fatalf("expNeg(0, -100, NaN) = %g, %g, %g", expNeg(0), expNeg(-100), expNeg(float32(math.NaN())))
	}
	for x := float32(-87); x <= 0; x += 0.0137 {
		want := math.Exp(float64(x))
		if got := float64(expNeg(x)); math.Abs(got-want) > 3e-7*want {
			t.Fatalf("expNeg(%g) = %g, want %g", x, got, want)
		}
	}
}

// expNegByRound is expNeg with k from math.Round, as it was first written.
func expNegByRound(x float32) float32 {
	const log2e = 1.4426950408889634
	if !(x >= -87) {
		if x != x {
			return x
		}
		return 0
	}
	t := float64(x) * log2e
	k := math.Round(t)
	f := (t - k) * math.Ln2
	p := 1 + f*(1+f*(1.0/2+f*(1.0/6+f*(1.0/24+f*(1.0/120+f*(1.0/720))))))
	return float32(p * math.Float64frombits(uint64(int64(k)+1023)<<52))
}

// TestExpNegRoundsAsMathRound checks that expNeg's rounding by Floor gives
// the bits math.Round gives, at random points and at the halfway points,
// where the two rounding rules could part.
func TestExpNegRoundsAsMathRound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	xs := []float32{0, float32(math.Copysign(0, -1)), -87, -86.99999, -1e-30}
	for k := 0; k <= 126; k++ {
		half := -(float64(k) + 0.5) / 1.4426950408889634 // t lands near k + ½
		for _, d := range []float32{-2, -1, 0, 1, 2} {
			x := float32(half)
			xs = append(xs, math.Float32frombits(uint32(int32(math.Float32bits(x))+int32(d))))
		}
	}
	for range 200000 {
		xs = append(xs, -float32(rng.Float64()*90))
	}
	for _, x := range xs {
		if got, want := expNeg(x), expNegByRound(x); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("expNeg(%g) = %g (%#x), want %g (%#x)", x, got, math.Float32bits(got), want, math.Float32bits(want))
		}
		// The softmax inlines the same exponential.
		var p [2]float32
		MaskedSoftmax(p[:], []float32{0, x}, 3, 1)
		e := expNegByRound(x)
		if want := e / (1 + e); math.Float32bits(p[1]) != math.Float32bits(want) {
			t.Fatalf("softmax of (0, %g) = %v, want %g for the second", x, p, want)
		}
	}
}

// TestMaskedSoftmaxBits checks MaskedSoftmax bit for bit against the plain
// loop over every action, with every exponential computed.
func TestMaskedSoftmaxBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		n := 1 + rng.IntN(7)
		logits := make([]float32, n)
		for a := range logits {
			logits[a] = float32(rng.NormFloat64() * 3)
			switch rng.IntN(64) {
			case 0, 1, 2, 3, 4, 5, 6, 7:
				logits[a] = logits[0] // ties, two maxima
			case 8:
				logits[a] = float32(math.NaN())
			case 9:
				logits[a] = float32(math.Inf(-1))
			case 10:
				logits[a] = float32(math.Copysign(0, -1))
			case 11:
				logits[a] = 0
			}
		}
		legal := env.Mask(rng.IntN(1<<n-1) + 1)
		temp := float32(1)
		if rng.IntN(2) == 0 {
			temp = float32(0.1 + rng.Float64()*3)
		}
		want := make([]float32, n)
		top := float32(math.Inf(-1))
		for a := range n {
			if legal.Has(a) {
				top = max(top, logits[a])
			}
		}
		var sum float32
		for a := range want {
			if legal.Has(a) {
				want[a] = expNegByRound((logits[a] - top) / temp)
				sum += want[a]
			}
		}
		for a := range want {
			if legal.Has(a) {
				want[a] /= sum
			}
		}
		got := make([]float32, n)
		for a := range got {
			got[a] = 9 // overwritten with 0 for the illegal actions
		}
		MaskedSoftmax(got, logits, legal, temp)
		for a := range got {
			if math.Float32bits(got[a]) != math.Float32bits(want[a]) && !(got[a] != got[a] && want[a] != want[a]) {
				t.Fatalf("softmax of %v over %v at temperature %g: %v, want %v", logits, legal, temp, got, want)
			}
		}
	}
}

// TestMaskedExp: the legal entries are e^(z − top), the others 0, and with
// no legal action top is −Inf and the sum 0.
func TestMaskedExp(t *testing.T) {
	p := []float64{9, 9, 9}
	top, sum := MaskedExp(p, []float32{1, 3, 2}, []float32{1, 0, 1})
	if top != 2 || p[0] != math.Exp(-1) || p[1] != 0 || p[2] != 1 || sum != math.Exp(-1)+1 {
		t.Errorf("MaskedExp = %v, top %g, sum %g", p, top, sum)
	}
	top, sum = MaskedExp(p, []float32{1, 3, 2}, []float32{0, 0, 0})
	if !math.IsInf(top, -1) || sum != 0 || p[0] != 0 || p[1] != 0 || p[2] != 0 {
		t.Errorf("no legal action: MaskedExp = %v, top %g, sum %g", p, top, sum)
	}
}
