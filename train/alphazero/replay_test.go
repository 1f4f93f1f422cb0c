package alphazero

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

func sample(i int) *Sample {
	return &Sample{Obs: []float32{float32(i), 1, 2}, Policy: []float32{0.5, 0.5}, Mask: env.Mask(3),
		Value: float32(i % 3), Root: 0.25, Ply: i, Game: int64(i / 10)}
}

func TestBufferRingSaveLoad(t *testing.T) {
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
	path := filepath.Join(t.TempDir(), "replay.bin")
	if err := b.Save(path); err != nil {
		t.Fatal(err)
	}
	c, err := LoadBuffer(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.obs, c.obs) || !slices.Equal(b.value, c.value) || !slices.Equal(b.mask, c.mask) ||
		!slices.Equal(b.game, c.game) || b.next != c.next || b.n != c.n || b.added != c.added {
		t.Errorf("loaded buffer differs from the saved one")
	}
	// A smaller window keeps the newest rows.
	r := b.Resize(2)
	if r.Len() != 2 || r.Newest(1).Obs[0] != 6 || r.Newest(2).Obs[3] != 5 {
		t.Errorf("resized buffer: len %d", r.Len())
	}
	// Truncated, padded and foreign files are refused.
	data, _ := os.ReadFile(path)
	for name, bad := range map[string][]byte{"truncated": data[:len(data)-3], "padded": append(slices.Clone(data), 0),
		"foreign": []byte("not a buffer at all, no")} {
		p := filepath.Join(t.TempDir(), name)
		os.WriteFile(p, bad, 0o644)
		if _, err := LoadBuffer(p); err == nil {
			t.Errorf("%s file loaded", name)
		}
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
