package tablebase

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/urim-rl/urim/env"
)

// Sample draws positions of the asked seed count that the table holds, and
// allocates nothing: training draws it in every step (training.tablebase_sample).
func TestSampleHeldAndAllocationFree(t *testing.T) {
	const k = 6
	g := env.MustGame(env.Urim)
	tb, _, err := Build(context.Background(), env.Urim, k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 500; i++ {
		n := 1 + rng.IntN(k)
		s, err := tb.Sample(g, n, rng)
		if err != nil {
			t.Fatal(err)
		}
		on := 0
		for _, v := range s.Pits() {
			on += v
		}
		if on != n {
			t.Fatalf("asked for %d seeds, got %v", n, s.String())
		}
		if _, err := tb.Probe(&s); err != nil {
			t.Fatalf("%v: %v", s.String(), err)
		}
	}
	if a := testing.AllocsPerRun(200, func() {
		if _, err := tb.Sample(g, 1+rng.IntN(k), rng); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("Sample allocates %v times a call", a)
	}
}
