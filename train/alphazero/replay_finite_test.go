package alphazero

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

// TestNonFiniteRowsRefused: a NaN or an infinity anywhere in a training row
// stops training (and a window of shards holding one is refused on resume:
// openWindow checks it), naming the row, its game and ply; a NaN observation used to train the
// network into NaN weights without a sign in the losses.
func TestNonFiniteRowsRefused(t *testing.T) {
	cfg := tinyConfig(t, t.TempDir())
	g := env.MustGame(env.Urim)
	enc := env.NewEncoder(g, env.EncodingCompact)
	net, err := nn.New(nn.Arch{Kind: nn.KindMLP, Width: 8, Depth: 1}, env.Urim, env.EncodingCompact, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, poison := range []func(s *Sample){
		func(s *Sample) { s.Obs[2] = float32(math.NaN()) },
		func(s *Sample) { s.Policy[1] = float32(math.Inf(1)) },
		func(s *Sample) { s.Value = float32(math.NaN()) },
	} {
		buf := NewBuffer(enc.Dim(), g.PitsPerRow(), 64)
		for i := range 20 {
			s := &Sample{Obs: make([]float32, enc.Dim()), Policy: make([]float32, g.PitsPerRow()), Mask: env.Mask(63), Ply: i, Game: 7}
			s.Policy[0] = 1
			if i == 13 {
				poison(s)
			}
			buf.Add(s)
		}
		sess, err := train.NewSession(cfg, net)
		if err != nil {
			t.Fatal(err)
		}
		_, err = newLearner(sess).train(context.Background(), buf, 2, 1, 1e-3, nil)
		if err == nil || !strings.Contains(err.Error(), "row 13 (game 7, ply 13)") {
			t.Errorf("training on a non-finite row: %v, want the row named", err)
		}
	}
}

// TestCheckFiniteIncremental: a row poisoned after a check that passed is
// found by the next check, which reads only the new rows.
func TestCheckFiniteIncremental(t *testing.T) {
	b := NewBuffer(3, 2, 5)
	for i := range 7 {
		b.Add(sample(i))
	}
	if err := b.checkFinite(); err != nil {
		t.Fatal(err)
	}
	s := sample(7)
	s.Obs[1] = float32(math.NaN())
	b.Add(s)
	b.Add(sample(8))
	if err := b.checkFinite(); err == nil || !strings.Contains(err.Error(), "ply 7") {
		t.Fatalf("after a NaN row: %v, want it named", err)
	}
}
