package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBenchAZ runs urim bench az briefly and checks its JSON; bad flags are
// usage errors.
func TestBenchAZ(t *testing.T) {
	code, out, errs := runCLI(t, "", "bench", "az", "--games", "2,3", "--sims", "4", "--moves", "1", "--rules", "oware", "--quiet", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("%v, output %q", err, out)
	}
	for _, r := range rows {
		if v, ok := r["sims_per_sec"].(float64); !ok || v <= 0 || r["rules"] != "oware" {
			t.Errorf("row %v", r)
		}
		if v, ok := r["net_share"].(float64); !ok || v <= 0 || v >= 1 {
			t.Errorf("net_share %v", r["net_share"])
		}
	}
	for _, args := range [][]string{{"--games", "0"}, {"--games", "a,2"}, {"--sims", "-1"}, {"--leaves", "2000"}} {
		if code, _, errs := runCLI(t, "", append([]string{"bench", "az"}, args...)...); code != 2 {
			t.Errorf("urim bench az %v: exit %d, %q; want a usage error", args, code, errs)
		}
	}
	// By default it measures configs/urim.yaml's self-play: its network,
	// simulations and leaf batch.
	code, out, errs = runCLI(t, "", "bench", "az", "--games", "2", "--moves", "1", "--quiet", "--json")
	if code != 0 || !strings.Contains(out, `"arch": "resmlp 3x128+ln"`) || !strings.Contains(out, `"sims_per_move": 32`) || !strings.Contains(out, `"leaves_per_round": 8`) {
		t.Errorf("urim bench az on the default config: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runCLI(t, "", "bench", "az", "--ckpt", t.TempDir()+"/none.ckpt"); code != 1 || !strings.Contains(errs, "none.ckpt") {
		t.Errorf("missing --ckpt: exit %d, %q", code, errs)
	}
}

// TestBenchAZRulesAndCkpt: --rules that disagrees with the checkpoint's is
// an error, not silently ignored; the checkpoint's own rules are fine.
func TestBenchAZRulesAndCkpt(t *testing.T) {
	ckpt := t.TempDir() + "/oware.ckpt"
	if code, _, errs := runCLI(t, "", "nn", "new", "--rules", "oware", "--width", "8", "--depth", "1", "--out", ckpt); code != 0 {
		t.Fatalf("nn new: exit %d: %s", code, errs)
	}
	code, out, errs := runCLI(t, "", "bench", "az", "--ckpt", ckpt, "--rules", "urim", "--games", "2", "--sims", "2", "--moves", "1", "--quiet")
	if code == 0 || !strings.Contains(errs, "oware") || out != "" {
		t.Errorf("--rules urim with an oware checkpoint: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = runCLI(t, "", "bench", "az", "--ckpt", ckpt, "--rules", "oware", "--games", "2", "--sims", "2", "--moves", "1", "--quiet")
	if code != 0 || !strings.Contains(out, "oware") {
		t.Errorf("--rules oware with an oware checkpoint: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
