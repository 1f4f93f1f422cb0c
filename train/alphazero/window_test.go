package alphazero

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/train"
	"github.com/urim-rl/urim/train/internal/traintest"
)

// windowOf reads the window state.json records.
func windowOf(t *testing.T, dir string) []windowShard {
	t.Helper()
	var w windowState
	if err := json.Unmarshal(traintest.ReadState(t, dir).Data, &w); err != nil {
		t.Fatal(err)
	}
	return w.Window
}

// A run started from a urim selfplay dataset (replay.datasets) trains on it
// from its first iteration: with min_positions above what its own
// self-play plays, the dataset's positions are what lets training start.
// The window lists the dataset's shard, and a resume reloads it.
func TestRunTrainsOnSelfPlayDataset(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	res, err := dataset.SelfPlay(context.Background(), dataset.Config{Agent: "mcts:sims=16", Games: 6, Out: data,
		Rules: "urim4", Seed: 3, Workers: 1}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows := res.Positions
	dir := filepath.Join(t.TempDir(), "run")
	sets := []string{"max_plies=0", "replay.datasets=[" + data + "]", "replay.min_positions=" + strconv.Itoa(rows+1),
		"selfplay.games_per_iteration=2", "selfplay.parallel_games=2", "evaluation.every=0", "stop.iterations=1"}
	if _, err := train.Run(context.Background(), tinyConfig(t, dir, sets...), train.Options{}); err != nil {
		t.Fatal(err)
	}
	tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	own := tab.Column("positions")[0]
	if got := tab.Column("buffer")[0]; got != float64(rows)+own {
		t.Errorf("window of %v positions, want the dataset's %d and self-play's %v", got, rows, own)
	}
	if steps := tab.Column("train_steps")[0]; !(steps > 0) {
		t.Errorf("%v training steps in iteration 1: the dataset's positions were not trained on", steps)
	}
	win := windowOf(t, dir)
	if len(win) != 2 || win[0].Dataset != data || win[0].Rows != rows || win[1].Dataset != "" {
		t.Errorf("window %+v: want the dataset's shard, then the run's", win)
	}
	sets[len(sets)-1] = "stop.iterations=2"
	if _, err := train.Run(context.Background(), tinyConfig(t, dir, sets...), train.Options{Resume: true}); err != nil {
		t.Fatalf("resume with the dataset in the window: %v", err)
	}
}

// A byte flipped in a shard of the window is refused on resume, naming the
// shard, rather than trained on.
func TestResumeRefusesChangedWindowShard(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := train.Run(context.Background(), tinyConfig(t, dir, "stop.iterations=1", "evaluation.every=0"), train.Options{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "replay", "shard-00000.npz")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/3] ^= 0x10
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = train.Run(context.Background(), tinyConfig(t, dir, "stop.iterations=2", "evaluation.every=0"), train.Options{Resume: true})
	if err == nil || !strings.Contains(err.Error(), "SHA-256") || !strings.Contains(err.Error(), "shard-00000.npz") {
		t.Fatalf("resume over a changed shard: %v, want a SHA-256 error naming shard-00000.npz", err)
	}
}

// A window smaller than the run's self-play lists only the newest shards
// that hold its positions, and replay/ keeps only those.
func TestWindowDropsOldShards(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := tinyConfig(t, dir, "replay.window=100", "evaluation.every=0", "stop.iterations=4")
	if _, err := train.Run(context.Background(), cfg, train.Options{}); err != nil {
		t.Fatal(err)
	}
	win := windowOf(t, dir)
	rows := 0
	for _, sh := range win {
		rows += sh.Rows
	}
	if rows < 100 || rows-win[0].Rows >= 100 {
		t.Errorf("the window lists %d shards of %d rows: want the fewest newest holding 100", len(win), rows)
	}
	shards := traintest.DatasetShards(t, filepath.Join(dir, "replay"))
	if len(shards) != len(win) || shards[0].Tensors != win[0].Tensors {
		t.Errorf("replay/ holds %d shards from %s, the window lists %d from %s", len(shards), shards[0].Tensors, len(win), win[0].Tensors)
	}
	if _, err := train.Run(context.Background(), tinyConfig(t, dir, "replay.window=100", "evaluation.every=0", "stop.iterations=5"), train.Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
}
