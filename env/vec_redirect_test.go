package env

import (
	"slices"
	"testing"
)

// A redirected Vec writes the same observations as one that is not.
func TestVecRedirect(t *testing.T) {
	for _, mode := range []AutoReset{AutoResetNextStep, AutoResetSameStep, AutoResetDisabled} {
		opt := VecOptions{Workers: 2, AutoReset: mode, Seed: 3, OpeningPlies: 2}
		a, err := NewVec(MustGame(Urim), 70, opt)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := NewVec(MustGame(Urim), 70, opt)
		obs := slices.Clone(b.Obs())
		var final []float32
		if mode == AutoResetSameStep {
			final = make([]float32, len(obs))
		}
		actions := make([]int32, 70)
		rng := uint64(9)
		for step := range 300 {
			RandomActions(actions, a.Legal(), &rng)
			if err := a.Step(actions); err != nil {
				t.Fatal(err)
			}
			if err := b.Redirect(obs, final); err != nil {
				t.Fatal(err)
			}
			if err := b.Step(actions); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(b.Obs(), obs) {
				t.Fatal("Obs does not return the redirected buffer")
			}
			if err := b.Redirect(nil, nil); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(a.Obs(), obs) || !slices.Equal(a.Mask(), b.Mask()) || !slices.Equal(a.Rewards(), b.Rewards()) {
				t.Fatalf("%v: step %d: the redirected Vec differs", mode, step)
			}
			if mode == AutoResetSameStep {
				for i, h := range a.HasFinalObs() {
					d := a.ObsDim()
					if h && !slices.Equal(a.FinalObs()[i*d:(i+1)*d], final[i*d:(i+1)*d]) {
						t.Fatalf("step %d: game %d: final observations differ", step, i)
					}
				}
			}
			if mode == AutoResetDisabled && step%50 == 49 {
				a.Reset()
				b.Redirect(obs, final)
				b.Reset()
				b.Redirect(nil, nil)
			}
		}
		if err := b.Redirect(obs[1:], final); err == nil {
			t.Error("a short buffer was accepted")
		}
		a.Close()
		b.Close()
	}
}
