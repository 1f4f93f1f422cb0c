package classic

import (
	"bytes"
	"strings"
	"testing"
)

// fuzzLineLimit is the line limit of the fuzzed sessions: short, so that the
// fuzzer's inputs reach it (the real limit, MaxLineBytes, is 1 MiB).
const fuzzLineLimit = 40

// FuzzServe sends arbitrary lines to an engine: it must never panic or stop
// early, and it answers every command (a line that is neither blank nor a
// comment) with exactly one line, until quit; a line over the limit gets an
// error. Seeds cover non-finite numbers and repeated parameters.
func FuzzServe(f *testing.F) {
	f.Add("urim 1\nrules urim\nnewgame seed=3\nmoves 0 1 2\ngo\nshow\nquit\n")
	f.Add("rules pits_per_row=7 capacity=0 trigger=2,3 chain=\nposition 3,3,3,3,3,3/3,3,3,3,3,3 0-0 S 0\ngo\n")
	f.Add("moves 9\nposition nonsense\ngo sims=4\nrules oware max_plies=-1\n\n# note\n")
	f.Add("go c=NaN\ngo c=Inf\ngo c=-Inf\ngo time=NaN\nnewgame seed=NaN\nrules max_plies=Inf\ngo c=1e400\n")
	f.Add("go c=1 c=2\nnewgame seed=1 seed=1\nrules urim capacity=1 capacity=1\n")
	f.Add("position " + strings.Repeat("3,", 40) + "\n# " + strings.Repeat("#", 50) + "\n" + strings.Repeat(" ", 60) + "show\nshow")
	f.Fuzz(func(t *testing.T, input string) {
		var out bytes.Buffer
		if err := serve(strings.NewReader(input), &out, "random", 1, fuzzLineLimit); err != nil {
			t.Fatalf("the session stopped: %v", err)
		}
		var want []bool // per command: whether its line is over the limit
		for _, line := range strings.SplitAfter(input, "\n") {
			body := strings.TrimRight(line, "\r\n")
			if body == "" && line == "" {
				continue
			}
			trimmed := strings.TrimSpace(body)
			if trimmed == "" || strings.HasPrefix(trimmed, "#") {
				continue
			}
			want = append(want, len(body) > fuzzLineLimit)
			if len(body) <= fuzzLineLimit && strings.Fields(trimmed)[0] == "quit" {
				break
			}
		}
		replies := strings.SplitAfter(out.String(), "\n")
		if n := len(replies); n > 0 && replies[n-1] == "" {
			replies = replies[:n-1]
		}
		if len(replies) != len(want) {
			t.Fatalf("%d commands, %d reply lines:\n%s", len(want), len(replies), out.String())
		}
		for i, r := range replies {
			if !strings.HasSuffix(r, "\n") || strings.Count(r, "\n") != 1 {
				t.Fatalf("reply %d is not one line: %q", i+1, r)
			}
			if tooLong := strings.HasPrefix(r, "error line longer than"); tooLong != want[i] {
				t.Fatalf("reply %d %q; over the limit: %v", i+1, r, want[i])
			}
			if strings.Contains(r, "NaN") && !strings.HasPrefix(r, "error") {
				t.Fatalf("reply %d accepts NaN: %q", i+1, r)
			}
		}
	})
}
