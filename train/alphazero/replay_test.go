package alphazero

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

func sample(i int) *Sample {
	return &Sample{Obs: []float32{float32(i), 1, 2}, Policy: []float32{0.5, 0.5}, Mask: env.Mask(3),
		Value: float32(i % 3), Root: 0.25, Ply: i, Game: int64(i / 10)}
}

func TestBufferRing(t *testing.T) {
	b := NewBuffer(3, 2, 5)
	for i := range 7 { // two past the window: rows 0 and 1 are dropped
		b.Add(sample(i))
	}
	if b.Len() != 5 || b.Added() != 7 {
		t.Fatalf("len %d added %d, want 5 and 7", b.Len(), b.Added())
	}
	newest := b.Newest(3)
	if got := []float32{newest.Obs[0], newest.Obs[3], newest.Obs[6]}; !slices.Equal(got, []float32{6, 5, 4}) {
		t.Errorf("newest rows %v, want 6 5 4", got)
	}
	// Sampling goes by age: draw k is the k-th oldest row, wherever the
	// ring put it.
	var rows []float32
	for k := range 5 {
		rows = append(rows, b.obs[b.row(k)*3])
	}
	if !slices.Equal(rows, []float32{2, 3, 4, 5, 6}) {
		t.Errorf("rows by age %v, want 2 … 6", rows)
	}
}

func TestBufferAllocatesNothing(t *testing.T) {
	b := NewBuffer(3, 2, 100)
	s := sample(1)
	batch := nn.Batch{Obs: make([]float32, 8*3), Mask: make([]float32, 8*2), Policy: make([]float32, 8*2),
		Value: make([]float32, 8), N: 8}
	rng := rand.New(rand.NewPCG(1, 2))
	if n := testing.AllocsPerRun(100, func() {
		b.Add(s)
		b.FillTrain(&batch, rng)
	}); n != 0 {
		t.Errorf("Add and FillTrain allocate %v times, want 0", n)
	}
	if batch.Mask[0] != 1 || batch.Mask[1] != 1 {
		t.Errorf("mask columns %v, want 1 1 for mask 0b11", batch.Mask[:2])
	}
}
