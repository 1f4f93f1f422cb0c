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

// BenchmarkVecEnvStepInto is BenchmarkVecEnvStep writing each step into
// the other of two sets (what a copy=True VecEnv does, the caller keeping
// the last step's arrays).
func BenchmarkVecEnvStepInto(b *testing.B) {
	e, err := NewVecEnv(VecConfig{N: 4096, Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	sets := [2]*Buffers{newBenchBuffers(e), newBenchBuffers(e)}
	sets[1].Actions = sets[0].Actions
	rng := uint64(1)
	k := 0
	for b.Loop() {
		env.RandomActions(sets[0].Actions, e.Vec().Legal(), &rng)
		if err := e.StepInto(sets[1-k], sets[k]); err != nil {
			b.Fatal(err)
		}
		k = 1 - k
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

// BenchmarkWriteMask is the bool masks and bit sets of 4096 games.
func BenchmarkWriteMask(b *testing.B) {
	e, err := NewVecEnv(VecConfig{N: 4096, Workers: 1, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	buf := newBenchBuffers(e)
	for b.Loop() {
		writeMask(buf.Mask, buf.Legal, e.Vec().Legal(), e.Actions())
	}
}
