package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// urim runs the command line with stdin and returns the exit status and
// both outputs.
func urim(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errw bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errw)
	return code, out.String(), errw.String()
}

func TestMatchJSON(t *testing.T) {
	code, out, errs := urim(t, "", "match", "--games", "6", "--json", "greedy", "random", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var sum struct {
		A, B  string
		Stats struct {
			Games, Wins, Draws, Losses int
			MPRates                    []float64 `json:"mp_rates"`
		}
		Elo *float64 `json:"elo_diff"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	st := sum.Stats
	if sum.A != "greedy" || st.Games != 6 || st.Wins+st.Draws+st.Losses != 6 || len(st.MPRates) != 5 {
		t.Errorf("summary %+v", sum)
	}
	if errs != "" {
		t.Errorf("--quiet still wrote %q", errs)
	}
}

func TestMatchTableAndProgress(t *testing.T) {
	code, out, errs := urim(t, "", "match", "random", "random", "--games", "4", "--openings", "0", "--paired=false")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"random#1 vs random#2 on urim: 4 games, from the start position", "agent ", "match points, random#1's minus random#2's: +2:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Off a terminal, progress is a plain line every 15 seconds: none here.
	if errs != "" {
		t.Errorf("a short match off a terminal wrote progress: %q", errs)
	}
}

func TestMatchUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"match", "random"}, 2, "want two agents"},
		{[]string{"match", "--games", "5", "random", "random"}, 2, "--games 5 is odd"},
		{[]string{"match", "random", "nosuch", "--quiet"}, 1, `unknown agent "nosuch"`},
		{[]string{"match", "random", "random", "--rules", "urim9"}, 1, `unknown rules preset "urim9"`},
	} {
		code, _, errs := urim(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}

// TestMatchPerfectScoreFinite: a match won 20-0 prints a finite Elo
// difference and interval (urim eval's fit, with its virtual draw), not +inf.
func TestMatchPerfectScoreFinite(t *testing.T) {
	code, out, errs := urim(t, "", "match", "--games", "20", "--quiet", "alphabeta:depth=4", "random")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "100.0%") {
		t.Fatalf("not a perfect score (the games depend only on the seed):\n%s", out)
	}
	if strings.Contains(out, "inf") || !strings.Contains(out, "virtual draw") {
		t.Errorf("a perfect score printed an infinite Elo or no note:\n%s", out)
	}
	code, out, _ = urim(t, "", "match", "--games", "20", "--quiet", "--json", "random", "alphabeta:depth=4")
	var sum struct {
		Elo, Lo, Hi *float64
		Fit         bool `json:"elo_from_fit"`
	}
	if err := json.Unmarshal([]byte(strings.NewReplacer(`"elo_diff"`, `"elo"`, `"elo_lo95"`, `"lo"`, `"elo_hi95"`, `"hi"`).Replace(out)), &sum); code != 0 || err != nil {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if sum.Elo == nil || sum.Lo == nil || sum.Hi == nil || !sum.Fit || *sum.Elo >= 0 || !(*sum.Lo < *sum.Elo && *sum.Elo < *sum.Hi) {
		t.Errorf("zero score: elo %v [%v, %v], fit %v; want finite, negative, inside its interval", sum.Elo, sum.Lo, sum.Hi, sum.Fit)
	}
}
