package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"github.com/urim-rl/urim/env"
	"math"
	"os"
	"path/filepath"
	"slices"
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
		// "mcts:sims=2000000" would take minutes per game: the check must
		// come before the first move.
		code, out, errs := urim(t, "", "eval", "--agents", "random,mcts:sims=2000000", "--games", "2", flag, target, "--quiet")
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
	res, err := evaluate.RunTournament(t.Context(), evaluate.Config{Setup: evaluate.DefaultSetup(), Games: 2,
		Agents: evaluate.PlayersFromSpecs([]string{"random", "greedy"})})
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
	res, err := evaluate.RunTournament(ctx, evaluate.Config{Setup: evaluate.DefaultSetup(), Games: 2, Store: store,
		Agents: evaluate.PlayersFromSpecs([]string{"random", "greedy"})})
	if err == nil || res == nil {
		t.Fatalf("a cancelled run gave %v, %v", res, err)
	}
	var b bytes.Buffer
	code := interrupted(&stdio{err: &b}, "urim eval", res, store)
	if code != exitCode(130) || !strings.Contains(b.String(), "urim eval: interrupted after 0 finished games") ||
		!strings.Contains(b.String(), "saved in "+store+".\nurim eval: run the same command again to resume") {
		t.Errorf("%v: %s", code, b.String())
	}
	b.Reset()
	interrupted(&stdio{err: &b}, "urim eval", res, "")
	if !strings.Contains(b.String(), "nothing was saved") || !strings.Contains(b.String(), "--store FILE") {
		t.Errorf("without a store: %s", b.String())
	}
}

// TestFlagsAfterArguments: every command takes its flags before, between or
// after its arguments.
func TestFlagsAfterArguments(t *testing.T) {
	for _, args := range [][]string{
		{"rules", "urim7", "--json"},
		{"match", "random", "--games", "2", "greedy", "--quiet", "--json"},
		{"eval", "sprt", "greedy", "random", "--max-games", "2", "--quiet", "--json"},
		{"engine", "random", "--seed", "3"},
	} {
		code, out, errs := urim(t, "urim 1\nquit\n", args...)
		if code != 0 && !(args[0] == "eval" && code == 3) || out == "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	if code, _, errs := urim(t, "", "rules", "--", "--json"); code != 2 || !strings.Contains(errs, `"--json"`) {
		t.Errorf("after --, a flag is an argument: exit %d, %q", code, errs)
	}
}

// TestNonFiniteFlags: NaN and ±Inf pass every range check written as
// x < lo || x > hi, so they are refused where flags are read.
func TestNonFiniteFlags(t *testing.T) {
	for _, args := range [][]string{
		{"eval", "--agents", "random,greedy", "--anchor-elo", "NaN"},
		{"eval", "sprt", "--elo1", "+Inf", "random", "greedy"},
		{"bench", "mcts", "--c", "-Inf"},
	} {
		code, _, errs := urim(t, "", args...)
		if code != 2 || !strings.Contains(errs, "want a finite number") {
			t.Errorf("%q: exit %d, %q", args, code, errs)
		}
	}
}

// TestGamesMeaning: --games is a count of at least 1 everywhere; a negative
// one is not reported as odd; an absurd one is refused before any game is
// set up.
func TestGamesMeaning(t *testing.T) {
	for _, args := range [][]string{
		{"match", "random", "random", "--games", "0"},
		{"match", "random", "random", "--games", "-1"},
		{"eval", "--agents", "random,greedy", "--games", "0"},
		{"eval", "sprt", "random", "greedy", "--max-games", "0"},
	} {
		code, _, errs := urim(t, "", args...)
		if code != 2 || !strings.Contains(errs, "want at least 1 game per pairing") && !strings.Contains(errs, "--max-games 0: want 1 to") {
			t.Errorf("%q: exit %d, %q", args, code, errs)
		}
	}
	code, _, errs := urim(t, "", "match", "random", "random", "--games", "100000000")
	if code != 2 || !strings.Contains(errs, "at most 1000000 games") {
		t.Errorf("--games 1e8: exit %d, %q", code, errs)
	}
	// The library refuses it too, before it allocates the jobs.
	_, err := evaluate.RunTournament(t.Context(), evaluate.Config{Setup: evaluate.DefaultSetup(), Games: 600_000,
		Agents: evaluate.PlayersFromSpecs([]string{"random", "greedy", "alphabeta:depth=1"})})
	if err == nil || !strings.Contains(err.Error(), "over the limit of 1000000 games") {
		t.Errorf("3 pairings of 600000 games: %v", err)
	}
}

// TestBenchFlagsCheckedFirst: flags that used to fail after the run (a
// zero duration gives NaN rates JSON cannot hold), run for minutes (a
// thousand workers) or die out of memory (10^8 games) are refused up front.
func TestBenchFlagsCheckedFirst(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "engine", "--duration", "0s", "--json"}, "--duration 0s: want 10ms to 1h0m0s"},
		{[]string{"bench", "mcts", "--baseline", "0s", "--json"}, "--baseline 0s: want 10ms to"},
		{[]string{"bench", "alphabeta", "--baseline", "0s"}, "--baseline 0s: want 10ms to"},
		{[]string{"bench", "env", "--workers", "1000", "--duration", "100ms"}, "--workers 1000: want 1 to"},
		{[]string{"bench", "env", "--duration", "0s"}, "--duration 0s: want"},
		{[]string{"bench", "engine", "--threads", "1000"}, "--threads 1000: want 1 to"},
		{[]string{"bench", "env", "--n", "100000000"}, "--n 100000000: env: NewVec: 100000000 games need"},
	} {
		code, out, errs := urim(t, "", c.args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", c.args, code, out, errs)
		}
	}
	var b bytes.Buffer
	if err := benchJSON(&b, []float64{math.NaN()}); err == nil || !strings.Contains(err.Error(), "too short to measure") {
		t.Errorf("NaN in JSON: %v", err)
	}
}

// TestCustomRulesReplayLine: a game under custom rules (the example file,
// which has a name: key) prints a replay command that reproduces it; it
// used to print the base preset's name, and the command failed.
func TestCustomRulesReplayLine(t *testing.T) {
	file := filepath.Join("..", "..", "configs", "rules", "urim5.yaml")
	code, out, errs := urim(t, "", "demo", "--rules", file, "--south", "random", "--north", "greedy")
	if code != 0 {
		t.Fatalf("demo: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "urim5 rules") {
		t.Errorf("the demo does not name the custom rules:\n%.300s", out)
	}
	_, line, ok := strings.Cut(out, "Moves: urim ")
	if !ok {
		t.Fatalf("no replay line:\n%s", out)
	}
	args := strings.Fields(strings.TrimSpace(line))
	if len(args) < 5 || args[2] != file {
		t.Fatalf("replay line %q does not name %s", line, file)
	}
	code, replay, errs := urim(t, "", args...)
	if code != 0 || !strings.Contains(replay, `"terminal":true`) {
		t.Errorf("%q: exit %d: %s\n%.300s", args, code, errs, replay)
	}
	code, rules, errs := urim(t, "", "rules", file)
	if code != 0 || !strings.Contains(rules, "5") {
		t.Errorf("urim rules %s: exit %d: %s %s", file, code, errs, rules)
	}
}

// TestReplayReadsGamesCSV: the moves column of games.csv (space-separated)
// replays as it is, as do comma-separated lists.
func TestReplayReadsGamesCSV(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if code, _, errs := urim(t, "", "eval", "--agents", "random,greedy", "--games", "2", "--output", out, "--quiet"); code != 0 {
		t.Fatalf("eval: exit %d: %s", code, errs)
	}
	f, err := os.Open(filepath.Join(out, evaluate.ReportCSV))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("games.csv: %v, %d rows", err, len(rows))
	}
	col := slices.Index(rows[0], "moves")
	moves := rows[1][col]
	if !strings.Contains(moves, " ") {
		t.Fatalf("moves column %q is not space-separated: update this test", moves)
	}
	code, spaced, errs := urim(t, "", "replay", "--moves", moves)
	if code != 0 || !strings.Contains(spaced, `"terminal":true`) {
		t.Fatalf("replay --moves %q: exit %d: %s", moves, code, errs)
	}
	_, commas, _ := urim(t, "", "replay", "--moves", strings.ReplaceAll(moves, " ", ","))
	if commas != spaced {
		t.Errorf("spaces and commas replay differently")
	}
	if _, stdin, _ := urim(t, moves+"\n", "replay"); stdin != spaced {
		t.Errorf("a games.csv line on standard input replays differently")
	}
}

// TestReplayBadInput: --moves ” is an error rather than a silent read of
// standard input, and a huge bad token is not echoed in full.
func TestReplayBadInput(t *testing.T) {
	code, out, errs := urim(t, "0,1\n", "replay", "--moves", "")
	if code != 2 || out != "" || !strings.Contains(errs, "--moves is empty") {
		t.Errorf("--moves '': exit %d, stdout %q, stderr %q", code, out, errs)
	}
	huge := strings.Repeat("x", 10<<20)
	code, _, errs = urim(t, "", "replay", "--moves", "0,"+huge)
	if code != 1 || len(errs) > 1000 || !strings.Contains(errs, "(10485760 bytes)") {
		t.Errorf("10 MB token: exit %d, %d bytes of stderr: %.200q", code, len(errs), errs)
	}
}

// TestVersion: urim version and urim --version give the module version,
// the commit (or why there is none) and the rules version.
func TestVersion(t *testing.T) {
	want := fmt.Sprintf("rules version %d\n", env.RulesVersion)
	var first string
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errs := urim(t, "", args...)
		if code != 0 || !strings.HasPrefix(out, "urim ") || !strings.Contains(out, "\ncommit ") || !strings.Contains(out, want) {
			t.Errorf("%q: exit %d, %q, %q", args, code, out, errs)
		}
		if first == "" {
			first = out
		} else if out != first {
			t.Errorf("--version and version differ:\n%s\n%s", first, out)
		}
	}
}

// TestReadmeListsEveryCommand: the README's command list names every
// command and benchmark (bench alphabeta was missing, though its speed
// table used it), and tells a newcomer how to get urim on the PATH.
func TestReadmeListsEveryCommand(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	_, list, _ := strings.Cut(readme, "## The command")
	list, _, _ = strings.Cut(list, "## ")
	// A fixed list, not the command table: commands other branches add
	// bring their own README lines.
	for _, name := range []string{"rules", "replay", "play", "match", "eval", "engine", "bench", "version"} {
		if !strings.Contains(list, "urim "+name) {
			t.Errorf("the command list lacks urim %s", name)
		}
	}
	_, benchLine, _ := strings.Cut(list, "urim bench ")
	benchLine, _, _ = strings.Cut(benchLine, " ")
	for _, name := range []string{"engine", "env", "mcts", "alphabeta"} {
		if !slices.Contains(strings.Split(benchLine, "|"), name) {
			t.Errorf("the command list's bench line %q lacks %s", benchLine, name)
		}
	}
	for _, want := range []string{"go install ./cmd/urim", "urim --version", "minutes"} {
		if !strings.Contains(readme, want) {
			t.Errorf("the README lacks %q", want)
		}
	}
}

// TestErrorPrefixOnce: an error whose package shares the command's name is
// not prefixed twice ("urim train: train: ...").
func TestErrorPrefixOnce(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.yaml")
	for _, args := range [][]string{
		{"train", "--config", missing},
		{"dataset", "inspect", filepath.Dir(missing)},
	} {
		code, _, errs := urim(t, "", args...)
		name := args[0]
		if code != 1 || !strings.HasPrefix(errs, "urim "+name+": ") || strings.Contains(errs, name+": "+name+": ") {
			t.Errorf("%q: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestFlagsBeforeSubcommand: a flag given before a subcommand's name
// (urim eval --quiet accuracy ...) is an error naming it, not dropped.
func TestFlagsBeforeSubcommand(t *testing.T) {
	code, out, errs := urim(t, "", "eval", "--quiet", "sprt", "random", "greedy", "--max-games", "2")
	if code != 2 || out != "" || !strings.Contains(errs, `--quiet before "sprt"`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
