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
	for _, args := range [][]string{{"--games", "0"}, {"--games", "a,2"}, {"--sims", "0"}, {"--leaves", "2000"}} {
		if code, _, errs := runCLI(t, "", append([]string{"bench", "az"}, args...)...); code != 2 {
			t.Errorf("urim bench az %v: exit %d, %q; want a usage error", args, code, errs)
		}
	}
	if code, _, errs := runCLI(t, "", "bench", "az", "--ckpt", t.TempDir()+"/none.ckpt"); code != 1 || !strings.Contains(errs, "none.ckpt") {
		t.Errorf("missing --ckpt: exit %d, %q", code, errs)
	}
}
