package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTablebaseCommands builds a small table, probes it as text and JSON,
// and scores an agent against it.
func TestTablebaseCommands(t *testing.T) {
	path := filepath.Join(t.TempDir(), "urim5.tb")
	code, out, errs := runCLI(t, "", "tablebase", "build", "--rules", "urim", "--max-seeds", "5", "--out", path, "--quiet")
	if code != 0 {
		t.Fatalf("build: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "K=5") || !strings.Contains(out, "100.0%") {
		t.Fatalf("build output:\n%s", out)
	}
	pos := "0,0,1,0,0,2/0,0,2,0,0,0 15-16 S 60"
	code, out, errs = runCLI(t, "", "tablebase", "probe", path, pos)
	if code != 0 || !strings.Contains(out, "best (the table's move)") {
		t.Fatalf("probe: exit %d: %s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "", "tablebase", "probe", "--json", path, pos)
	var rep struct {
		Lower, Upper int
		Best         []int
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Best) == 0 {
		t.Fatalf("probe --json: exit %d: %s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "", "eval", "accuracy", "--agent", "greedy", "--tablebase", path, "--positions", "40", "--quiet")
	if code != 0 || !strings.Contains(out, "all") || !strings.Contains(out, "could not decide") {
		t.Fatalf("eval accuracy: exit %d: %s%s", code, out, errs)
	}
	// Issue 24: action 4 keeps the value by the child's fresh-history
	// bounds, but the opponent can steer back into this position.
	pos = "0,0,0,0,0,1/0,0,1,0,1,0 17-16 N 0"
	code, out, errs = runCLI(t, "", "tablebase", "probe", path, pos)
	if code != 0 || !strings.Contains(out, "2       3      3      0         best (the table's move)") ||
		!strings.Contains(out, "4       2      3      0         keeps the bound, may cycle") {
		t.Fatalf("probe of issue 24's position: exit %d: %s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "", "tablebase", "probe", "--json", path, pos)
	var cyc struct {
		Best  []int
		Move  int
		Moves []struct {
			Action       int
			Lower, Upper int
			TableLower   int `json:"table_lower"`
			Status       string
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &cyc) != nil || len(cyc.Best) != 1 || cyc.Best[0] != 2 || cyc.Move != 2 ||
		len(cyc.Moves) != 2 || cyc.Moves[0].Status != "best" || cyc.Moves[1].Status != "may-cycle" || cyc.Moves[1].TableLower != 3 {
		t.Fatalf("probe --json of issue 24's position: exit %d: %s%s", code, out, errs)
	}
	for _, args := range [][]string{
		{"tablebase"},
		{"tablebase", "build", "--max-seeds", "3"},
		{"tablebase", "probe", path},
		{"eval", "accuracy", "--agent", "greedy"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (usage)", args, code)
		}
	}
	if code, _, errs := runCLI(t, "", "tablebase", "probe", filepath.Join(t.TempDir(), "none.tb"), pos); code != 1 || !strings.Contains(errs, "none.tb") {
		t.Errorf("probe of a missing file: exit %d: %s", code, errs)
	}
}

// TestTablebaseBuildBadOutput: an --out that cannot be written, or a
// negative --workers, is refused before the build, not after it.
func TestTablebaseBuildBadOutput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ out, want string }{
		{filepath.Join(file, "t.tb"), "cannot write to " + file},
		{dir, dir + " is a directory"},
	} {
		code, out, errs := runCLI(t, "", "tablebase", "build", "--max-seeds", "3", "--out", c.out)
		if code != 1 || !strings.Contains(errs, c.want) || out != "" || strings.Contains(errs, "round") {
			t.Errorf("--out %s: exit %d, stdout %q, stderr %q; want %q before any round", c.out, code, out, errs, c.want)
		}
	}
	code, out, errs := runCLI(t, "", "tablebase", "build", "--max-seeds", "3", "--workers", "-1", "--out", filepath.Join(dir, "t.tb"))
	if code != 2 || !strings.Contains(errs, "--workers -1") || out != "" {
		t.Errorf("--workers -1: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestTablebaseBuildBestMoves: --best-moves stores the best moves, which
// the probe's JSON gives as stored_best; without it there are none.
func TestTablebaseBuildBestMoves(t *testing.T) {
	pos := "0,0,0,0,0,1/0,0,1,0,1,0 17-16 N 0"
	for _, best := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "urim4.tb")
		args := []string{"tablebase", "build", "--rules", "urim", "--max-seeds", "4", "--out", path, "--quiet"}
		if best {
			args = append(args, "--best-moves")
		}
		code, out, errs := runCLI(t, "", args...)
		if code != 0 || best != strings.Contains(out, "best moves") {
			t.Fatalf("build (best moves %v): exit %d: %s%s", best, code, out, errs)
		}
		code, out, errs = runCLI(t, "", "tablebase", "probe", "--json", path, pos)
		var rep struct {
			Best       []int
			StoredBest []int `json:"stored_best"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
			t.Fatalf("probe --json: exit %d: %s%s", code, out, errs)
		}
		if best != (len(rep.StoredBest) > 0) {
			t.Fatalf("best moves %v: stored_best %v", best, rep.StoredBest)
		}
		code, out, errs = runCLI(t, "", "eval", "accuracy", "--agent", "greedy", "--tablebase", path, "--positions", "20", "--min-seeds", "4", "--quiet")
		if code != 0 || !strings.Contains(out, "positions of 4 to 4 seeds") {
			t.Fatalf("eval accuracy --min-seeds 4: exit %d: %s%s", code, out, errs)
		}
		if code, _, _ = runCLI(t, "", "eval", "accuracy", "--agent", "greedy", "--tablebase", path, "--min-seeds", "0", "--quiet"); code == 0 {
			t.Fatal("--min-seeds 0 was accepted")
		}
	}
}
