package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestSgemmPackedSameBits checks that a product on a packed B gives Sgemm's
// result bit for bit, on every back-end, for shapes on both sides of every
// path's limits (rows 1 to 300, narrow and wide B, more than one block of
// k), with beta 0, 1 and another, and with padded strides.
func TestSgemmPackedSameBits(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 5))
		var p PackedB
		for _, m := range []int{1, 3, 4, 9, 128, 300} {
			for _, n := range []int{1, 6, 15, 16, 17, 33, 256} {
				for _, k := range []int{1, 17, 256, 300} {
					for _, beta := range []float32{0, 1, 0.5} {
						lda, ldb, ldc := k+1, n+3, n+2
						a, b := randSlice(rng, m*lda), randSlice(rng, k*ldb)
						c0 := randSlice(rng, m*ldc)
						want := append([]float32(nil), c0...)
						got := append([]float32(nil), c0...)
						Sgemm(false, false, m, n, k, 0.75, a, lda, b, ldb, beta, want, ldc)
						p.Pack(k, n, b, ldb)
						if pk, pn := p.Dims(); pk != k || pn != n {
							t.Fatalf("Dims %d×%d, want %d×%d", pk, pn, k, n)
						}
						SgemmPacked(m, 0.75, a, lda, &p, beta, got, ldc)
						for i := range want {
							if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
								t.Fatalf("m=%d n=%d k=%d beta=%g: element %d (row %d) is %g packed, %g by Sgemm",
									m, n, k, beta, i, i/ldc, got[i], want[i])
							}
						}
					}
				}
			}
		}
	})
}

// TestSgemmPackTransposedSameBits is TestSgemmPackedSameBits for a B
// packed from its transpose: the result is Sgemm's with transB, bit for bit.
func TestSgemmPackTransposedSameBits(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(8, 8))
		var p PackedB
		for _, m := range []int{1, 3, 4, 9, 128, 300} {
			for _, n := range []int{1, 6, 15, 16, 17, 33, 128} {
				for _, k := range []int{1, 6, 128, 300} {
					for _, beta := range []float32{0, 1} {
						lda, ldb, ldc := k+1, k+3, n+2
						a, b := randSlice(rng, m*lda), randSlice(rng, n*ldb)
						c0 := randSlice(rng, m*ldc)
						want := append([]float32(nil), c0...)
						got := append([]float32(nil), c0...)
						Sgemm(false, true, m, n, k, 0.75, a, lda, b, ldb, beta, want, ldc)
						p.PackTransposed(k, n, b, ldb)
						if pk, pn := p.Dims(); pk != k || pn != n {
							t.Fatalf("Dims %d×%d, want %d×%d", pk, pn, k, n)
						}
						SgemmPacked(m, 0.75, a, lda, &p, beta, got, ldc)
						for i := range want {
							if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
								t.Fatalf("m=%d n=%d k=%d beta=%g: element %d (row %d) is %g packed, %g by Sgemm",
									m, n, k, beta, i, i/ldc, got[i], want[i])
							}
						}
					}
				}
			}
		}
	})
}

// TestSgemmPackedOtherBackend checks that a pack made under one back-end
// still gives the right product after Use switched to another (it reads B
// as stored then).
func TestSgemmPackedOtherBackend(t *testing.T) {
	saved := Backend()
	defer Use(saved)
	rng := rand.New(rand.NewPCG(6, 6))
	const m, n, k = 64, 40, 50
	a, b := randSlice(rng, m*k), randSlice(rng, k*n)
	for _, packName := range Backends() {
		for _, runName := range Backends() {
			Use(packName)
			var p PackedB
			p.Pack(k, n, b, n)
			Use(runName)
			want, got := make([]float32, m*n), make([]float32, m*n)
			Sgemm(false, false, m, n, k, 1, a, k, b, n, 0, want, n)
			SgemmPacked(m, 1, a, k, &p, 0, got, n)
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("packed under %s, run under %s: element %d is %g, want %g", packName, runName, i, got[i], want[i])
				}
			}
		}
	}
}

// TestSgemmPackedAllocs checks that packing again into the same PackedB and
// packed products allocate nothing once warm.
func TestSgemmPackedAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const m, n, k = 128, 256, 256
	a, b, c := randSlice(rng, m*k), randSlice(rng, k*n), make([]float32, m*n)
	var p PackedB
	p.Pack(k, n, b, n)
	SgemmPacked(m, 1, a, k, &p, 0, c, n)
	if allocs := testing.AllocsPerRun(10, func() {
		p.Pack(k, n, b, n)
		SgemmPacked(m, 1, a, k, &p, 0, c, n)
	}); allocs != 0 {
		t.Fatalf("%v allocations per pack and product, want 0", allocs)
	}
}

// TestSgemmPackedPanics checks the errors of the caller's bugs.
func TestSgemmPackedPanics(t *testing.T) {
	mustPanic := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", name)
			}
		}()
		f()
	}
	var p PackedB
	mustPanic("short B", func() { p.Pack(4, 4, make([]float32, 15), 4) })
	p.Pack(4, 4, make([]float32, 16), 4)
	mustPanic("short A", func() { SgemmPacked(4, 1, make([]float32, 15), 4, &p, 0, make([]float32, 16), 4) })
	mustPanic("short C", func() { SgemmPacked(4, 1, make([]float32, 16), 4, &p, 0, make([]float32, 15), 4) })
}

// BenchmarkSgemmPacked compares, on the back-end in use, the forward
// products of the default network (row blocks of 128, a 512-row product, the
// heads) with B as stored ("plain") and packed once ("packed"), reporting
// GFLOP/s by wall time and by the process's CPU time.
func BenchmarkSgemmPacked(b *testing.B) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, s := range []struct{ m, n, k int }{{128, 256, 17}, {128, 256, 256}, {512, 256, 256}, {128, 6, 256}, {128, 1, 256}} {
		x, w, y := randSlice(rng, s.m*s.k), randSlice(rng, s.k*s.n), make([]float32, s.m*s.n)
		var p PackedB
		p.Pack(s.k, s.n, w, s.n)
		flops := 2 * float64(s.m*s.n*s.k)
		for _, packed := range []bool{false, true} {
			name := fmt.Sprintf("NN_%dx%dx%d/plain", s.m, s.n, s.k)
			if packed {
				name = fmt.Sprintf("NN_%dx%dx%d/packed", s.m, s.n, s.k)
			}
			b.Run(name, func(b *testing.B) {
				cpu := cpuTimed(b, func() {
					for b.Loop() {
						if packed {
							SgemmPacked(s.m, 1, x, s.k, &p, 0, y, s.n)
						} else {
							Sgemm(false, false, s.m, s.n, s.k, 1, x, s.k, w, s.n, 0, y, s.n)
						}
					}
				})
				b.ReportMetric(flops*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "GFLOP/s")
				if cpu > 0 {
					b.ReportMetric(flops*float64(b.N)/float64(cpu.Nanoseconds()), "GFLOP/s-cpu")
				}
			})
		}
	}
}

// TestSgemmPackedBiasSameBits checks that the product with bias (and ReLU)
// gives SgemmPacked followed by AddBias or AddBiasReLU bit for bit, on
// every back-end, for shapes on both sides of every path's limits.
func TestSgemmPackedBiasSameBits(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(9, 9))
		var p PackedB
		for _, m := range []int{1, 3, 4, 9, 128, 300} {
			for _, n := range []int{1, 6, 16, 17, 33, 64, 256} {
				for _, k := range []int{1, 17, 256, 300} {
					for _, ldc := range []int{n, n + 2} {
						for _, relu := range []bool{false, true} {
							a, b, bias := randSlice(rng, m*k), randSlice(rng, k*n), randSlice(rng, n)
							want, got := randSlice(rng, m*ldc), make([]float32, m*ldc)
							copy(got, want)
							p.Pack(k, n, b, n)
							SgemmPacked(m, 1, a, k, &p, 0, want, ldc)
							for i := 0; i < m; i++ {
								if relu {
									AddBiasReLU(want[i*ldc:i*ldc+n], bias)
								} else {
									AddBias(want[i*ldc:i*ldc+n], bias)
								}
							}
							SgemmPackedBias(m, a, k, &p, bias, relu, got, ldc)
							for i := range want {
								if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
									t.Fatalf("m=%d n=%d k=%d ldc=%d relu=%v: element %d is %g, want %g", m, n, k, ldc, relu, i, got[i], want[i])
								}
							}
						}
					}
				}
			}
		}
	})
}
