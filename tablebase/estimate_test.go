package tablebase

import (
	"context"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
)

// TestEstimate checks the estimate against a real table and the memory
// limit against an impossible K.
func TestEstimate(t *testing.T) {
	e, err := EstimateBuild(env.Urim, 6)
	if err != nil {
		t.Fatal(err)
	}
	tb, _, err := Build(context.Background(), env.Urim, 6, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Positions != tb.positions() || e.FileBytes != uint64(tb.Size()) {
		t.Fatalf("estimate %+v, table of %d positions and %d bytes", e, tb.positions(), tb.Size())
	}
	_, _, err = Build(context.Background(), env.Urim, 30, Options{MemoryLimit: 1 << 30})
	if err == nil || !strings.Contains(err.Error(), "GiB") {
		t.Fatalf("K=30 under a 1 GiB limit: %v", err)
	}
}
