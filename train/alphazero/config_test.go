package alphazero

import (
	"strings"
	"testing"

	"github.com/urim-rl/urim/train"
)

// Alphazero's sections are its own: their checks live here and their
// errors name the file, line and key like the core's.
func TestSectionChecks(t *testing.T) {
	for _, c := range []struct {
		yaml string
		sets []string
		want string
	}{
		{"training:\n  tablebase_policy: true\n", nil, "c.yaml:2: training.tablebase_policy: true, but neither training.tablebase nor training.tablebase_seeds is set"},
		{"training:\n  tablebase_seeds: 17\n", nil, "c.yaml:2: training.tablebase_seeds: 17 is out of range (0 to 16"},
		{"training:\n  tablebase: t.tb\n  tablebase_seeds: 8\n", nil, "c.yaml:3: training.tablebase_seeds: 8, but training.tablebase names a table too"},
		{"replay:\n  window: 10\n  min_positions: 11\n", nil, "c.yaml:3: replay.min_positions: 11 is out of range (0 to 10)"},
		{"output: runs/x\nreplay:\n  datasets: [data, runs/x]\n", nil, `c.yaml:3: replay.datasets[1]: "runs/x" is the run directory`},
		{"dataset: {dir: d}\nreplay:\n  datasets: [d]\n", nil, `c.yaml:3: replay.datasets[0]: "d" is this run's dataset.dir`},
		{"replay:\n  datasets: ['']\n", nil, "c.yaml:2: replay.datasets[0]: empty"},
		{"selfplay:\n  resign: {threshold: -0.9, consecutive: 0}\n", nil, "c.yaml:2: selfplay.resign.consecutive: 0 is out of range (1 to 1000)"},
		{"search:\n  root: sampled\n", nil, `c.yaml:2: search.root: "sampled" is not allowed (allowed: puct, gumbel)`},
		{"search:\n  precision: fp16\n", nil, `c.yaml:2: search.precision: "fp16" is not allowed (allowed: fp32, int8)`},
		{"max_plies: 2\nselfplay:\n  opening_plies: 2\n", nil, "c.yaml:3: selfplay.opening_plies:"},
		{"", []string{"search.playout_cap.fast_sims=0"}, "--set search.playout_cap.fast_sims=0: 0 is out of range (1 to 1048576)"},
	} {
		_, err := train.ParseConfig([]byte(c.yaml), "c.yaml", c.sets)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %v: %v, want %s", c.yaml, c.sets, err, c.want)
		}
	}
	// The sections read back through their handles, and SelfPlaySection.Set
	// changes one copy of a config only.
	cfg, err := train.ParseConfig([]byte("selfplay:\n  parallel_games: 8\n"), "c.yaml", []string{"search.sims=30"})
	if err != nil {
		t.Fatal(err)
	}
	if SelfPlaySection.Of(&cfg).ParallelGames != 8 || SearchSection.Of(&cfg).Sims.N != 30 || ReplaySection.Of(&cfg).Window != 100000 || TrainingSection.Of(&cfg).Tablebase != "" {
		t.Errorf("sections %+v %+v %+v %+v", SelfPlaySection.Of(&cfg), SearchSection.Of(&cfg), ReplaySection.Of(&cfg), TrainingSection.Of(&cfg))
	}
	other := cfg
	sp := SelfPlaySection.Of(&other)
	sp.ParallelGames = 2
	SelfPlaySection.Set(&other, sp)
	if SelfPlaySection.Of(&cfg).ParallelGames != 8 || SelfPlaySection.Of(&other).ParallelGames != 2 {
		t.Errorf("parallel games %d and %d, want 8 (the original) and 2 (the copy)", SelfPlaySection.Of(&cfg).ParallelGames, SelfPlaySection.Of(&other).ParallelGames)
	}
}
