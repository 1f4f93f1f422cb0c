package dataset

import (
	"strings"
	"testing"

	"github.com/urim-rl/urim/internal/buildinfo"
)

// TestProgramVersionFallback: a commit given at link time (urim's
// main.buildCommit) reaches the manifest when the toolchain recorded none,
// as it reaches urim version.
func TestProgramVersionFallback(t *testing.T) {
	if buildinfo.Read().Time != "" {
		t.Skip("this test binary has a recorded commit")
	}
	old := buildinfo.FallbackRevision
	defer func() { buildinfo.FallbackRevision = old }()
	buildinfo.FallbackRevision = "0123abc"
	if v := ProgramVersion(); !strings.Contains(v, " 0123abc ") {
		t.Errorf("ProgramVersion() = %q, want the fallback commit", v)
	}
}
