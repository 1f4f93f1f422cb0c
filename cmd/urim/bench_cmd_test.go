package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBenchCommands runs every benchmark command briefly and checks that its
// JSON has a positive rate per row; the figures themselves are not judged.
func TestBenchCommands(t *testing.T) {
	cases := []struct {
		args []string
		rate string
	}{
		{[]string{"engine", "--rules", "urim,oware", "--duration", "20ms"}, "moves_per_sec_per_core"},
		{[]string{"mcts", "--rules", "urim", "--moves", "4", "--sims", "50", "--baseline", "20ms", "--quiet"}, "sims_per_sec_per_core"},
		{[]string{"alphabeta", "--rules", "urim", "--positions", "2", "--depth", "4", "--baseline", "20ms", "--quiet"}, "nodes_per_sec"},
		{[]string{"env", "--rules", "urim", "--n", "64", "--workers", "1,2", "--steps", "20", "--quiet"}, "steps_per_sec"},
	}
	for _, c := range cases {
		args := append([]string{"bench"}, append(c.args, "--json")...)
		code, out, errs := runCLI(t, "", args...)
		if code != 0 {
			t.Fatalf("urim %s: exit %d: %s", strings.Join(args, " "), code, errs)
		}
		var rows []map[string]any
		if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) == 0 {
			t.Fatalf("urim %s: %v, output %q", strings.Join(args, " "), err, out)
		}
		for _, r := range rows {
			if v, ok := r[c.rate].(float64); !ok || v <= 0 {
				t.Errorf("urim %s: %s = %v in %v", strings.Join(args, " "), c.rate, r[c.rate], r)
			}
		}
	}
	if code, _, errs := runCLI(t, "", "bench", "engine", "--rules", "mancala"); code != 2 || !strings.Contains(errs, "unknown rules preset") {
		t.Errorf("bad --rules: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(t, "", "bench", "nope"); code != 2 || !strings.Contains(errs, "unknown benchmark") {
		t.Errorf("unknown benchmark: exit %d, %q", code, errs)
	}
}

// TestBenchEngineQuiet: bench engine takes --quiet like every other
// benchmark, and then writes nothing to standard error.
func TestBenchEngineQuiet(t *testing.T) {
	code, out, errs := runCLI(t, "", "bench", "engine", "--rules", "urim", "--duration", "20ms", "--quiet")
	if code != 0 || errs != "" || !strings.Contains(out, "urim") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestBenchHelpListsBenchmarks: urim bench --help names every benchmark
// with its one-line description.
func TestBenchHelpListsBenchmarks(t *testing.T) {
	code, out, _ := runCLI(t, "", "bench", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, n := range benchNames() {
		if !strings.Contains(out, "  "+n+" ") || !strings.Contains(out, benchCommands[n].short) {
			t.Errorf("urim bench --help does not list %s:\n%s", n, out)
		}
	}
}
