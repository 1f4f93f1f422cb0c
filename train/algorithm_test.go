package train

import (
	"context"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/nn"
)

// countingAlgorithm is a third algorithm that the core knows nothing about:
// it trains nothing and counts its iterations.
type countingAlgorithm struct {
	s         *Session
	committed []int
}

func (a *countingAlgorithm) Columns() []string { return []string{"count"} }
func (a *countingAlgorithm) Iterate(ctx context.Context, it int) (*Iteration, error) {
	return &Iteration{Games: 1, Positions: 10, Cells: []string{strconv.Itoa(it)}, Summary: "counted"}, nil
}
func (a *countingAlgorithm) Player(it int, net *nn.Net) evaluate.Player {
	return evaluate.Player{Name: PlayerName(it), New: func(seed uint64) (agents.Agent, error) {
		return agents.NewRandom(seed), nil
	}}
}
func (a *countingAlgorithm) Committed(it int) error {
	a.committed = append(a.committed, it)
	return nil
}
func (a *countingAlgorithm) Close() {}

var counted *countingAlgorithm

func init() {
	Register("test-counting", Spec{
		New: func(s *Session) (Algorithm, error) {
			counted = &countingAlgorithm{s: s}
			return counted, nil
		},
		Panels: []Panel{{Figure: SpeedFigure, Column: "count", Title: "Iterations counted", Unit: "iterations"}},
	})
}

// An algorithm registered from outside the core runs through it: its
// columns in metrics.csv, its counts in state.json, its commits in order,
// its panel in speed.png.
func TestRegisteredAlgorithmRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg, err := ParseConfig(nil, "", []string{"algorithm=test-counting", "output=" + dir, "stop.iterations=3",
		"evaluation.every=2", "evaluation.games=2", "evaluation.opponents=[random]"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), cfg, Options{}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(counted.committed, []int{1, 2, 3}) {
		t.Errorf("committed %v, want [1 2 3]", counted.committed)
	}
	st, _, err := ReadState(dir)
	if err != nil || st.Iteration != 3 || st.Games != 3 || st.Positions != 30 {
		t.Errorf("state %+v (%v), want 3 iterations, 3 games, 30 positions", st, err)
	}
	tab, err := ReadMetrics(filepath.Join(dir, metricsFile))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"iteration", "elapsed_s", "games", "count", "score_random", "elo", "elo_lo95", "elo_hi95", "best"}
	if !slices.Equal(tab.Header, want) {
		t.Errorf("columns %v, want %v", tab.Header, want)
	}
	if c := tab.Column("count"); !slices.Equal(c, []float64{1, 2, 3}) {
		t.Errorf("count column %v", c)
	}
	if e := tab.Column("elo"); len(e) != 3 || math.IsNaN(e[1]) || !math.IsNaN(e[0]) {
		t.Errorf("elo column %v: want a rating at iteration 2 only (and 3, the last)", e)
	}
	if got := panelColumns(panelsOf(tab, figurePanels(SpeedFigure, "test-counting"))); !slices.Equal(got, []string{"count"}) {
		t.Errorf("speed.png panels %v, want [count]", got)
	}
	f, err := os.Open(filepath.Join(dir, "speed.png"))
	if err != nil {
		t.Fatalf("the algorithm's panel is not drawn: %v", err)
	}
	defer f.Close()
	if img, err := png.DecodeConfig(f); err != nil || img.Width != 403 || img.Height != 269 {
		t.Errorf("speed.png: %d×%d (%v), want one 4.2×2.8-inch panel, 403×269", img.Width, img.Height, err)
	}
	// No loss and no learning rate: losses.png has nothing to show.
	if _, err := os.Stat(filepath.Join(dir, "losses.png")); !os.IsNotExist(err) {
		t.Errorf("losses.png: %v, want none", err)
	}
}
