package experiment

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepHeadToHeadSeparatesRecipes: two recipes far apart (one
// training iteration against many) get head-to-head intervals that do not
// overlap, 100 Elo or more apart; run again, no game is played twice.
func TestSweepHeadToHeadSeparatesRecipes(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 31 iterations and plays 600 games: 9 s, 81 s under -race (.ci/run's -race step is -short)")
	}
	out := filepath.Join(t.TempDir(), "sweep")
	a, _ := ParseAxis("stop.iterations=1,30")
	var log bytes.Buffer
	c := Config{Base: tinyFile, Sets: []string{"evaluation.every=0"}, Grid: []Axis{a}, Seeds: 1, Out: out,
		Panel: []string{"random"}, Games: 2, RateSims: 2, H2HSims: 2, H2HGames: 300, Log: &log}
	rows, err := Run(context.Background(), c)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	weak, strong := rows[0], rows[1]
	t.Logf("1 iteration: %.0f [%.0f, %.0f]; 30: %.0f [%.0f, %.0f]", weak.H2H, weak.H2HLo, weak.H2HHi, strong.H2H, strong.H2HLo, strong.H2HHi)
	if strong.H2H-weak.H2H < 100 || strong.H2HLo <= weak.H2HHi {
		t.Errorf("head to head: 1 iteration %.0f [%.0f, %.0f], 30 iterations %.0f [%.0f, %.0f]: want 100+ Elo apart, intervals apart",
			weak.H2H, weak.H2HLo, weak.H2HHi, strong.H2H, strong.H2HLo, strong.H2HHi)
	}
	report, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(string(report), "## Head to head") || !strings.Contains(string(report), "| iterations-30 | 1 |") {
		t.Errorf("report.md has no head-to-head table:\n%s", report)
	}
	recs := readCSV(t, filepath.Join(out, "summary.csv"))
	if h := recs[0]; h[len(h)-3] != "h2h_elo" {
		t.Errorf("summary.csv header %v: want h2h_elo, h2h_lo95, h2h_hi95 last", h)
	}
	log.Reset()
	again, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "head to head at 2 simulations: 0 games played") || again[1].H2H != strong.H2H {
		t.Errorf("the resumed sweep played the head to head again or rated differently:\n%s", log.String())
	}
}

// TestHeadToHeadSettingsChecked: odd game counts and no simulations are
// refused before any run starts.
func TestHeadToHeadSettingsChecked(t *testing.T) {
	for _, c := range []struct {
		sims, games int
		want        string
	}{{0, 3, "head-to-head games 3"}, {-1, 0, "head-to-head simulations -1"}, {0, 1, "head-to-head games 1"}} {
		s := tinySweep(filepath.Join(t.TempDir(), "x"), 1)
		s.H2HSims, s.H2HGames = c.sims, c.games
		if _, err := Run(context.Background(), s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("h2h sims %d, games %d: %v; want %q", c.sims, c.games, err, c.want)
		}
		if _, err := os.Stat(s.Out); err == nil {
			t.Errorf("h2h sims %d, games %d: the sweep created its directory", c.sims, c.games)
		}
	}
}
