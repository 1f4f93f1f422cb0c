package classic_test

import (
	"strings"
	"testing"
)

// TestServeOverLongLine sends a command longer than the protocol's limit
// (docs/protocol.md): it gets an error reply and the session goes on, where
// a bufio.Scanner would stop with "token too long" and no reply.
func TestServeOverLongLine(t *testing.T) {
	long := "position " + strings.Repeat("3,", 9<<20) // 18 MB, over the 1 MiB limit
	comment := "# " + strings.Repeat("x", 2<<20)      // a long comment still gets no reply
	got := serve(t, "random", "urim 1\n"+long+"\n"+comment+"\nshow\n"+long)
	want := []string{"ok urim 1 random", "error line longer than *", "ok 3,3,3,3,3,3/3,3,3,3,3,3 0-0 S 0", "error line longer than *"}
	checkReplies(t, got, want)
}

// TestServeRepeatedAndNonFinite refuses a parameter given twice and numbers
// that are not finite, which pass every range check written as f < lo || f > hi.
func TestServeRepeatedAndNonFinite(t *testing.T) {
	got := serve(t, "mcts:sims=2", "go sims=10 sims=20\nnewgame seed=1 seed=2\nrules urim7 max_plies=9 max_plies=10\n"+
		"go c=NaN\ngo c=+Inf\ngo c=-inf\ngo c=0.5\nnewgame seed=18446744073709551615\nnewgame seed=18446744073709551616\n")
	want := []string{
		"error go: option sims given twice",
		"error newgame: want at most one seed=N, *",
		"error rules: max_plies given twice",
		`error go: agents: bad spec "mcts:c=NaN,sims=2": c="NaN": want a number from 0 to 100`,
		`error go: agents: bad spec "mcts:c=+Inf,sims=2": c="+Inf": want a number from 0 to 100`,
		`error go: agents: bad spec "mcts:c=-inf,sims=2": c="-inf": want a number from 0 to 100`,
		"bestmove *",
		"ok", // the largest seed
		`error newgame: seed "18446744073709551616" is not a whole number from 0 to 18446744073709551615`,
	}
	checkReplies(t, got, want)
}

// checkReplies compares reply lines with wanted ones; a want ending in "*"
// is a prefix.
func checkReplies(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d replies, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		w, prefix := strings.CutSuffix(want[i], "*")
		if got[i] != want[i] && !(prefix && strings.HasPrefix(got[i], w)) {
			t.Errorf("reply %d: %.200q, want %q", i+1, got[i], want[i])
		}
	}
}
