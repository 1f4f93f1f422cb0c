package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEvalAgentsStoreAndReports(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "games.jsonl")
	out := filepath.Join(dir, "out")
	code, md, errs := urim(t, "", "eval", "--agents", "random,cmdtest-first", "--games", "4", "--store", store, "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"# Tournament: round_robin on urim", "| random | cmdtest-first | 4 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	for _, f := range []string{"report.md", "results.json", "games.csv", "ratings.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	// Adding an agent reuses the 4 stored games.
	code, _, errs = urim(t, "", "eval", "--agents", "random,cmdtest-first,cmdtest-capture", "--games", "4", "--store", store, "--quiet")
	if code != 0 || !strings.Contains(errs, "reused 4 stored games, played 8") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestEvalConfigWithOverrides(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "t.yaml")
	os.WriteFile(cfg, []byte("agents:\n  - random\n  - cmdtest-first\ngames: 100\nformat: gauntlet\nseed: 4\n"), 0o644)
	code, out, errs := urim(t, "", "eval", "--config", cfg, "--games", "2", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"games": 2,`) || !strings.Contains(out, `"format": "gauntlet"`) || !strings.Contains(out, `"seed": 4,`) {
		t.Errorf("the override or the config did not apply:\n%s", out)
	}
	os.WriteFile(cfg, []byte("agents:\n  - random\n  - cmdtest-first\ngamess: 100\n"), 0o644)
	code, _, errs = urim(t, "", "eval", "--config", cfg)
	if code != 1 || !strings.Contains(errs, cfg+":4: gamess: unknown key") {
		t.Errorf("typo in the config: exit %d, %q", code, errs)
	}
	for _, args := range [][]string{{"eval"}, {"eval", "--config", cfg, "--agents", "random"}, {"eval", "extra"}} {
		if code, _, _ := urim(t, "", args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

func TestEvalSPRT(t *testing.T) {
	code, out, errs := urim(t, "", "eval", "sprt", "--elo1", "50", "cmdtest-capture", "random", "--quiet")
	if code != 0 || !strings.Contains(out, "H1 accepted: cmdtest-capture is stronger than random") {
		t.Errorf("exit %d, out %q, err %q", code, out, errs)
	}
	code, out, _ = urim(t, "", "eval", "sprt", "--gate", "--elo1", "100", "--quiet", "random", "random")
	if code != 3 || !strings.Contains(out, "H0 accepted") {
		t.Errorf("--gate with random against itself: exit %d, %q", code, out)
	}
	if code, _, errs := urim(t, "", "eval", "sprt", "--elo1", "-5", "random", "greedy"); code != 2 || !strings.Contains(errs, "elo1") {
		t.Errorf("bad bounds: exit %d, %q", code, errs)
	}
}
