package capi

import (
	"math"
	"slices"
	"testing"

	"github.com/urim-rl/urim/env"
)

// writeMask against the plain loop, for every board width and batch sizes
// around its four-row blocks and its 8-byte tail.
func TestWriteMask(t *testing.T) {
	for p := 1; p <= env.MaxActions; p++ {
		for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 4096, 4097} {
			legal := make([]env.Mask, n)
			for i := range legal {
				legal[i] = env.Mask(i*37+i/3) & (1<<p - 1)
			}
			mask, bits := make([]bool, p*n), make([]uint8, n)
			for i := range mask {
				mask[i] = i%3 == 0 // garbage the writes must replace
			}
			writeMask(mask, bits, legal, p)
			for i, m := range legal {
				if bits[i] != uint8(m) {
					t.Fatalf("p %d, n %d: bits[%d] = %d, want %d", p, n, i, bits[i], m)
				}
				for a := range p {
					if mask[i*p+a] != m.Has(a) {
						t.Fatalf("p %d, n %d: mask[%d][%d] = %v, want %v", p, n, i, a, mask[i*p+a], m.Has(a))
					}
				}
			}
		}
	}
}

// garbage fills a set with values no call writes, so that an entry StepInto
// leaves unwritten shows.
func garbage(b *Buffers) {
	for _, s := range [][]float32{b.Obs, b.Rewards, b.Rewards2, b.FinalObs} {
		for i := range s {
			s[i] = float32(math.NaN())
		}
	}
	for _, s := range [][]bool{b.Mask, b.Terminated, b.Truncated, b.HasFinal} {
		for i := range s {
			s[i] = i%2 == 0
		}
	}
	for i := range b.ToMove {
		b.ToMove[i], b.Legal[i] = 7, 0xAA
	}
}

func sameBuffers(a, b *Buffers) bool {
	eqf := func(x, y []float32) bool {
		return slices.EqualFunc(x, y, func(p, q float32) bool { return p == q || (p != p && q != q) })
	}
	return eqf(a.Obs, b.Obs) && eqf(a.Rewards, b.Rewards) && eqf(a.Rewards2, b.Rewards2) && eqf(a.FinalObs, b.FinalObs) &&
		slices.Equal(a.Mask, b.Mask) && slices.Equal(a.Terminated, b.Terminated) && slices.Equal(a.Truncated, b.Truncated) &&
		slices.Equal(a.HasFinal, b.HasFinal) && slices.Equal(a.ToMove, b.ToMove) && slices.Equal(a.Legal, b.Legal)
}

// StepInto, ResetInto and ResetMaskInto, each call into another of three
// sets filled with garbage, write exactly what Step, Reset and ResetMask
// write into the one set they keep: in every autoreset mode, with illegal
// actions replaced (illegal "random") or forfeited ("loss").
func TestStepIntoIsStep(t *testing.T) {
	for _, mode := range []string{"next_step", "same_step", "disabled"} {
		for _, illegal := range []string{"random", "loss"} {
			cfg := VecConfig{N: 37, AutoReset: mode, Illegal: illegal, Seed: 8, OpeningPlies: 2}
			a, err := NewVecEnv(cfg)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := NewVecEnv(cfg)
			one := newBenchBuffers(a)
			var sets [3]*Buffers
			for k := range sets {
				sets[k] = newBenchBuffers(b)
				sets[k].Actions = one.Actions // one actions array, as Python's sets share
			}
			if mode == "same_step" {
				one.FinalObs, one.HasFinal = make([]float32, len(one.Obs)), make([]bool, 37)
				for _, s := range sets {
					s.FinalObs, s.HasFinal = make([]float32, len(s.Obs)), make([]bool, 37)
				}
			}
			if err := a.Reset(one, nil); err != nil {
				t.Fatal(err)
			}
			garbage(sets[0])
			if err := b.ResetInto(sets[0], sets[2], nil); err != nil {
				t.Fatal(err)
			}
			cur := 0
			next := func() (out, prev *Buffers) {
				prev = sets[cur]
				cur = (cur + 1) % 3
				garbage(sets[cur])
				return sets[cur], prev
			}
			if !sameBuffers(one, sets[cur]) {
				t.Fatalf("%s/%s: reset differs", mode, illegal)
			}
			rng := uint64(3)
			for step := range 300 {
				for i := range one.Actions {
					rng = rng*6364136223846793005 + 1442695040888963407
					one.Actions[i] = int32(rng >> 61 % 6) // illegal ones too
				}
				saved := slices.Clone(one.Actions)
				if err := a.Step(one); err != nil {
					t.Fatal(err)
				}
				copy(one.Actions, saved) // the same actions for b ("random" replaced a's illegal ones)
				out, prev := next()
				if err := b.StepInto(out, prev); err != nil {
					t.Fatal(err)
				}
				if !sameBuffers(one, out) {
					t.Fatalf("%s/%s: step %d: StepInto wrote other tensors than Step", mode, illegal, step)
				}
				switch {
				case step%50 == 49:
					sel := make([]bool, 37)
					for i := range sel {
						sel[i] = i%3 == 0 || a.Vec().Done(i)
					}
					if err := a.ResetMask(one, sel); err != nil {
						t.Fatal(err)
					}
					out, prev := next()
					if err := b.ResetMaskInto(out, prev, sel); err != nil {
						t.Fatal(err)
					}
				case step%77 == 76:
					seed := uint64(step)
					if err := a.Reset(one, &seed); err != nil {
						t.Fatal(err)
					}
					out, prev := next()
					if err := b.ResetInto(out, prev, &seed); err != nil {
						t.Fatal(err)
					}
				default:
					continue
				}
				if !sameBuffers(one, sets[cur]) {
					t.Fatalf("%s/%s: step %d: a reset into a fresh set differs", mode, illegal, step)
				}
			}
			a.Close()
			b.Close()
		}
	}
}
