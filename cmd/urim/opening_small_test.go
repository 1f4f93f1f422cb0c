package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpeningLongerThanAnyGame: on a 2×2 board of 1 seed no game outlasts
// 7 plies; an opening of 8 is refused with a clear error, never a panic, by
// match, eval, selfplay and both training algorithms (issue 34, N12).
func TestOpeningLongerThanAnyGame(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "tiny.yaml")
	if err := os.WriteFile(rules, []byte("preset: urim\nname: tiny\npits_per_row: 2\nseeds_per_pit: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := func(name string) string { return filepath.Join(dir, name) }
	for _, args := range [][]string{
		{"match", "random", "random", "--rules", rules, "--games", "2", "--openings", "8", "--quiet"},
		{"eval", "--agents", "random,greedy", "--rules", rules, "--games", "2", "--openings", "8", "--out", out("eval"), "--quiet"},
		{"selfplay", "--agent", "random", "--rules", rules, "--games", "2", "--openings", "8", "--out", out("selfplay")},
		{"train", "--config", "../../configs/quickstart.yaml", "--set", "rules_file=" + rules, "--set", "selfplay.opening_plies=8",
			"--set", "output=" + out("az")},
		{"train", "--config", "../../configs/quickstart.yaml", "--set", "rules_file=" + rules, "--set", "evaluation.opening_plies=8",
			"--set", "output=" + out("az-eval")},
		{"train", "--config", "../../configs/ppo-quickstart.yaml", "--set", "rules_file=" + rules, "--set", "ppo.opening_plies=8",
			"--set", "output=" + out("ppo")},
	} {
		code, _, errs := urim(t, "", args...)
		if code == 0 || !strings.Contains(errs, "no opening of 8 random plies leaves a game of tiny running") || strings.Contains(errs, "panic") {
			t.Errorf("urim %s: exit %d, stderr %s", strings.Join(args, " "), code, errs)
		}
	}
}
