package alphazero

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestLoadBufferHeaderSizes: a replay file whose header claims a window its
// length does not hold is refused before the window is allocated.
func TestLoadBufferHeaderSizes(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(replayMagic)
	binary.Write(&b, binary.LittleEndian, []int64{replayVersion, 17, 6, 1 << 20, 0, 0, 0})
	path := filepath.Join(t.TempDir(), "replay-0001.bin")
	os.WriteFile(path, b.Bytes(), 0o644)
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	_, err := LoadBuffer(path)
	runtime.ReadMemStats(&m1)
	if err == nil || !strings.Contains(err.Error(), "its header") {
		t.Fatalf("LoadBuffer = %v, want the header's sizes refused", err)
	}
	if n := m1.TotalAlloc - m0.TotalAlloc; n > 1<<20 {
		t.Fatalf("LoadBuffer allocated %d bytes for a %d-byte file", n, b.Len())
	}
}
