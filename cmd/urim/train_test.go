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
	if code != 0 || !strings.Contains(out, "1 iteration;") || !strings.Contains(errs, "iter 1:") {
		t.Fatalf("train: status %d\n%s\n%s", code, out, errs)
	}
	// The last line suggests the next command, runnable as printed.
	next := "next: urim match --games 100 az:ckpt=" + filepath.Join(dir, "checkpoints")
	if !strings.Contains(out, next) || !strings.Contains(out, "urim play --opponent az:ckpt=") {
		t.Errorf("no next command %q:\n%s", next, out)
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
	// Without --config: the built-in quickstart config, here cut to one
	// small iteration.
	builtin := filepath.Join(t.TempDir(), "builtin")
	code, out, errs = urim(t, "", "train", "--set", "output="+builtin, "--set", "stop.iterations=1",
		"--set", "selfplay.games_per_iteration=2", "--set", "selfplay.parallel_games=2", "--set", "search.sims=4",
		"--set", "evaluation.games=2", "--set", "evaluation.sims=4")
	if code != 0 || !strings.Contains(out, "1 iteration;") {
		t.Fatalf("built-in config: status %d\n%s\n%s", code, out, errs)
	}
	if data, err := os.ReadFile(filepath.Join(builtin, "config.yaml")); err != nil || !strings.Contains(string(data), "width: 64") {
		t.Errorf("built-in config: the run's config.yaml is not the quickstart's (%v):\n%s", err, data)
	}
}

// TestTrainShortcutFlags: --rules, --seed, --workers and --out work on
// train as on the other commands, as short forms of --set.
func TestTrainShortcutFlags(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run dir")
	code, out, errs := urim(t, "", "train", "--config", "../../configs/tiny.yaml", "--set", "stop.iterations=1",
		"--rules", "urim", "--seed", "7", "--workers", "1", "--out", dir, "--quiet")
	if code != 0 || !strings.Contains(out, dir+": 1 iteration;") {
		t.Fatalf("train: status %d\n%s\n%s", code, out, errs)
	}
	cfg, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nrules: urim\n", "\nseed: 7\n", "\nworkers: 1\n", "rules_file: \"\"\n"} {
		if !strings.Contains(string(cfg), want) {
			t.Errorf("config.yaml lacks %q:\n%s", want, cfg)
		}
	}
	code, _, errs = urim(t, "", "train", "--config", "../../configs/tiny.yaml", "--rules", "chess")
	if code != 2 || !strings.Contains(errs, `unknown rules preset "chess"`) {
		t.Errorf("--rules chess: status %d, %q", code, errs)
	}
}
