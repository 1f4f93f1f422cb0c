package alphazero

import (
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/urim-rl/urim/train"
)

// TestWindowMustFitInMemory: the config check refuses a replay window that
// does not fit in the memory the process may use (here Go's memory limit,
// 1 GiB), naming the key and the figures, and takes one that fits.
func TestWindowMustFitInMemory(t *testing.T) {
	old := debug.SetMemoryLimit(1 << 30)
	defer debug.SetMemoryLimit(old)
	path := filepath.Join("..", "..", "configs", "tiny.yaml")
	dir := t.TempDir()
	_, err := train.LoadConfig(path, []string{"output=" + dir, "replay.window=67108864", "encoding=thermometer"})
	if err == nil || !strings.Contains(err.Error(), "replay.window") || !strings.Contains(err.Error(), "GB of memory, more than the 1.1 GB") {
		t.Fatalf("a 2^26 thermometer window under 1 GiB: %v", err)
	}
	if _, err := train.LoadConfig(path, []string{"output=" + dir, "replay.window=1000000"}); err != nil {
		t.Fatalf("a window of a million positions: %v", err)
	}
}
