package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigCommand(t *testing.T) {
	code, out, _ := urim(t, "", "config", "check", "../../configs/tiny.yaml")
	if code != 0 || !strings.Contains(out, "tiny.yaml: ok") {
		t.Errorf("check: status %d, output %q", code, out)
	}
	code, out, _ = urim(t, "", "config", "print", "../../configs/tiny.yaml", "--set", "search.sims=9")
	if code != 0 || !strings.Contains(out, "  sims: 9\n") || !strings.Contains(out, "dirichlet_alpha: 0.5") {
		t.Errorf("print: status %d, output\n%s", code, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("search:\n  simz: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := urim(t, "", "config", "check", bad)
	if code != 1 || !strings.Contains(errs, "bad.yaml:2: search.simz: unknown key (known: sims,") {
		t.Errorf("bad key: status %d, stderr %q", code, errs)
	}
	code, _, errs = urim(t, "", "config", "check", "--set", "search.sims=x", "../../configs/tiny.yaml")
	if code != 1 || !strings.Contains(errs, `--set search.sims=x: want an integer, got "x"`) {
		t.Errorf("bad override: status %d, stderr %q", code, errs)
	}
	if code, _, _ = urim(t, "", "config", "show", "x.yaml"); code != 2 {
		t.Errorf("unknown subcommand: status %d, want 2", code)
	}
}

func TestTrainCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, out, errs := urim(t, "", "train", "--config", "../../configs/tiny.yaml", "--set", "output="+dir, "--set", "stop.iterations=1")
	if code != 0 || !strings.Contains(out, "1 iterations") || !strings.Contains(errs, "iter 1:") {
		t.Fatalf("train: status %d\n%s\n%s", code, out, errs)
	}
	// --resume DIR reads the run's own config (the directory spelled
	// differently); the stop condition may grow.
	code, out, errs = urim(t, "", "train", "--resume", dir+"/", "--set", "stop.iterations=2")
	if code != 0 || !strings.Contains(out, "2 iterations") || !strings.Contains(errs, "resuming") {
		t.Fatalf("resume: status %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = urim(t, "", "train", "--config", "../../configs/tiny.yaml", "--set", "output="+dir)
	if code != 1 || !strings.Contains(errs, "already holds a run") {
		t.Errorf("restart over a run: status %d, stderr %q", code, errs)
	}
	if code, _, _ = urim(t, "", "train"); code != 2 {
		t.Errorf("no config: status %d, want 2", code)
	}
}
