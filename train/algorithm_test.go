package train

import (
	"context"
	"errors"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/nn"
)

// countingAlgorithm is a third algorithm that the core knows nothing about:
// it trains nothing and counts its iterations, each worth counting.step
// positions (its own config section).
type countingAlgorithm struct {
	s         *Session
	committed []int
}

// countingSection is the counting algorithm's config section.
type countingSection struct {
	// Step is the positions an iteration counts.
	Step  int    `yaml:"step"`
	Label string `yaml:"label"`
	Inner struct {
		Deep bool `yaml:"deep"`
	} `yaml:"inner"`
	// SetupMS is a set-up of this many milliseconds (a table being built).
	SetupMS int `yaml:"setup_ms"`
}

func (a *countingAlgorithm) Columns() []string { return []string{"count"} }
func (a *countingAlgorithm) Iterate(ctx context.Context, it int) (*Iteration, error) {
	step := counting.Of(a.s.Config).Step
	return &Iteration{Games: 1, Positions: step, Cells: []string{strconv.Itoa(it)}, Summary: "counted"}, nil
}
func (a *countingAlgorithm) Player(it int, net *nn.Net) evaluate.Player {
	return evaluate.Player{Name: PlayerName(it), New: func(seed uint64) (agents.Agent, error) {
		return classic.NewRandom(seed), nil
	}}
}
func (a *countingAlgorithm) Committed(it int) error {
	a.committed = append(a.committed, it)
	return nil
}
func (a *countingAlgorithm) Close() {}

var counted *countingAlgorithm

// counting is the counting algorithm's section, printed after workers.
var counting = NewSection("counting", "workers", func() countingSection { return countingSection{Step: 10, Label: "count"} },
	func(_ *Config, s countingSection, _ *env.Game) error {
		return IntRange("counting.step", s.Step, 1, 100)
	})

func init() {
	Register("test-counting", Spec{
		New: func(s *Session) (Algorithm, error) {
			counted = &countingAlgorithm{s: s}
			time.Sleep(time.Duration(counting.Of(s.Config).SetupMS) * time.Millisecond)
			return counted, nil
		},
		Panels:   []Panel{{Figure: SpeedFigure, Column: "count", Title: "Iterations counted", Unit: "iterations"}},
		Sections: []Section{counting},
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

// The counting algorithm's own section is part of the one schema without a
// line of the core naming it: decoded strictly with file:line:key errors,
// defaulted, printed, overridden with --set, checked by its Check, stored
// in the run's config.yaml and compared on resume; another algorithm's
// config refuses it by line, and a run's stored config.yaml written before
// one schema per algorithm drops it.
func TestAlgorithmSection(t *testing.T) {
	cfg, err := ParseConfig(nil, "", []string{"algorithm=test-counting"})
	if err != nil {
		t.Fatal(err)
	}
	if got := counting.Of(&cfg); got.Step != 10 || got.Label != "count" || got.Inner.Deep {
		t.Errorf("default section %+v, want step 10, label count", got)
	}
	out, err := cfg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(out), "workers: 0\ncounting:\n  step: 10\n  label: count\n  inner:\n    deep: false\n  setup_ms: 0\n") {
		t.Errorf("printed config does not end with the section after workers:\n%s", out)
	}

	cfg, err = ParseConfig([]byte("algorithm: test-counting\ncounting:\n  label: x\n  inner: {deep: true}\n"), "t.yaml", []string{"counting.step=7"})
	if err != nil {
		t.Fatal(err)
	}
	if got := counting.Of(&cfg); got.Step != 7 || got.Label != "x" || !got.Inner.Deep {
		t.Errorf("section %+v, want step 7 (--set), label x, deep (the file)", got)
	}
	again, err := ParseConfig(mustMarshal(t, cfg), "printed.yaml", nil)
	if err != nil || counting.Of(&again) != counting.Of(&cfg) {
		t.Errorf("the printed section reads back as %+v (%v)", counting.Of(&again), err)
	}

	for _, c := range []struct {
		yaml string
		sets []string
		want string
	}{
		{"algorithm: test-counting\ncounting:\n  step: 2\n  stpe: 3\n", nil,
			"train: config t.yaml:4: counting.stpe: unknown key (known: step, label, inner, setup_ms)"},
		{"algorithm: test-counting\ncounting:\n  inner:\n    deep: 1\n", nil, `train: config t.yaml:4: counting.inner.deep: want true or false, got "1"`},
		{"algorithm: test-counting\ncounting:\n  step: 2.5\n", nil, `train: config t.yaml:3: counting.step: want an integer, got "2.5"`},
		{"algorithm: test-counting\ncounting:\n  step: 0\n", nil, "train: config t.yaml:3: counting.step: 0 is out of range (1 to 100)"},
		{"", []string{"algorithm=test-counting", "counting.step=101"}, "train: --set counting.step=101: 101 is out of range (1 to 100)"},
		{"", []string{"algorithm=test-counting", "counting.steps=1"}, "train: --set counting.steps=1: unknown key (known: step, label, inner, setup_ms)"},
		{"algorithm: alphazero\ncounting:\n  step: 5\n", nil,
			"train: config t.yaml:2: counting: a section of algorithm test-counting, but this config's algorithm is alphazero: remove it or set algorithm: test-counting"},
		{"", []string{"counting.step=5"}, "train: --set counting.step=5: counting: a section of algorithm test-counting, but this config's algorithm is alphazero"},
		{"algorithm: test-countng\n", nil, "train: config t.yaml:1: algorithm: \"test-countng\" is not allowed (allowed: alphazero, ppo, test-counting)"},
		{"algorithm: test-counting\ncluster: {workers: 1}\n", nil, "train: config t.yaml:2: cluster: distributed self-play is for algorithm alphazero, not test-counting"},
	} {
		_, err := ParseConfig([]byte(c.yaml), "t.yaml", c.sets)
		var ce *ConfigError
		if err == nil || !errors.As(err, &ce) || err.Error() != c.want {
			t.Errorf("%q %v: error %v, want %s", c.yaml, c.sets, err, c.want)
		}
	}

	// Through the unchanged core: the run reads its section, stores it, and a
	// resume with another value of it is refused.
	dir := filepath.Join(t.TempDir(), "run")
	sets := []string{"algorithm=test-counting", "output=" + dir, "stop.iterations=2", "evaluation.every=0", "counting.step=3"}
	if cfg, err = ParseConfig(nil, "", sets); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), cfg, Options{}); err != nil {
		t.Fatal(err)
	}
	if st, _, err := ReadState(dir); err != nil || st.Positions != 6 {
		t.Errorf("state %+v (%v), want 2 iterations of counting.step 3 positions", st, err)
	}
	stored, err := os.ReadFile(filepath.Join(dir, configFile))
	if err != nil || !strings.Contains(string(stored), "counting:\n  step: 3\n") {
		t.Errorf("config.yaml holds no counting section of step 3 (%v):\n%s", err, stored)
	}
	changed, err := ParseConfig(nil, "", append(sets, "stop.iterations=3", "counting.step=4"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), changed, Options{Resume: true}); err == nil || !strings.Contains(err.Error(), "(counting)") {
		t.Errorf("resume with another counting.step: %v, want the section named as changed", err)
	}
	extended, err := ParseConfig(nil, "", append(sets, "stop.iterations=3"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), extended, Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	if st, _, err := ReadState(dir); err != nil || st.Iteration != 3 || st.Positions != 9 {
		t.Errorf("resumed state %+v (%v), want 3 iterations, 9 positions", st, err)
	}

	// A config.yaml stored before one schema per algorithm holds every
	// algorithm's sections: a resume reads it, dropping the others'.
	old := strings.Replace(string(stored), "counting:", "search:\n  sims: 3\nppo:\n  epochs: 9\ncounting:", 1)
	if err := os.WriteFile(filepath.Join(dir, configFile), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	resumed, err := LoadRunConfig(dir, []string{"stop.iterations=4"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(filepath.Join(dir, configFile), nil); err == nil || !strings.Contains(err.Error(), "search: a section of algorithm alphazero") {
		t.Errorf("the same file as a config: %v, want search refused", err)
	}
	if _, err := Run(context.Background(), resumed, Options{Resume: true}); err != nil {
		t.Errorf("resume from a config.yaml with every algorithm's sections: %v", err)
	}
}
