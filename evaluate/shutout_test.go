package evaluate

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// shutoutResult builds a summarised result from hand-made games: wins[k] of
// pairing k go to its first agent, the rest to the second.
func shutoutResult(t *testing.T, names []string, pairs [][2]int, games int, wins []int) *Result {
	t.Helper()
	res := &Result{Config: Config{Agents: PlayersFromSpecs(names), Games: games, Format: RoundRobin}, Players: names}
	for k, p := range pairs {
		for g := range games {
			rec := Record{Players: [2]string{names[p[0]], names[p[1]]}, Stores: [2]int{30, 6}, Index: g}
			if g >= wins[k] {
				rec.Stores = [2]int{6, 30}
			}
			res.Games = append(res.Games, rec)
		}
	}
	if err := res.summarize(); err != nil {
		t.Fatal(err)
	}
	return res
}

// TestShutoutPullIsReported: a 60-0 pairing's gap rests on the virtual draw;
// the report says so and how much it pulls.
func TestShutoutPullIsReported(t *testing.T) {
	// Two agents alone: the fit's gap is exactly 400·log10(2n+1).
	res := shutoutResult(t, []string{"random", "greedy"}, [][2]int{{0, 1}}, 60, []int{0})
	so := res.Shutouts()
	if len(so) != 1 || so[0].Winner != "greedy" || so[0].Games != 60 {
		t.Fatalf("shutouts %+v", so)
	}
	want := 400 * math.Log10(121) // 833.1
	if math.Abs(so[0].Gap-want) > 0.5 || math.Abs(so[0].AloneGap-want) > 1e-9 {
		t.Errorf("gap %.1f, alone %.1f, want %.1f", so[0].Gap, so[0].AloneGap, want)
	}
	// Half the virtual draws: 400·log10(4n+1), about 120 Elo more.
	if pull := 400*math.Log10(241) - want; math.Abs(so[0].Pull-pull) > 0.5 {
		t.Errorf("pull %.1f, want %.1f", so[0].Pull, pull)
	}

	// In a round robin the other games bound the gap too, and the pull is
	// of the order of the gap's standard error.
	res = shutoutResult(t, []string{"random", "greedy", "alphabeta"}, [][2]int{{0, 1}, {0, 2}, {1, 2}}, 60, []int{0, 20, 30})
	so = res.Shutouts()
	if len(so) != 1 || so[0].Winner != "greedy" || so[0].Loser != "random" {
		t.Fatalf("shutouts %+v", so)
	}
	if so[0].Pull <= 0 || so[0].Pull > 3*so[0].GapSE {
		t.Errorf("pull %.1f, gap %.1f ± %.1f", so[0].Pull, so[0].Gap, so[0].GapSE)
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Shutouts", "| greedy | random | 60-0 |", "Read these gaps as lower bounds"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	// No shutout, no section.
	res = shutoutResult(t, []string{"random", "greedy"}, [][2]int{{0, 1}}, 60, []int{10})
	b.Reset()
	WriteMarkdown(&b, res)
	if len(res.Shutouts()) != 0 || strings.Contains(b.String(), "Shutouts") {
		t.Errorf("a 10-50 pairing reported as a shutout")
	}
}
