package classic

import (
	"math"
	"math/rand/v2"
	"testing"
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
