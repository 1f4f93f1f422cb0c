package alphazero

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/urim-rl/urim/dataset"
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
	d, a := enc.Dim(), g.PitsPerRow()
	for _, poison := range []func(t *dataset.Tensors){
		func(t *dataset.Tensors) { t.Obs[13*d+2] = float32(math.NaN()) },
		func(t *dataset.Tensors) { t.Policy[13*a+1] = float32(math.Inf(1)) },
		func(t *dataset.Tensors) { t.Outcome[13] = float32(math.NaN()) },
	} {
		buf := NewBuffer(d, a, 64)
		rows := &dataset.Tensors{N: 20, Dim: d, Actions: a, Columns: dataset.Columns{
			Obs: make([]float32, 20*d), Mask: make([]bool, 20*a), Policy: make([]float32, 20*a), HasPolicy: make([]bool, 20),
			Value: make([]float32, 20), Outcome: make([]float32, 20), Action: make([]int32, 20), Ply: make([]int32, 20)},
			GameID: make([]int64, 20)}
		for i := range 20 {
			rows.Policy[i*a], rows.HasPolicy[i], rows.Ply[i], rows.GameID[i] = 1, true, int32(i), 7
			for k := range a {
				rows.Mask[i*a+k] = true
			}
		}
		poison(rows)
		buf.addRows(&rows.Columns, rows.N, rows.GameID, 0)
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
	src := rows(14) // rows 0, 2, … have a policy target, at those plies
	b.addRows(&src.Columns, src.N, src.GameID, 0)
	if err := b.checkFinite(); err != nil {
		t.Fatal(err)
	}
	more := rows(18)
	more.Obs[14*3+1] = float32(math.NaN())
	b.addRows(&more.Columns, more.N, more.GameID, 0)
	if err := b.checkFinite(); err == nil || !strings.Contains(err.Error(), "ply 14") {
		t.Fatalf("after a NaN row: %v, want it named", err)
	}
}
