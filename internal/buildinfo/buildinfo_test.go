package buildinfo

import (
	"runtime"
	"testing"
)

func TestRead(t *testing.T) {
	old := FallbackRevision
	defer func() { FallbackRevision = old }()
	FallbackRevision = "abc123"
	info := Read()
	if info.Go != runtime.Version() {
		t.Errorf("Go = %q, want %q", info.Go, runtime.Version())
	}
	// go test records no VCS information, so the fallback shows.
	if info.Revision != "abc123" && info.Time == "" {
		t.Errorf("Revision = %q without a recorded commit; want the fallback", info.Revision)
	}
}
