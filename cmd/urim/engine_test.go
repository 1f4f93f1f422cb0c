package main

import (
	"strings"
	"testing"
)

func TestEngineServes(t *testing.T) {
	code, out, errs := urim(t, "urim 1\nrules oware\nnewgame seed=2\nmoves 0\ngo\nmoves 9\nquit\n", "engine", "random")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 || lines[0] != "ok urim 1 random" || !strings.HasPrefix(lines[4], "bestmove ") ||
		!strings.HasPrefix(lines[5], "error moves: move 1: env: illegal action 9") || lines[6] != "ok bye" {
		t.Errorf("replies:\n%s", out)
	}
	if code, _, errs := urim(t, "", "engine", "nosuch"); code != 2 || !strings.Contains(errs, "unknown agent") {
		t.Errorf("unknown agent: exit %d, %q", code, errs)
	}
}
