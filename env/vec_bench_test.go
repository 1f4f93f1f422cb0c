package env

import (
	"fmt"
	"testing"
)

// BenchmarkVecStep steps a batch with random legal actions over the size
// ladder of issue 3 (N = 64 … 16384) with 1 and 2 workers. One op is one
// Step of the whole batch, so allocs/op is allocations per step; steps/s
// counts game steps (N per op). The random actions are drawn by
// RandomActions, observations and masks are written every step.
func BenchmarkVecStep(b *testing.B) {
	for _, enc := range []Encoding{EncodingCompact, EncodingThermometer} {
		for _, n := range []int{64, 1024, 4096, 16384} {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/N=%d/workers=%d", enc, n, workers), func(b *testing.B) {
					benchVecStep(b, n, VecOptions{Workers: workers, Encoding: enc})
				})
			}
		}
	}
}

// BenchmarkVecStepModes compares the auto-reset modes and openings at
// N = 4096 on one worker.
func BenchmarkVecStepModes(b *testing.B) {
	for _, c := range []struct {
		name string
		opt  VecOptions
	}{
		{"next_step", VecOptions{}},
		{"same_step", VecOptions{AutoReset: AutoResetSameStep}},
		{"opening8", VecOptions{OpeningPlies: 8}},
	} {
		b.Run(c.name, func(b *testing.B) {
			c.opt.Workers = 1
			benchVecStep(b, 4096, c.opt)
		})
	}
}

func benchVecStep(b *testing.B, n int, opt VecOptions) {
	v, err := NewVec(MustGame(Urim), n, opt)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	actions := make([]int32, n)
	rng := uint64(0x9E3779B97F4A7C15)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		RandomActions(actions, v.Legal(), &rng)
		if err := v.Step(actions); err != nil {
			b.Fatal(err)
		}
		v.ClearEpisodes()
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)*float64(n)/sec, "steps/s")
	b.ReportMetric(sec*1e9/(float64(b.N)*float64(n)), "ns/step")
}

// BenchmarkRandomActions measures the benchmark's own random player, to
// show it is a small part of a step.
func BenchmarkRandomActions(b *testing.B) {
	v, err := NewVec(MustGame(Urim), 4096, VecOptions{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	actions := make([]int32, v.Len())
	rng := uint64(1)
	b.ReportAllocs()
	for range b.N {
		RandomActions(actions, v.Legal(), &rng)
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/(float64(b.N)*float64(v.Len())), "ns/game")
}

// BenchmarkVecObserve writes the observation and mask rows of 256 games
// in mid-play positions (in cache, as after Play), without stepping: the
// encoding's share of a step.
func BenchmarkVecObserve(b *testing.B) {
	for _, enc := range []Encoding{EncodingCompact, EncodingThermometer} {
		b.Run(enc.String(), func(b *testing.B) {
			v, err := NewVec(MustGame(Urim), 256, VecOptions{Workers: 1, Encoding: enc, OpeningPlies: 20})
			if err != nil {
				b.Fatal(err)
			}
			defer v.Close()
			b.ReportAllocs()
			for range b.N {
				for i := range v.n {
					v.observe(i, v.legal[i])
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e9/(float64(b.N)*float64(v.n)), "ns/game")
		})
	}
}
