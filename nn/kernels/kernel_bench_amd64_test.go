//go:build amd64 && !purego && !noasm

package kernels

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkMicroKernel runs each register-tile kernel alone on data that stays
// in L1 (k=256, packed A and B), which bounds what the full Sgemm can reach:
// its GFLOP/s-cpu is the kernel's share of the core's FMA peak.
func BenchmarkMicroKernel(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	const k = 256
	for _, g := range []struct {
		name string
		ok   bool
		impl *gemmImpl
	}{{"avx2", hasAVX2FMA, avx2Gemm}, {"avx512", hasAVX512, avx512Gemm}} {
		if !g.ok {
			continue
		}
		a, bp, c := randSlice(rng, k*g.impl.mr), randSlice(rng, k*g.impl.nr), make([]float32, g.impl.mr*g.impl.nr)
		b.Run(g.name, func(b *testing.B) {
			cpu := cpuTimed(b, func() {
				for b.Loop() {
					g.impl.kern(k, &a[0], 1, g.impl.mr, &bp[0], g.impl.nr, &c[0], g.impl.nr, 1e-9, 1)
				}
			})
			flops := 2 * float64(k*g.impl.mr*g.impl.nr) * float64(b.N)
			b.ReportMetric(flops/float64(b.Elapsed().Nanoseconds()), "GFLOP/s")
			if cpu > 0 {
				b.ReportMetric(flops/float64(cpu.Nanoseconds()), "GFLOP/s-cpu")
			}
		})
	}
}
