package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestProgressIsPlainOffATerminal: every long command reports progress the
// same way: off a terminal (a test's buffer, a log, CI) no bar is drawn (no
// carriage returns, no bar characters), and --quiet reports nothing.
func TestProgressIsPlainOffATerminal(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	for _, args := range [][]string{
		{"match", "random", "greedy", "--games", "4"},
		{"eval", "--agents", "random,greedy", "--games", "2"},
		{"eval", "sprt", "random", "greedy", "--max-games", "4"},
		{"selfplay", "--agent", "random", "--games", "4", "--out", data},
		{"dataset", "verify", data},
		{"tablebase", "build", "--rules", "urim", "--max-seeds", "3", "--out", filepath.Join(dir, "k3.tb")},
		{"bench", "engine", "--rules", "urim", "--duration", "50ms"},
		{"bench", "mcts", "--moves", "2", "--sims", "20"},
	} {
		code, _, errs := urim(t, "", args...)
		if code != 0 && !(args[0] == "eval" && args[1] == "sprt") {
			t.Errorf("urim %s: exit %d: %s", strings.Join(args, " "), code, errs)
			continue
		}
		if strings.ContainsAny(errs, "\r█|") {
			t.Errorf("urim %s drew a bar off a terminal:\n%q", strings.Join(args, " "), errs)
		}
	}
	code, _, errs := urim(t, "", "selfplay", "--agent", "random", "--games", "2", "--out", filepath.Join(dir, "q"), "--quiet")
	if code != 0 || errs != "" {
		t.Errorf("selfplay --quiet: exit %d, stderr %q", code, errs)
	}
}

// TestCountsArePluralisedRight: "1 shard", not "1 shards".
func TestCountsArePluralisedRight(t *testing.T) {
	data := filepath.Join(t.TempDir(), "one")
	code, out, errs := urim(t, "", "selfplay", "--agent", "random", "--games", "1", "--out", data, "--workers", "1", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "1 game, ") || !strings.Contains(out, "in 1 shard,") || !strings.Contains(out, "with 1 worker;") {
		t.Errorf("selfplay of one game:\n%s", out)
	}
	_, out, _ = urim(t, "", "dataset", "verify", "--quiet", data)
	if !strings.Contains(out, ": 1 shard, 1 game, ") {
		t.Errorf("verify of one game:\n%s", out)
	}
}
