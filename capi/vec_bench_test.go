package capi

import (
	"testing"

	"github.com/urim-rl/urim/env"
)

func newBenchBuffers(e *VecEnv) *Buffers {
	n, d, p := e.Len(), e.ObsDim(), e.Actions()
	return &Buffers{Obs: make([]float32, n*d), Mask: make([]bool, n*p), Rewards: make([]float32, n),
		Rewards2: make([]float32, 2*n), Terminated: make([]bool, n), Truncated: make([]bool, n),
		ToMove: make([]int32, n), Legal: make([]uint8, n), Actions: make([]int32, n)}
}

// BenchmarkVecEnvStep is VecEnv.Step with the copies into the caller's
// buffers; BenchmarkVecStep the env.Vec under it.
func BenchmarkVecEnvStep(b *testing.B) {
	e, err := NewVecEnv(VecConfig{N: 4096, Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	buf := newBenchBuffers(e)
	rng := uint64(1)
	for b.Loop() {
		env.RandomActions(buf.Actions, e.Vec().Legal(), &rng)
		if err := e.Step(buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4096, "ns/step")
}

func BenchmarkVecStep(b *testing.B) {
	e, err := NewVecEnv(VecConfig{N: 4096, Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	v := e.Vec()
	actions := make([]int32, 4096)
	rng := uint64(1)
	for b.Loop() {
		env.RandomActions(actions, v.Legal(), &rng)
		if err := v.Step(actions); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4096, "ns/step")
}

func BenchmarkVecEnvWrite(b *testing.B) {
	e, err := NewVecEnv(VecConfig{N: 4096, Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	buf := newBenchBuffers(e)
	for b.Loop() {
		e.write(buf)
	}
}
