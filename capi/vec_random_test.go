package capi

import (
	"slices"
	"testing"
)

// RandomActions draws only legal actions, covers every legal action of a
// game over many draws, plays whole games under illegal "error", and
// restarts its stream on a seeded reset.
func TestVecEnvRandomActions(t *testing.T) {
	e, err := NewVecEnv(VecConfig{N: 16, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	b := newBenchBuffers(e)
	seed := uint64(9)
	if err := e.Reset(b, &seed); err != nil {
		t.Fatal(err)
	}
	seen := make([]uint8, 16)
	ended := 0
	var first []int32
	for step := range 3000 {
		legal := slices.Clone(e.Vec().Legal())
		if err := e.RandomActions(b.Actions); err != nil {
			t.Fatal(err)
		}
		if step == 0 {
			first = slices.Clone(b.Actions)
		}
		for i, m := range legal {
			if m != 0 && !m.Has(int(b.Actions[i])) {
				t.Fatalf("step %d: game %d drew %d, not in %08b", step, i, b.Actions[i], m)
			}
			if step == 0 {
				seen[i] |= 1 << b.Actions[i]
			}
		}
		if step == 0 {
			for range 200 { // the first position's legal set, drawn again and again
				if err := e.RandomActions(b.Actions); err != nil {
					t.Fatal(err)
				}
				for i := range b.Actions {
					seen[i] |= 1 << b.Actions[i]
				}
			}
			for i, m := range legal {
				if seen[i] != uint8(m) {
					t.Fatalf("game %d: 201 draws covered %08b of %08b", i, seen[i], m)
				}
			}
			copy(b.Actions, first)
		}
		if err := e.Step(b); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		for _, done := range b.Terminated {
			if done {
				ended++
			}
		}
	}
	if ended == 0 {
		t.Fatal("no game ended")
	}
	if err := e.Reset(b, &seed); err != nil {
		t.Fatal(err)
	}
	if err := e.RandomActions(b.Actions); err != nil || !slices.Equal(b.Actions, first) {
		t.Fatalf("after reset(seed=9): %v %v, want %v again", b.Actions, err, first)
	}
	if err := e.RandomActions(make([]int32, 3)); CodeOf(err) != ErrArg {
		t.Fatalf("3 actions for 16 games: %v, want an argument error", err)
	}
}
