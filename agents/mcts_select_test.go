package agents

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/urim-rl/urim/env"
)

// TestOrderKeyOrdersAsScores checks that the integer keys of the PUCT
// selection compare as the scores do, NaN below everything.
func TestOrderKeyOrdersAsScores(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	special := []float32{-inf, -3.5, -1, -1e-30, -math.SmallestNonzeroFloat32, 0,
		math.SmallestNonzeroFloat32, 1e-30, 0.25, 1, 7, math.MaxFloat32, inf}
	rng := rand.New(rand.NewPCG(3, 4))
	xs := append([]float32(nil), special...)
	for range 2000 {
		xs = append(xs, float32(rng.NormFloat64()*math.Pow(10, rng.Float64()*8-4)))
	}
	for _, x := range xs {
		for _, y := range xs {
			if got, want := orderKey(x) > orderKey(y), x > y; got != want {
				t.Fatalf("orderKey(%g) > orderKey(%g) is %v; %g > %g is %v", x, y, got, x, y, want)
			}
		}
		if orderKey(nan) >= orderKey(x) {
			t.Fatalf("orderKey(NaN) = %d is not below orderKey(%g) = %d", orderKey(nan), x, orderKey(x))
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
		maskedSoftmax(p[:], []float32{0, x}, 3, 1)
		e := expNegByRound(x)
		if want := e / (1 + e); math.Float32bits(p[1]) != math.Float32bits(want) {
			t.Fatalf("softmax of (0, %g) = %v, want %g for the second", x, p, want)
		}
	}
}

// TestMaskedSoftmaxBits checks maskedSoftmax bit for bit against the plain
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
		maskedSoftmax(got, logits, legal, temp)
		for a := range got {
			if math.Float32bits(got[a]) != math.Float32bits(want[a]) && !(got[a] != got[a] && want[a] != want[a]) {
				t.Fatalf("softmax of %v over %v at temperature %g: %v, want %v", logits, legal, temp, got, want)
			}
		}
	}
}

// TestSqrtCount checks the float32 square root of the PUCT exploration term
// against the float64 one, rounded, for every count below 2^24 and a few
// above.
func TestSqrtCount(t *testing.T) {
	check := func(n int32) {
		if got, want := sqrtCount(n), float32(math.Sqrt(float64(n))); got != want {
			t.Fatalf("sqrtCount(%d) = %g, want %g", n, got, want)
		}
	}
	step := int32(1)
	if testing.Short() {
		step = 97
	}
	for n := int32(0); n < 1<<24; n += step {
		check(n)
	}
	for _, n := range []int32{1<<24 - 1, 1 << 24, 1<<24 + 1, 1<<30 + 3, math.MaxInt32} {
		check(n)
	}
}
