package alphazero

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

// TestInt8SelfPlayRun: a tiny run with search.precision: int8 trains (its
// self-play quantising the network as the learner changes it), and the
// precision reads back from the config.
func TestInt8SelfPlayRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := tinyConfig(t, dir, "search.precision=int8")
	if Precision(&cfg) != nn.Int8 {
		t.Fatalf("precision %v, want int8", Precision(&cfg))
	}
	if _, err := train.Run(context.Background(), cfg, train.Options{}); err != nil {
		t.Fatal(err)
	}
	tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 2 {
		t.Fatalf("%d rows, want 2", len(tab.Rows))
	}
	if def := tinyConfig(t, filepath.Join(t.TempDir(), "b")); Precision(&def) != nn.FP32 {
		t.Errorf("default precision %v, want fp32", Precision(&def))
	}
}
