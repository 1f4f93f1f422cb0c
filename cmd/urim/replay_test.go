package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// runCLI runs the urim command with args and stdin, returning the exit
// status and both outputs.
func runCLI(t testing.TB, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errw bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errw)
	return code, out.String(), errw.String()
}

func TestReplayFields(t *testing.T) {
	code, out, errs := runCLI(t, "", "replay", "--rules", "urim", "--moves", "0,0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3 (start and two moves):\n%s", len(lines), out)
	}
	want := `{"game":0,"ply":0,"player":0,"pits":[3,3,3,3,3,3,3,3,3,3,3,3],"stores":[0,0],"legal":[0,1,2,3,4,5],"terminal":false}`
	if lines[0] != want {
		t.Errorf("start line\n got %s\nwant %s", lines[0], want)
	}
	want = `{"game":0,"ply":2,"player":0,"action":0,"pits":[0,4,4,4,3,3,0,4,4,4,3,3],"stores":[0,0],"legal":[1,2,3,4,5],"terminal":false}`
	if lines[2] != want {
		t.Errorf("ply 2\n got %s\nwant %s", lines[2], want)
	}
}

func TestReplayTerminalFields(t *testing.T) {
	// From a position where South's move 5 captures North's last seeds.
	code, out, errs := runCLI(t, "", "replay", "--moves", "5", "--position", "0,0,0,0,0,2/1,1,0,0,0,0 16-16 S 0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var last map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatal(err)
	}
	if last["terminal"] != true || last["reason"] != "no_legal_move" || last["winner"] != 0.0 ||
		last["match_points"].([]any)[0] != 1.0 || last["stores"].([]any)[0] != 20.0 {
		t.Fatalf("terminal line %s", lines[len(lines)-1])
	}
}

func TestReplayStdinAndErrors(t *testing.T) {
	code, out, errs := runCLI(t, "0,1\n\n5,7\n", "replay")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if n := strings.Count(out, "\n"); n != 3+2 {
		t.Errorf("%d lines before the error, want 5 (game 0: 3, game 2: 2):\n%s", n, out)
	}
	if !strings.Contains(errs, "game 2, ply 1, action 7") || !strings.Contains(errs, "out of range") {
		t.Errorf("error %q does not name game 2, ply 1, action 7", errs)
	}
	for _, c := range []struct{ moves, want string }{
		{"0,x", `game 0, ply 1: action "x" is not a number`},
		{"0,0", ""},
		{"3,3,3", "pit is empty"},
	} {
		code, _, errs := runCLI(t, "", "replay", "--moves", c.moves)
		if (c.want == "") != (code == 0) || !strings.Contains(errs, c.want) {
			t.Errorf("--moves %s: exit %d, stderr %q, want %q", c.moves, code, errs, c.want)
		}
	}
	code, _, errs = runCLI(t, "", "replay", "--moves", "5", "--position", "1,0,0,0,0,0/0,0,0,0,0,0 18-17 S 0")
	if code != 1 || !strings.Contains(errs, "game is over") {
		t.Errorf("move after the end: exit %d, %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "replay", "--rules", "mancala")
	if code != 2 || !strings.Contains(errs, "unknown rules preset") {
		t.Errorf("unknown preset: exit %d, %q", code, errs)
	}
}

// FuzzReplay: whatever arrives on standard input, replay answers with an exit
// status and never panics.
func FuzzReplay(f *testing.F) {
	f.Add("0,1,2,3\n")
	f.Add("5,5,5\n0,,1\n")
	f.Add("-1\n99999999999999999999\n")
	f.Fuzz(func(t *testing.T, input string) {
		code, _, _ := runCLI(t, input, "replay", "--rules", "urim")
		if code != 0 && code != 1 {
			t.Fatalf("exit %d", code)
		}
	})
}

func TestHelpEverywhere(t *testing.T) {
	for name := range commands {
		code, out, _ := runCLI(t, "", name, "--help")
		if code != 0 || !strings.Contains(out, "Usage: urim "+name) || !strings.Contains(out, "Example") {
			t.Errorf("urim %s --help: exit %d, output without usage or examples:\n%s", name, code, out)
		}
	}
	for name := range benchCommands {
		code, out, _ := runCLI(t, "", "bench", name, "--help")
		if code != 0 || !strings.Contains(out, "Example") {
			t.Errorf("urim bench %s --help: exit %d:\n%s", name, code, out)
		}
	}
	if code, _, errs := runCLI(t, "", "frobnicate"); code != 2 || !strings.Contains(errs, "unknown command") {
		t.Errorf("unknown command: exit %d, %q", code, errs)
	}
}
