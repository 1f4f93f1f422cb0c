package nn

import (
	"fmt"
	"testing"
	"time"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/cputime"
)

// Benchmarks of the default network (mlp 3×256, compact encoding of urim);
// urim bench nn reports the same figures with more context.

func BenchmarkPredict(b *testing.B) {
	for _, batch := range []int{1, 64, 512} {
		b.Run(fmt.Sprint("batch=", batch), func(b *testing.B) {
			n, _ := New(DefaultArch(), env.Urim, env.EncodingCompact, 1)
			obs, _ := testObs(b, env.Urim, env.EncodingCompact, batch, 1)
			p := n.NewPredictor(batch)
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				p.Predict(obs, batch)
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "pos/s")
		})
	}
}

func BenchmarkTrainStep(b *testing.B) {
	for _, batch := range []int{256, 1024} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("batch=%d/threads=%d", batch, threads), func(b *testing.B) {
				n, _ := New(DefaultArch(), env.Urim, env.EncodingCompact, 1)
				tr, _ := NewTrainer(n, TrainConfig{Threads: threads}, batch)
				defer tr.Close()
				bt := testBatch(b, env.Urim, env.EncodingCompact, batch, 1)
				b.ReportAllocs()
				b.ResetTimer()
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					tr.Step(bt)
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
			})
		}
	}
}

// BenchmarkTrainStepResMLPNorm is BenchmarkTrainStep on PPO's default
// network (resmlp 3×128 with layer norm) at its minibatch of 2048 rows.
func BenchmarkTrainStepResMLPNorm(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			n, _ := New(Arch{Kind: KindResMLP, Width: 128, Depth: 3, LayerNorm: true}, env.Urim, env.EncodingCompact, 1)
			tr, _ := NewTrainer(n, TrainConfig{Threads: threads}, 2048)
			defer tr.Close()
			bt := testBatch(b, env.Urim, env.EncodingCompact, 2048, 1)
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				tr.Step(bt)
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

// cpuTime returns the process's CPU time (0 where it cannot be read).
func cpuTime() time.Duration {
	d, _ := cputime.Process()
	return d
}

// BenchmarkPredictPrecision runs training's network (configs/urim.yaml:
// resmlp 3×128 with layer norm) at both precisions, side by side.
func BenchmarkPredictPrecision(b *testing.B) {
	arch := Arch{Kind: KindResMLP, Depth: 3, Width: 128, LayerNorm: true}
	for _, batch := range []int{1, 512} {
		for _, prec := range []Precision{FP32, Int8} {
			b.Run(fmt.Sprintf("batch=%d/%s", batch, prec), func(b *testing.B) {
				n, _ := New(arch, env.Urim, env.EncodingCompact, 1)
				obs, _ := testObs(b, env.Urim, env.EncodingCompact, batch, 1)
				p := n.NewPredictor(batch)
				p.SetPrecision(prec)
				b.ReportAllocs()
				cpu0 := cpuTime()
				for b.Loop() {
					p.Predict(obs, batch)
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
