package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/urim-rl/urim/internal/cputime"
)

// benchShape is one product of a 3×256 MLP on the compact encoding (input
// 17, hidden 256): forward (NN, X·W with W stored in×out), weight gradient
// (TN, Xᵀ·dY) and input gradient (NT, dY·Wᵀ).
type benchShape struct {
	name           string
	transA, transB bool
	m, n, k        int
}

func benchShapes() []benchShape {
	var s []benchShape
	for _, batch := range []int{1, 64, 256, 512, 1024} {
		s = append(s,
			benchShape{fmt.Sprintf("NN_%dx256x17", batch), false, false, batch, 256, 17},
			benchShape{fmt.Sprintf("NN_%dx256x256", batch), false, false, batch, 256, 256},
			benchShape{fmt.Sprintf("NT_%dx256x256", batch), false, true, batch, 256, 256},
		)
		if batch > 1 {
			s = append(s,
				benchShape{fmt.Sprintf("TN_17x256x%d", batch), true, false, 17, 256, batch},
				benchShape{fmt.Sprintf("TN_256x256x%d", batch), true, false, 256, 256, batch},
			)
		}
	}
	// The calls package nn makes: row blocks of 128, heads of 6 logits and one value.
	s = append(s,
		benchShape{"NN_128x256x256", false, false, 128, 256, 256},
		benchShape{"NT_128x256x256", false, true, 128, 256, 256},
		benchShape{"TN_128x256x1024", true, false, 128, 256, 1024},
		benchShape{"NN_1x6x256", false, false, 1, 6, 256},
		benchShape{"NN_128x6x256", false, false, 128, 6, 256},
		benchShape{"NN_128x1x256", false, false, 128, 1, 256},
		benchShape{"NT_128x256x6", false, true, 128, 256, 6},
		benchShape{"TN_128x6x1024", true, false, 128, 6, 1024},
	)
	// PPO's default network (resmlp 3×128 with layer norm, compact input
	// of 17, 6 logits) on its minibatch of 2048: row blocks of 128 forward
	// and for the input gradient, whole-batch weight gradients.
	s = append(s,
		benchShape{"PPO_NN_128x128x17", false, false, 128, 128, 17},
		benchShape{"PPO_NN_128x128x128", false, false, 128, 128, 128},
		benchShape{"PPO_NN_128x6x128", false, false, 128, 6, 128},
		benchShape{"PPO_NT_128x128x128", false, true, 128, 128, 128},
		benchShape{"PPO_NT_128x128x6", false, true, 128, 128, 6},
		benchShape{"PPO_TN_17x128x2048", true, false, 17, 128, 2048},
		benchShape{"PPO_TN_128x128x2048", true, false, 128, 128, 2048},
		benchShape{"PPO_TN_64x128x2048", true, false, 64, 128, 2048},
		benchShape{"PPO_TN_128x6x2048", true, false, 128, 6, 2048},
	)
	return s
}

// BenchmarkSgemm runs every shape on every back-end of this build and on
// gonum's blas32 Sgemm ("gonum": pure Go, which splits large products over
// goroutines), reporting GFLOP/s (2·m·n·k per call) by wall time and by the
// process's CPU time. Compare back-ends within one run, and prefer the CPU
// figures on a shared machine.
func BenchmarkSgemm(b *testing.B) {
	saved := Backend()
	defer Use(saved)
	rng := rand.New(rand.NewPCG(1, 1))
	const size = 1024 * 256
	x, y, z := randSlice(rng, size), randSlice(rng, size), make([]float32, size)
	for _, s := range benchShapes() {
		lda, ldb := s.k, s.n
		if s.transA {
			lda = s.m
		}
		if s.transB {
			ldb = s.k
		}
		flops := 2 * float64(s.m) * float64(s.n) * float64(s.k)
		report := func(b *testing.B, cpu time.Duration) {
			b.ReportMetric(flops*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "GFLOP/s")
			if cpu > 0 {
				b.ReportMetric(flops*float64(b.N)/float64(cpu.Nanoseconds()), "GFLOP/s-cpu")
			}
		}
		for _, name := range Backends() {
			b.Run(s.name+"/"+name, func(b *testing.B) {
				if err := Use(name); err != nil {
					b.Fatal(err)
				}
				cpu := cpuTimed(b, func() {
					for b.Loop() {
						Sgemm(s.transA, s.transB, s.m, s.n, s.k, 1, x, lda, y, ldb, 0, z, s.n)
					}
				})
				report(b, cpu)
			})
		}
		b.Run(s.name+"/gonum", func(b *testing.B) {
			ta, tb := blas.NoTrans, blas.NoTrans
			if s.transA {
				ta = blas.Trans
			}
			if s.transB {
				tb = blas.Trans
			}
			impl := blas32.Implementation()
			cpu := cpuTimed(b, func() {
				for b.Loop() {
					impl.Sgemm(ta, tb, s.m, s.n, s.k, 1, x, lda, y, ldb, 0, z, s.n)
				}
			})
			report(b, cpu)
		})
	}
}

// BenchmarkElementwise measures the element-wise kernels on a 512×256
// activation (131072 values) under every back-end.
func BenchmarkElementwise(b *testing.B) {
	saved := Backend()
	defer Use(saved)
	rng := rand.New(rand.NewPCG(2, 2))
	const rows, cols = 512, 256
	x, y, z := randSlice(rng, rows*cols), randSlice(rng, rows*cols), randSlice(rng, rows*cols)
	v := make([]float32, rows*cols)
	bias := randSlice(rng, cols)
	kernels := []struct {
		name string
		f    func()
	}{
		{"AddBias", func() { AddBias(x, bias) }},
		{"AddBiasReLU", func() { AddBiasReLU(z, bias) }},
		{"ReLU", func() { ReLU(y, x) }},
		{"ReLUBackward", func() { ReLUBackward(z, y, x) }},
		{"ColSum", func() { ColSum(bias, x) }},
		{"Axpy", func() { Axpy(1e-9, x, y) }},
		{"Dot", func() { _ = Dot(x, y) }},
		{"AdamW", func() { AdamW(x, y, z, v, 1e-9, 0.9, 0.999, 1e-8, 0, 1, 1) }},
	}
	for _, k := range kernels {
		for _, name := range Backends() {
			b.Run(k.name+"/"+name, func(b *testing.B) {
				if err := Use(name); err != nil {
					b.Fatal(err)
				}
				cpu := cpuTimed(b, func() {
					for b.Loop() {
						k.f()
					}
				})
				b.ReportMetric(float64(rows*cols)*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "Gelem/s")
				if cpu > 0 {
					b.ReportMetric(float64(rows*cols)*float64(b.N)/float64(cpu.Nanoseconds()), "Gelem/s-cpu")
				}
			})
		}
	}
}

// cpuTimed runs loop and returns the CPU time the process used meanwhile
// (0 where the platform cannot tell).
func cpuTimed(b *testing.B, loop func()) time.Duration {
	t0, ok0 := cputime.Process()
	loop()
	t1, ok1 := cputime.Process()
	if !ok0 || !ok1 {
		return 0
	}
	return t1 - t0
}
