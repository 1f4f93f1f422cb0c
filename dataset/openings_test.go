package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpeningsAgainstMaxPlies: self-play openings as long as the rules' ply
// cap are refused by Validate, where the first game used to panic.
func TestOpeningsAgainstMaxPlies(t *testing.T) {
	rules := filepath.Join(t.TempDir(), "short.yaml")
	os.WriteFile(rules, []byte("preset: urim\nname: short\nmax_plies: 4\n"), 0o644)
	cfg := Config{Agent: "random", Games: 1, Out: t.TempDir(), Rules: rules, Openings: 4}
	err := cfg.Validate()
	if err == nil || !strings.Contains(err.Error(), "openings") || !strings.Contains(err.Error(), "max_plies 4") {
		t.Fatalf("Validate = %v, want openings refused against max_plies", err)
	}
	cfg.Openings = 3
	if err := cfg.Validate(); err != nil {
		t.Fatalf("openings one ply short of the cap: %v", err)
	}
}
