package memlimit

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestCheck: a size over Go's memory limit is refused with both figures;
// a size under it, and a small one, pass.
func TestCheck(t *testing.T) {
	old := debug.SetMemoryLimit(1 << 30)
	defer debug.SetMemoryLimit(old)
	if n, why := Limit(); n > 1<<30 || why == "" {
		t.Fatalf("limit %d (%s) over the 1 GiB set", n, why)
	}
	err := Check("replay.window 67108864", 3<<30)
	if err == nil || !strings.Contains(err.Error(), "replay.window 67108864 needs 3.2 GB of memory, more than the 1.1 GB") {
		t.Fatalf("3 GiB under a 1 GiB limit: %v", err)
	}
	if err := Check("x", 512<<20); err != nil {
		t.Fatal(err)
	}
}
