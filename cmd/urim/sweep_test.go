package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepCommand: urim sweep on tiny.yaml writes its summary; bad flags
// are usage errors.
func TestSweepCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sweep")
	code, stdout, errs := urim(t, "", "sweep", "--config", "../../configs/tiny.yaml", "--grid", "search.root=puct,gumbel",
		"--set", "stop.iterations=1", "--panel", "random", "--games", "2", "--rate-sims", "4", "--out", out, "--quiet")
	if code != 0 || !strings.Contains(stdout, filepath.Join(out, "report.md")) {
		t.Fatalf("sweep: status %d\n%s\n%s", code, stdout, errs)
	}
	for _, f := range []string{"summary.csv", "report.md", "elo.png", "runs/root-gumbel/seed-1/metrics.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, args := range [][]string{
		{"sweep", "--out", out},
		{"sweep", "--config", "../../configs/tiny.yaml"},
		{"sweep", "--config", "../../configs/tiny.yaml", "--out", out, "--grid", "search.sims"},
		{"sweep", "--config", "../../configs/tiny.yaml", "--out", out, "--parallel", "0"},
	} {
		if code, _, _ := urim(t, "", args...); code != 2 {
			t.Errorf("%q: status %d, want 2", args, code)
		}
	}
}
