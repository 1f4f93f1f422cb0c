package agents

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzServe sends arbitrary lines to an engine: it must never panic, and it
// answers every command (a line that is neither blank nor a comment) with
// exactly one line, until quit.
func FuzzServe(f *testing.F) {
	f.Add("urim 1\nrules urim\nnewgame seed=3\nmoves 0 1 2\ngo\nshow\nquit\n")
	f.Add("rules pits_per_row=7 capacity=0 trigger=2,3 chain=\nposition 3,3,3,3,3,3/3,3,3,3,3,3 0-0 S 0\ngo\n")
	f.Add("moves 9\nposition nonsense\ngo sims=4\nrules oware max_plies=-1\n\n# note\n")
	f.Fuzz(func(t *testing.T, input string) {
		var out bytes.Buffer
		if err := Serve(strings.NewReader(input), &out, "random", 1); err != nil {
			return // an over-long line: reading fails, cleanly
		}
		commands := 0
		for _, line := range strings.Split(input, "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			commands++
			if f := strings.Fields(line); f[0] == "quit" {
				break
			}
		}
		if replies := strings.Count(out.String(), "\n"); replies != commands {
			t.Fatalf("%d commands, %d reply lines:\n%s", commands, replies, out.String())
		}
	})
}
