package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/evaluate"
)

// TestEvalUnwritableOutFailsBeforePlaying: --out under a regular file cannot
// be created; the run must say so before playing, not after every game.
func TestEvalUnwritableOutFailsBeforePlaying(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, flag := range []string{"--out", "--store"} {
		target := filepath.Join(file, "sub")
		if flag == "--store" {
			target = filepath.Join(file, "sub", "games.jsonl")
		}
		// "mcts:sims=100000000" would take hours per game: the check must
		// come before the first move.
		code, out, errs := urim(t, "", "eval", "--agents", "random,mcts:sims=100000000", "--games", "2", flag, target, "--quiet")
		if code != 1 || !strings.Contains(errs, "cannot write to "+filepath.Join(file, "sub")) || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", flag, code, out, errs)
		}
	}
}

// TestSaveReportsFallsBack: when the output directory cannot be written
// after the games, the results go to a temporary directory instead.
func TestSaveReportsFallsBack(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	res, err := evaluate.RunTournament(t.Context(), evaluate.Config{Rules: "urim", Games: 2, Seed: 1, Paired: true,
		Agents: evaluate.PlayersFromSpecs([]string{"random", "cmdtest-first"})})
	if err != nil {
		t.Fatal(err)
	}
	paths, fallback, err := evaluate.SaveReports(filepath.Join(file, "out"), res)
	if err == nil || fallback == "" {
		t.Fatalf("fallback %q, error %v", fallback, err)
	}
	defer os.RemoveAll(fallback)
	if _, serr := os.Stat(filepath.Join(fallback, evaluate.ReportCSV)); serr != nil || len(paths) == 0 {
		t.Errorf("nothing in %s: %v (paths %v)", fallback, serr, paths)
	}
}

// TestInterruptedMessage: Ctrl-C reads as an interruption that says what was
// saved and how to resume, not as a failed game.
func TestInterruptedMessage(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel() // Ctrl-C before the first game ends
	store := filepath.Join(t.TempDir(), "games.jsonl")
	res, err := evaluate.RunTournament(ctx, evaluate.Config{Rules: "urim", Games: 2, Seed: 1, Paired: true, Store: store,
		Agents: evaluate.PlayersFromSpecs([]string{"random", "cmdtest-first"})})
	if err == nil || res == nil {
		t.Fatalf("a cancelled run gave %v, %v", res, err)
	}
	var b bytes.Buffer
	code := interrupted(&stdio{err: &b}, "urim eval", res, store)
	if code != exitCode(130) || !strings.Contains(b.String(), "urim eval: interrupted after 0 finished games") ||
		!strings.Contains(b.String(), "saved in "+store+"; run the same command again to resume") {
		t.Errorf("%v: %s", code, b.String())
	}
	b.Reset()
	interrupted(&stdio{err: &b}, "urim eval", res, "")
	if !strings.Contains(b.String(), "nothing was saved") || !strings.Contains(b.String(), "--store FILE") {
		t.Errorf("without a store: %s", b.String())
	}
}
