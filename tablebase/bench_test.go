package tablebase

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/urim-rl/urim/env"
)

// BenchmarkBuild solves urim over a ladder of K.
func BenchmarkBuild(b *testing.B) {
	for _, k := range []int{4, 6, 8} {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := Build(context.Background(), env.Urim, k, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkProbe looks up sampled positions of a K=8 table.
func BenchmarkProbe(b *testing.B) {
	tb, _, err := Build(context.Background(), env.Urim, 8, Options{})
	if err != nil {
		b.Fatal(err)
	}
	g := env.MustGame(env.Urim)
	rng := rand.New(rand.NewPCG(1, 1))
	var states []env.State
	for range 1024 {
		s, err := tb.Sample(g, 1+rng.IntN(8), rng)
		if err != nil {
			b.Fatal(err)
		}
		states = append(states, s)
	}
	i := 0
	for b.Loop() {
		if _, err := tb.Probe(&states[i&1023]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// TestProbeAllocs checks that a probe, which search agents make at every
// node, allocates nothing.
func TestProbeAllocs(t *testing.T) {
	tb := smallTable(t)
	s, err := env.MustGame(env.Urim).ParsePosition("0,0,1,0,0,2/0,0,1,0,0,0 16-16 S 60")
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := tb.Probe(&s); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("Probe allocates %.1f times, want 0", n)
	}
}

// BenchmarkBuildBestMoves solves urim with the stored best moves
// (Options.StoreMoves), whose analysis dominates such a build.
func BenchmarkBuildBestMoves(b *testing.B) {
	for _, k := range []int{6, 8} {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Build(context.Background(), env.Urim, k, Options{StoreMoves: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
