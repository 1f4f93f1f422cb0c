package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// playScript runs urim play with args, feeding script on standard input.
func playScript(t *testing.T, script string, args ...string) (code int, out, errs string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(append([]string{"play"}, args...), strings.NewReader(script), &o, &e)
	return code, o.String(), e.String()
}

func mustContain(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

func TestPlayDrawsTheBoard(t *testing.T) {
	code, out, errs := playScript(t, "", "--rules", "urim")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// North's row right to left on top, South's left to right below.
	mustContain(t, out,
		"           F    E    D    C    B    A\n",
		"North   |  3 |  3 |  3 |  3 |  3 |  3 |   store  0\n",
		"South   |  3 |  3 |  3 |  3 |  3 |  3 |   store  0   <- to move\n",
		"           a    b    c    d    e    f\n",
	)
}

// TestPlayTwoHumans plays a few moves for both sides, with bad input that
// must be refused with a reason and asked again, then quits.
func TestPlayTwoHumans(t *testing.T) {
	script := strings.Join([]string{
		"z",    // not a pit
		"7",    // out of range
		"c",    // South sows c: 3 seeds into d, e, f
		"help", // explains, then asks again
		"A",    // North's A: pit 6, 3 seeds into 7, 8, 9
		"c",    // South's c is empty now
		"2",    // the action number of c: still empty
		"d",    // fine
		"quit",
	}, "\n") + "\n"
	code, out, errs := playScript(t, script)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	mustContain(t, out,
		`"z" is not a move: type one of your pit letters (a-f) or an action number 0-5. Try again.`,
		`"7" is not a move`,
		"South plays c (3 seeds).",
		"Each turn, type one of your own pits",
		"North, your move [A B C D E F]: ",
		"North plays A (3 seeds).",
		"pit c is empty. Try again.",
		"South plays d (4 seeds).",
		"North quits at ply 3.",
		"Moves: urim replay --rules urim --moves 2,0,3\n",
	)
	// The board after c: South 3,3,0,4,4,4.
	mustContain(t, out, "South   |  3 |  3 |  0 |  4 |  4 |  4 |")
}

func TestPlayEndOfInputEndsCleanly(t *testing.T) {
	code, out, errs := playScript(t, "c\n", "--opponent", "human")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	mustContain(t, out, "End of input; game abandoned at ply 1.", "--moves 2\n")
}

// TestPlayToTheEnd plays the last move of a game from a position: f
// captures North's last seeds, North cannot move, South ends 19-17.
func TestPlayToTheEnd(t *testing.T) {
	pos := "1,1,1,1,0,1/1,0,0,0,0,0 13-17 S 20"
	code, out, errs := playScript(t, "f\n", "--position", pos)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	mustContain(t, out,
		"South plays f (1 seed) and captures 2.",
		"Game over after 21 plies: the player to move has no legal move.",
		"Final stores (each row added to its owner): South 19, North 17.",
		"South wins. Match points: South 1, North 0.",
		"--moves 5 --position '"+pos+"'",
	)
}

// TestPlayFeedingReason: North's row is empty, so South must sow into it;
// a (one seed into b) does not, f (two seeds) does.
func TestPlayFeedingReason(t *testing.T) {
	code, out, errs := playScript(t, "a\nf\n", "--position", "1,0,0,0,0,2/0,0,0,0,0,0 17-16 S 20")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	mustContain(t, out,
		"South, your move [f]: ",
		"pit a does not reach North's empty row, and you must give it seeds. Try again.",
		"South plays f (2 seeds).",
	)
}

// TestPlayAgainstAgent: the agent answers every move, is named in the
// output and, seeded, plays the same game twice.
func TestPlayAgainstAgent(t *testing.T) {
	script := "a\nb\nc\nd\ne\nf\na\nb\nc\nd\ne\nf\n"
	args := []string{"--opponent", "alphabeta:depth=3", "--seed", "7"}
	code, out, errs := playScript(t, script, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	mustContain(t, out,
		"You play South against alphabeta:depth=3 (seed 7).",
		"North (alphabeta:depth=3) plays ",
		"at depth 3.",
	)
	if _, again, _ := playScript(t, script, args...); again != out {
		t.Errorf("same seed, same script, different games:\n%s\n----\n%s", out, again)
	}
	// As North, the agent opens.
	_, out, _ = playScript(t, "", "--opponent", "greedy", "--side", "north", "--seed", "1")
	mustContain(t, out, "South (greedy) plays ", "North (you), your move [")
}

func TestPlayBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--side", "east", "--opponent", "random"}, `--side "east": want south, north or random`},
		{[]string{"--opponent", "grandmaster"}, `unknown agent "grandmaster"`},
		{[]string{"--opponent", "mcts:sims=abc"}, `sims="abc"`},
		{[]string{"--position", "3,3/3,3 0-0 S 0"}, "--position: env: bad position"},
		{[]string{"--rules", "chess"}, "--rules"},
		{[]string{"e2e4"}, "unexpected arguments"},
	} {
		code, _, errs := playScript(t, "", c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("play %q: exit %d, stderr %q; want exit 2 and %q", c.args, code, errs, c.want)
		}
	}
}

// TestPlayRefusesTheOtherRowsLetter: the letters on screen name pits, so
// South typing North's A (or North typing South's a) is refused with the
// pits the mover may play, and nothing is played.
func TestPlayRefusesTheOtherRowsLetter(t *testing.T) {
	code, out, errs := playScript(t, "A\nc\na\nB\nquit\n")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	mustContain(t, out,
		"A is North's pit; South plays its own pits a-f (legal now: a b c d e f). Try again.",
		"South plays c (3 seeds).",
		"a is South's pit; North plays its own pits A-F (legal now: A B C D E F). Try again.",
		"North plays B (3 seeds).",
		"Moves: urim replay --rules urim --moves 2,1\n",
	)
	if strings.Contains(out, "South plays a") {
		t.Errorf("South's a was played for North's A:\n%s", out)
	}
}

// TestPlaySearchValueNamesItsSide: an agent's value is its own, and the
// move line says whose it is.
func TestPlaySearchValueNamesItsSide(t *testing.T) {
	_, out, _ := playScript(t, "c\n", "--opponent", "mcts:sims=50", "--seed", "3")
	mustContain(t, out, "North (mcts:sims=50) plays ")
	if !regexp.MustCompile(`; value [+-]\d\.\d\d for North after 50 simulations\.`).MatchString(out) {
		t.Errorf("the agent's value does not say whose it is:\n%s", out)
	}
	_, out, _ = playScript(t, "", "--opponent", "alphabeta:depth=3", "--side", "north", "--seed", "3")
	if !regexp.MustCompile(`; value [+-]\d+ for South at depth 3\.`).MatchString(out) {
		t.Errorf("alpha-beta's value does not say whose it is:\n%s", out)
	}
}
