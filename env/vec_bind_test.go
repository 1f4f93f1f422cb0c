package env

import (
	"math"
	"slices"
	"testing"
)

// boundSet is one set of caller arrays for Bind, every output given.
type boundSet struct {
	o VecOutputs
}

func newBoundSet(v *Vec, noMask bool) *boundSet {
	n, d := v.Len(), v.ObsDim()
	o := VecOutputs{Obs: slices.Clone(v.Obs()), Rewards: slices.Clone(v.Rewards()),
		Terminated: slices.Clone(v.Terminated()), Truncated: slices.Clone(v.Truncated()),
		ToMove: slices.Clone(v.ToMove()), MoverRewards: make([]float32, n), Legal: slices.Clone(v.Legal()),
		BoolMask: make([]bool, n*v.Actions()), NoMask: noMask}
	for i, x := range v.Mask() {
		o.BoolMask[i] = x != 0
	}
	if v.FinalObs() != nil {
		o.FinalObs, o.HasFinalObs = make([]float32, n*d), slices.Clone(v.HasFinalObs())
	}
	return &boundSet{o}
}

func sameBits(x, y []float32) bool {
	return slices.EqualFunc(x, y, func(p, q float32) bool { return math.Float32bits(p) == math.Float32bits(q) })
}

// A Vec bound to the caller's arrays on every call writes into them, bit
// for bit, what an unbound Vec writes into its own buffers, and the extras
// (the mover's reward, legal sets, bool masks) agree with them: in every
// auto-reset mode, with illegal actions forfeited, over steps, resets and
// reset masks, with the float32 mask on and off.
func TestVecBindIsUnbound(t *testing.T) {
	for _, mode := range []AutoReset{AutoResetNextStep, AutoResetSameStep, AutoResetDisabled} {
		for _, noMask := range []bool{false, true} {
			opt := VecOptions{Workers: 2, AutoReset: mode, Seed: 5, OpeningPlies: 2, Illegal: IllegalLoss}
			a, err := NewVec(MustGame(Urim), 67, opt)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := NewVec(MustGame(Urim), 67, opt)
			s := newBoundSet(b, noMask)
			n, p := a.Len(), a.Actions()
			actions, mover := make([]int32, n), make([]int32, n)
			sel := make([]bool, n)
			rng := uint64(11)
			for step := range 600 {
				copy(mover, a.ToMove())
				before := slices.Clone(s.o.MoverRewards)
				masked := false
				if err := b.Bind(&s.o); err != nil {
					t.Fatal(err)
				}
				switch {
				case step%97 == 96:
					a.Reset()
					b.Reset()
				case mode == AutoResetDisabled && step%7 == 6:
					for i := range sel {
						sel[i] = a.Done(i) && i%2 == 0
					}
					if err := a.ResetMask(sel); err != nil {
						t.Fatal(err)
					}
					if err := b.ResetMask(sel); err != nil {
						t.Fatal(err)
					}
					masked = true
				default:
					RandomActions(actions, a.Legal(), &rng)
					if step%5 == 0 {
						actions[step%n] = int32(rng % uint64(p)) // now and then an illegal one
					}
					if err := a.Step(actions); err != nil {
						t.Fatal(err)
					}
					if err := b.Step(actions); err != nil {
						t.Fatal(err)
					}
				}
				if !sameBits(b.Obs(), s.o.Obs) {
					t.Fatal("Obs does not return the bound array")
				}
				if err := b.Bind(nil); err != nil {
					t.Fatal(err)
				}
				o := &s.o
				if !sameBits(a.Obs(), o.Obs) || !sameBits(a.Rewards(), o.Rewards) ||
					!slices.Equal(a.Terminated(), o.Terminated) || !slices.Equal(a.Truncated(), o.Truncated) ||
					!slices.Equal(a.ToMove(), o.ToMove) || !slices.Equal(a.Legal(), o.Legal) || !slices.Equal(a.Legal(), b.Legal()) {
					t.Fatalf("%v: step %d: the bound outputs differ", mode, step)
				}
				if !noMask && !sameBits(a.Mask(), b.Mask()) {
					t.Fatalf("%v: step %d: the float32 masks differ", mode, step)
				}
				for i := range n {
					for k := range p {
						if o.BoolMask[i*p+k] != (a.Mask()[i*p+k] != 0) {
							t.Fatalf("%v: step %d: game %d: bool mask differs", mode, step, i)
						}
					}
					want := a.Rewards()[2*i+int(mover[i])] // the player who moved in this step
					if masked && !sel[i] {
						want = before[i] // ResetMask leaves the others as they were
					}
					if math.Float32bits(o.MoverRewards[i]) != math.Float32bits(want) {
						t.Fatalf("%v: step %d: game %d: mover's reward %v, want %v", mode, step, i, o.MoverRewards[i], want)
					}
				}
				if mode == AutoResetSameStep && (!slices.Equal(a.HasFinalObs(), o.HasFinalObs) || !sameBits(a.FinalObs(), o.FinalObs)) {
					t.Fatalf("step %d: the final observations differ", step)
				}
			}
			a.Close()
			b.Close()
		}
	}
}

// Wrong lengths are refused, and change nothing.
func TestVecBindLengths(t *testing.T) {
	v, err := NewVec(MustGame(Urim), 8, VecOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	own := v.Rewards()
	for _, o := range []VecOutputs{
		{Rewards: make([]float32, 8)}, {Obs: make([]float32, 3)}, {BoolMask: make([]bool, 8)},
		{Legal: make([]Mask, 7)}, {MoverRewards: make([]float32, 16)}, {ToMove: make([]int32, 9)},
	} {
		if err := v.Bind(&o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	if &v.Rewards()[0] != &own[0] {
		t.Error("a refused Bind changed the buffers")
	}
}

// boundStepper returns one step of a random player on a Vec of n games on
// one worker (closed at the end of the test), with every output bound to
// arrays of the caller's and the float32 mask off for the step when bound
// (what the C library does each step).
func boundStepper(tb testing.TB, n int, bound bool) func() error {
	v, err := NewVec(MustGame(Urim), n, VecOptions{Workers: 1})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { v.Close() })
	s := newBoundSet(v, true)
	actions := make([]int32, v.Len())
	rng := uint64(0x9E3779B97F4A7C15)
	return func() error {
		RandomActions(actions, v.Legal(), &rng)
		if bound {
			_ = v.Bind(&s.o)
			defer v.Bind(nil)
		}
		err := v.Step(actions)
		v.ClearEpisodes()
		return err
	}
}

// TestVecBoundStepAllocs: a bound step allocates nothing (one worker, so
// no goroutine parks and takes a wait record).
func TestVecBoundStepAllocs(t *testing.T) {
	step := boundStepper(t, 256, true)
	if n := testing.AllocsPerRun(200, func() { _ = step() }); n != 0 {
		t.Errorf("a bound step allocates %v times", n)
	}
}

// BenchmarkVecBoundStep is BenchmarkVecStep at 4096 games on one worker
// with every output bound, beside the unbound step.
func BenchmarkVecBoundStep(b *testing.B) {
	for _, bound := range []bool{false, true} {
		name := "unbound"
		if bound {
			name = "bound"
		}
		b.Run(name, func(b *testing.B) {
			step := boundStepper(b, 4096, bound)
			b.ReportAllocs()
			for b.Loop() {
				if err := step(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e9/(float64(b.N)*4096), "ns/step")
		})
	}
}
