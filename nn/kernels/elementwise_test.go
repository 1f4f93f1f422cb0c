package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// elemLens hits the 32-wide unrolled loops, the 8-wide loop and the scalar
// tails of the assembly.
var elemLens = []int{0, 1, 3, 7, 8, 9, 15, 16, 31, 32, 33, 40, 63, 64, 65, 100, 257, 1000}

// withNaN returns random values in [-1, 1) with a NaN and both zeros mixed in.
func withNaN(rng *rand.Rand, n int) []float32 {
	s := randSlice(rng, n)
	for i := range s {
		switch rng.IntN(17) {
		case 0:
			s[i] = float32(math.NaN())
		case 1:
			s[i] = 0
		case 2:
			s[i] = float32(math.Copysign(0, -1))
		}
	}
	return s
}

func same(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b)
}

func TestReLU(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 8))
		for _, n := range elemLens {
			x := withNaN(rng, n)
			dst := make([]float32, n)
			ReLU(dst, x)
			for i, v := range x {
				want := float32(0)
				if v > 0 {
					want = v
				}
				if !same(dst[i], want) {
					t.Fatalf("n=%d: ReLU(%g) = %g, want %g", n, v, dst[i], want)
				}
			}
			ReLU(x, x) // in place
			for i := range x {
				if !same(x[i], dst[i]) {
					t.Fatalf("n=%d: in-place ReLU differs at %d", n, i)
				}
			}
		}
	})
}

func TestReLUBackward(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(9, 10))
		for _, n := range elemLens {
			dy, y := randSlice(rng, n), withNaN(rng, n)
			dx := make([]float32, n)
			ReLUBackward(dx, dy, y)
			for i := range dx {
				want := float32(0)
				if y[i] > 0 {
					want = dy[i]
				}
				if !same(dx[i], want) {
					t.Fatalf("n=%d: dx[%d] = %g, want %g (y=%g)", n, i, dx[i], want, y[i])
				}
			}
		}
	})
}

func TestAddBiasAndReLU(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(11, 12))
		for _, cols := range []int{1, 5, 8, 17, 33, 256} {
			for _, rows := range []int{0, 1, 3, 10} {
				x, b := randSlice(rng, rows*cols), withNaN(rng, cols)
				y := append([]float32(nil), x...)
				AddBias(x, b)
				AddBiasReLU(y, b)
				for i := range x { // AddBiasReLU is ReLU after AddBias
					r := float32(0)
					if x[i] > 0 {
						r = x[i]
					}
					if !same(y[i], r) {
						t.Fatalf("%d×%d: AddBiasReLU gives %g where AddBias gives %g", rows, cols, y[i], x[i])
					}
				}
				// AddBias against its formula, on a fresh copy.
				z := randSlice(rng, rows*cols)
				z0 := append([]float32(nil), z...)
				AddBias(z, b)
				for i := range z {
					if !same(z[i], z0[i]+b[i%cols]) {
						t.Fatalf("%d×%d: AddBias[%d] = %g, want %g", rows, cols, i, z[i], z0[i]+b[i%cols])
					}
				}
			}
		}
	})
}

func TestColSum(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(13, 14))
		for _, cols := range []int{1, 5, 8, 9, 31, 32, 33, 100, 256} {
			for _, rows := range []int{0, 1, 2, 7, 64} {
				x, dst := randSlice(rng, rows*cols), randSlice(rng, cols)
				want := append([]float32(nil), dst...)
				for i := 0; i < rows; i++ {
					for j := range want {
						want[j] += x[i*cols+j]
					}
				}
				ColSum(dst, x)
				for j := range dst {
					if !same(dst[j], want[j]) { // same order of additions: exact
						t.Fatalf("%d×%d: ColSum[%d] = %g, want %g", rows, cols, j, dst[j], want[j])
					}
				}
			}
		}
	})
}

func TestAdd(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(15, 16))
		for _, n := range elemLens {
			a, b := withNaN(rng, n), randSlice(rng, n)
			dst := make([]float32, n)
			Add(dst, a, b)
			for i := range dst {
				if !same(dst[i], a[i]+b[i]) {
					t.Fatalf("n=%d: Add[%d] = %g, want %g", n, i, dst[i], a[i]+b[i])
				}
			}
			Add(a, a, b) // in place
			for i := range a {
				if !same(a[i], dst[i]) {
					t.Fatalf("n=%d: in-place Add differs at %d", n, i)
				}
			}
		}
	})
}

// within reports whether got is within tol·scale of want (scale at least 1).
func within(got, want, tol, scale float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, scale)
}

func TestAxpyScaleDot(t *testing.T) {
	const u = 1.0 / (1 << 24)
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(15, 16))
		for _, n := range elemLens {
			x, y := randSlice(rng, n), randSlice(rng, n)
			y0 := append([]float32(nil), y...)
			Axpy(-0.75, x, y)
			for i := range y {
				want := float64(y0[i]) + -0.75*float64(x[i])
				if !within(float64(y[i]), want, 2*u, 1) { // two roundings at most
					t.Fatalf("n=%d: Axpy[%d] = %g, want %g", n, i, y[i], want)
				}
			}
			z := append([]float32(nil), x...)
			Scale(3, z)
			for i := range z {
				if !same(z[i], 3*x[i]) {
					t.Fatalf("n=%d: Scale[%d] = %g, want %g", n, i, z[i], 3*x[i])
				}
			}
			var want, abs float64
			for i := range x {
				want += float64(x[i]) * float64(y[i])
				abs += math.Abs(float64(x[i]) * float64(y[i]))
			}
			got := Dot(x, y)
			if !within(float64(got), want, float64(n+1)*u*abs, 0) && math.Abs(float64(got)-want) > 1e-30 {
				t.Fatalf("n=%d: Dot = %g, want %g", n, got, want)
			}
		}
	})
}

func TestAdamW(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(17, 18))
		const lr, b1, b2, eps, wd = 1e-3, 0.9, 0.999, 1e-8, 0.01
		for _, n := range elemLens {
			w, g, m := randSlice(rng, n), randSlice(rng, n), randSlice(rng, n)
			v := make([]float32, n)
			for i := range v {
				v[i] = rng.Float32()
			}
			w0, m0, v0 := append([]float32(nil), w...), append([]float32(nil), m...), append([]float32(nil), v...)
			t3 := 3.0 // step 3
			bc1, bc2 := 1-math.Pow(b1, t3), 1-math.Pow(b2, t3)
			AdamW(w, g, m, v, lr, b1, b2, eps, wd, float32(bc1), float32(bc2))
			for i := range w {
				gi := float64(g[i])
				mi := b1*float64(m0[i]) + (1-b1)*gi
				vi := b2*float64(v0[i]) + (1-b2)*gi*gi
				wi := float64(w0[i]) - lr*(wd*float64(w0[i])+(mi/bc1)/(math.Sqrt(vi/bc2)+eps))
				// Relative 1e-6 on each: a handful of float32 roundings (u ≈ 6e-8)
				// on values of order one.
				if !within(float64(m[i]), mi, 1e-6, mi) || !within(float64(v[i]), vi, 1e-6, vi) || !within(float64(w[i]), wi, 1e-6, wi) {
					t.Fatalf("n=%d, i=%d: AdamW gives w,m,v = %g,%g,%g, want %g,%g,%g", n, i, w[i], m[i], v[i], wi, mi, vi)
				}
			}
		}
	})
}

func TestElementwisePanicsOnBadLengths(t *testing.T) {
	for name, f := range map[string]func(){
		"AddBias": func() { AddBias(make([]float32, 5), make([]float32, 2)) },
		"ColSum":  func() { ColSum(make([]float32, 3), make([]float32, 7)) },
		"ReLU":    func() { ReLU(make([]float32, 3), make([]float32, 4)) },
		"Axpy":    func() { Axpy(1, make([]float32, 3), make([]float32, 4)) },
		"AdamW": func() {
			AdamW(make([]float32, 3), make([]float32, 3), make([]float32, 2), make([]float32, 3), 1, 0.9, 0.99, 1e-8, 0, 1, 1)
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s with mismatched lengths did not panic", name)
				}
			}()
			f()
		}()
	}
}

func TestElementwiseAllocatesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	x, y, z, b := randSlice(rng, 1024), randSlice(rng, 1024), randSlice(rng, 1024), randSlice(rng, 256)
	v := make([]float32, 1024)
	forEachBackend(t, func(t *testing.T) {
		allocs := testing.AllocsPerRun(20, func() {
			AddBias(x, b)
			AddBiasReLU(x, b)
			ReLU(y, x)
			ReLUBackward(z, y, x)
			ColSum(b, x)
			Axpy(0.5, x, y)
			Scale(0.5, y)
			_ = Dot(x, y)
			AdamW(x, y, z, v, 1e-3, 0.9, 0.999, 1e-8, 0, 1, 1)
		})
		if allocs != 0 {
			t.Errorf("%v allocations per round", allocs)
		}
	})
}
