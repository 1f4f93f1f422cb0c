package classic

import (
	"github.com/urim-rl/urim/agents"
	"runtime/debug"
	"strings"
	"testing"
)

// TestTTMustFitInMemory: alphabeta:tt=28 (4.3 GB) is refused with an error
// giving the figures when it does not fit in the memory the process may
// use (here Go's memory limit, 1 GiB), before anything is allocated; a
// table that fits is built.
func TestTTMustFitInMemory(t *testing.T) {
	old := debug.SetMemoryLimit(1 << 30)
	defer debug.SetMemoryLimit(old)
	if _, err := agents.New("alphabeta:tt=28", 1); err == nil || !strings.Contains(err.Error(), "alphabeta tt=28") || !strings.Contains(err.Error(), "more than the 1.1 GB") {
		t.Fatalf("tt=28 under 1 GiB: %v", err)
	}
	a, err := agents.New("alphabeta:tt=20", 1)
	if err != nil {
		t.Fatal(err)
	}
	agents.Close(a)
}
