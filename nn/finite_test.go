package nn

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
)

// TestNonFiniteWeights: a network with a NaN or an infinite weight (or NaN
// optimizer moments) is neither saved nor exported, and a checkpoint file
// holding one is refused on load, naming the weight.
func TestNonFiniteWeights(t *testing.T) {
	dir := t.TempDir()
	for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		n, err := New(Arch{Kind: KindMLP, Width: 8, Depth: 1}, env.Urim, env.EncodingCompact, 1)
		if err != nil {
			t.Fatal(err)
		}
		n.Params()[1].W[3] = bad
		path := filepath.Join(dir, "bad.ckpt")
		if err := Save(path, &Checkpoint{Net: n}); !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), n.Params()[1].Name+"[3]") {
			t.Errorf("Save with a weight %g: %v, want ErrNonFinite naming it", bad, err)
		}
		if _, err := os.Stat(path); err == nil {
			t.Errorf("Save with a weight %g wrote the file", bad)
		}
		if err := n.ExportNPZ(filepath.Join(dir, "bad.npz"), 0); !errors.Is(err, ErrNonFinite) {
			t.Errorf("ExportNPZ with a weight %g: %v", bad, err)
		}
		data, err := (&Checkpoint{Net: n}).Encode()
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(path, data, 0o644)
		if _, err := Load(path); !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), path) {
			t.Errorf("Load of a checkpoint with a weight %g: %v, want ErrNonFinite naming the file", bad, err)
		}
		os.Remove(path)
	}
	n, _ := New(Arch{Kind: KindMLP, Width: 8, Depth: 1}, env.Urim, env.EncodingCompact, 1)
	k := n.NumWeights()
	opt := &OptimizerState{Config: AdamW{}, M: make([]float32, k), V: make([]float32, k)}
	opt.V[k-1] = float32(math.NaN())
	if err := Save(filepath.Join(dir, "opt.ckpt"), &Checkpoint{Net: n, Optimizer: opt}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Save with NaN moments: %v", err)
	}
}
