package alphazero

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// rows returns n rows of 3 observation columns and 2 actions: row i's
// observation starts with i, and every other row has no policy target.
func rows(n int) *dataset.Tensors {
	t := &dataset.Tensors{N: n, Dim: 3, Actions: 2}
	for i := range n {
		t.Obs = append(t.Obs, float32(i), 1, 2)
		t.Mask = append(t.Mask, true, true)
		t.Policy = append(t.Policy, 0.5, 0.5)
		t.HasPolicy = append(t.HasPolicy, i%2 == 0)
		t.Value = append(t.Value, 0.25)
		t.Outcome = append(t.Outcome, float32(i%3))
		t.Action = append(t.Action, 0)
		t.Ply = append(t.Ply, int32(i))
		t.GameID = append(t.GameID, int64(i/10))
	}
	return t
}

func TestBufferRing(t *testing.T) {
	b := NewBuffer(3, 2, 5)
	src := rows(14) // rows 0, 2, … 12 have a policy: two past the window
	if n := b.addRows(&src.Columns, src.N, src.GameID, 0); n != 7 {
		t.Fatalf("added %d rows with a policy, want 7", n)
	}
	if b.Len() != 5 || b.Added() != 7 {
		t.Fatalf("len %d added %d, want 5 and 7", b.Len(), b.Added())
	}
	newest := b.Newest(3)
	if got := []float32{newest.Obs[0], newest.Obs[3], newest.Obs[6]}; !slices.Equal(got, []float32{12, 10, 8}) {
		t.Errorf("newest rows %v, want 12 10 8", got)
	}
	if newest.GameID[0] != 1 || newest.Outcome[0] != 0 {
		t.Errorf("newest row: game %d, outcome %v; want 1 and 0", newest.GameID[0], newest.Outcome[0])
	}
	// Sampling goes by age: draw k is the k-th oldest row, wherever the
	// ring put it.
	var got []float32
	for k := range 5 {
		got = append(got, b.rows.Obs[b.row(k)*3])
	}
	if !slices.Equal(got, []float32{4, 6, 8, 10, 12}) {
		t.Errorf("rows by age %v, want 4 … 12", got)
	}
}

func TestBufferAllocatesNothing(t *testing.T) {
	b := NewBuffer(3, 2, 100)
	src := rows(2)
	batch := nn.Batch{Rows: env.Rows{Obs: make([]float32, 8*3), Mask: make([]bool, 8*2), Policy: make([]float32, 8*2),
		Outcome: make([]float32, 8)}, N: 8}
	rng := rand.New(rand.NewPCG(1, 2))
	if n := testing.AllocsPerRun(100, func() {
		b.addRows(&src.Columns, src.N, src.GameID, 0)
		b.FillTrain(&batch, rng)
	}); n != 0 {
		t.Errorf("adding and FillTrain allocate %v times, want 0", n)
	}
	if !batch.Mask[0] || !batch.Mask[1] {
		t.Errorf("mask columns %v, want true true", batch.Mask[:2])
	}
}
