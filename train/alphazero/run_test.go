package alphazero

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/urim-rl/urim/train"
	"github.com/urim-rl/urim/train/internal/traintest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/nn"
)

// tinyConfig is configs/tiny.yaml writing to dir, with overrides.
func tinyConfig(t *testing.T, dir string, sets ...string) train.Config {
	t.Helper()
	cfg, err := train.LoadConfig(filepath.Join("..", "..", "configs", "tiny.yaml"), append([]string{"output=" + dir}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestTinyRunWritesEveryOutput(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	var log bytes.Buffer
	sum, err := train.Run(context.Background(), tinyConfig(t, dir), train.Options{Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if sum.Iterations != 2 {
		t.Errorf("%d iterations, want 2", sum.Iterations)
	}
	for _, f := range []string{"config.yaml", "version.txt", "state.json", "metrics.csv", "losses.png", "elo.png", "speed.png",
		"checkpoints/iter-0000.ckpt", "checkpoints/iter-0001.ckpt", "checkpoints/iter-0002.ckpt",
		"checkpoints/latest.ckpt", "checkpoints/best.ckpt", "replay/manifest.json", "replay/shard-00000.npz", "selfplay/games.jsonl", "eval/games.jsonl"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: missing or empty (%v)", f, err)
		}
	}
	tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 2 {
		t.Fatalf("metrics.csv has %d rows, want 2", len(tab.Rows))
	}
	for _, col := range []string{"policy_loss", "value_loss", "entropy", "kl", "positions_per_s", "steps_per_s", "buffer"} {
		for i, v := range tab.Column(col) {
			if !(v >= 0) {
				t.Errorf("row %d: %s = %v", i+1, col, v)
			}
		}
	}
	// Evaluated at iteration 2 only (every: 2), with an Elo interval.
	elo, lo, hi := tab.Column("elo"), tab.Column("elo_lo95"), tab.Column("elo_hi95")
	if elo[0] == elo[0] || !(lo[1] < elo[1] && elo[1] < hi[1]) {
		t.Errorf("elo %v, interval %v to %v: want none at iteration 1 and an interval at 2", elo, lo, hi)
	}
	if s := tab.Column("score_random"); !(s[1] >= 0 && s[1] <= 1) {
		t.Errorf("score against random %v", s)
	}
	// The checkpoints load, with the optimizer state and the step count.
	ck, err := nn.Load(filepath.Join(dir, "checkpoints", "latest.ckpt"))
	if err != nil {
		t.Fatal(err)
	}
	if ck.Optimizer == nil || ck.Step == 0 {
		t.Errorf("latest.ckpt: optimizer %v, step %d", ck.Optimizer != nil, ck.Step)
	}
	// Self-play games are valid store records (replayed when opened).
	store, err := evaluate.OpenStore(filepath.Join(dir, "selfplay", "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if store.Len() == 0 {
		t.Errorf("no self-play games sampled")
	}
	// The replay window is a valid dataset; state.json lists its shards,
	// which hold every position played (the window is larger).
	traintest.DatasetShards(t, filepath.Join(dir, "replay"))
	st := traintest.ReadState(t, dir)
	var win windowState
	if err := json.Unmarshal(st.Data, &win); err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, sh := range win.Window {
		rows += sh.Rows
	}
	if int64(rows) != st.Positions || len(win.Window) != 2 || st.Iteration != 2 {
		t.Errorf("the window lists %d shards of %d positions, state %+v", len(win.Window), rows, st)
	}
	if !strings.Contains(log.String(), "iter 2:") {
		t.Errorf("no summary line for iteration 2 in the log:\n%s", log.String())
	}

	// A second start without --resume refuses; a resume with more
	// iterations continues; a resume with another config refuses.
	if _, err := train.Run(context.Background(), tinyConfig(t, dir), train.Options{}); !errors.Is(err, train.ErrRunExists) {
		t.Errorf("second start: %v, want ErrRunExists", err)
	}
	if _, err := train.Run(context.Background(), tinyConfig(t, dir, "stop.iterations=3", "search.sims=9"), train.Options{Resume: true}); err == nil ||
		!strings.Contains(err.Error(), "differs") || !strings.Contains(err.Error(), "search") {
		t.Errorf("resume with another search: %v", err)
	}
	if _, err := train.Run(context.Background(), tinyConfig(t, dir, "stop.iterations=3"), train.Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	if tab, _ := train.ReadMetrics(filepath.Join(dir, "metrics.csv")); len(tab.Rows) != 3 {
		t.Errorf("after resuming to 3 iterations, metrics.csv has %d rows", len(tab.Rows))
	}
}

// TestSameSeedSameIteration runs the first iteration twice with one worker:
// the network and the metrics other than timings must be identical.
func TestSameSeedSameIteration(t *testing.T) {
	var ckpts [2][]byte
	var rows [2]string
	for i := range 2 {
		dir := filepath.Join(t.TempDir(), "run")
		if _, err := train.Run(context.Background(), tinyConfig(t, dir, "stop.iterations=1", "evaluation.every=1"), train.Options{}); err != nil {
			t.Fatal(err)
		}
		var err error
		if ckpts[i], err = os.ReadFile(train.CheckpointPath(dir, 1)); err != nil {
			t.Fatal(err)
		}
		tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows[i] = untimed(tab)
	}
	if !bytes.Equal(ckpts[0], ckpts[1]) {
		t.Errorf("the same seed gave two different networks after iteration 1")
	}
	if rows[0] != rows[1] {
		t.Errorf("the same seed gave different metrics:\n%s\n%s", rows[0], rows[1])
	}
}

// untimed returns the metrics without the columns that measure time.
func untimed(tab *train.Table) string {
	var b strings.Builder
	for _, r := range tab.Rows {
		for k, h := range tab.Header {
			if k < len(r) && !strings.Contains(h, "_s") && !strings.HasSuffix(h, "per_s") {
				b.WriteString(h + "=" + r[k] + " ")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestInterruptedCheckpointWrite leaves what a crash in the middle of an
// atomic write leaves (a truncated temporary file beside the checkpoint):
// the previous checkpoint still loads, and a resumed run removes the debris
// and carries on.
func TestInterruptedCheckpointWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := train.Run(context.Background(), tinyConfig(t, dir, "stop.iterations=1"), train.Options{}); err != nil {
		t.Fatal(err)
	}
	path := train.CheckpointPath(dir, 1)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Half of a newer checkpoint, as nn.Save names its temporary file, and
	// half a state.json and a shard.
	debris := []string{filepath.Join(dir, "checkpoints", ".iter-0002.ckpt.tmp123"), filepath.Join(dir, ".state.json.tmp456"),
		filepath.Join(dir, "replay", ".tmp-shard-00001.npz-1")} // the replay window's in-flight shard
	for _, d := range debris {
		if err := os.WriteFile(d, good[:len(good)/2], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := nn.Load(path); err != nil {
		t.Fatalf("the previous checkpoint no longer loads: %v", err)
	}
	if _, err := nn.Load(debris[0]); err == nil {
		t.Errorf("a truncated checkpoint loaded")
	}
	if _, err := train.Run(context.Background(), tinyConfig(t, dir, "stop.iterations=2"), train.Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	for _, d := range debris {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("%s survived the resume", d)
		}
	}
	if st := traintest.ReadState(t, dir); st.Iteration != 2 {
		t.Errorf("resumed to iteration %d, want 2", st.Iteration)
	}
}

// tinyFile is the config of the tiny runs.
var tinyFile = filepath.Join("..", "..", "configs", "tiny.yaml")

func TestMain(m *testing.M) { traintest.ChildMain(m) }

// TestKillAndResume kills a training process with SIGKILL in the middle of
// an iteration, resumes it, and checks that the resumed run continues from
// the last committed iteration exactly as an uninterrupted run would: the
// same network after the next iteration, byte for byte, and the same
// self-play dataset, shard for shard.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process")
	}
	dir := filepath.Join(t.TempDir(), "run")
	traintest.KillChildRun(t, dir, tinyFile, 3)
	st := traintest.ReadState(t, dir)
	k := st.Iteration
	sets := func(dir string) train.Config {
		return tinyConfig(t, dir, "stop.iterations="+strconv.Itoa(k+1), "evaluation.every=3", "optimizer.schedule=constant", "dataset.dir="+dir+"-data", "dataset.shard_size=40")
	}
	if _, err := train.Run(context.Background(), sets(dir), train.Options{Resume: true}); err != nil {
		t.Fatalf("resume after kill at iteration %d: %v", k, err)
	}
	tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	its := tab.Column("iteration")
	if len(its) != k+1 {
		t.Fatalf("metrics.csv has %d rows after resuming from %d, want %d", len(its), k, k+1)
	}
	for i, v := range its {
		if int(v) != i+1 {
			t.Fatalf("metrics.csv iterations %v", its)
		}
	}
	// An uninterrupted run of k+1 iterations ends with the same network.
	clean := filepath.Join(t.TempDir(), "clean")
	if _, err := train.Run(context.Background(), sets(clean), train.Options{}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(train.CheckpointPath(dir, k+1))
	b, _ := os.ReadFile(train.CheckpointPath(clean, k+1))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("iteration %d after the kill and resume differs from an uninterrupted run", k+1)
	}
	if got, want := traintest.DatasetShards(t, dir+"-data"), traintest.DatasetShards(t, clean+"-data"); !reflect.DeepEqual(got, want) {
		t.Errorf("the dataset after the kill and resume differs from an uninterrupted run's:\n got %+v\nwant %+v", got, want)
	}
}

// TestGating promotes a network to best.ckpt only when its SPRT against the
// best so far accepts H1; an undecided test keeps the old best.
func TestGating(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	var log bytes.Buffer
	// 20 games cannot decide between networks this close: no promotion.
	cfg := tinyConfig(t, dir, "evaluation.every=1", "evaluation.gating.enabled=true", "evaluation.gating.max_games=20")
	if _, err := train.Run(context.Background(), cfg, train.Options{Log: &log}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "gating iteration 2 against") {
		t.Errorf("no gating in the log:\n%s", log.String())
	}
	st := traintest.ReadState(t, dir)
	best, _ := os.ReadFile(filepath.Join(dir, "checkpoints", "best.ckpt"))
	want, _ := os.ReadFile(train.CheckpointPath(dir, st.Best))
	if len(best) == 0 || !bytes.Equal(best, want) {
		t.Errorf("best.ckpt is not iteration %d's checkpoint", st.Best)
	}
	tab, _ := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if b := tab.Column("best"); b[len(b)-1] != float64(st.Best) {
		t.Errorf("metrics best %v, state %d", b, st.Best)
	}
}

// TestTimeBudget stops a run without an iteration cap once the next
// iteration would not fit in stop.time, and evaluates the last one.
func TestTimeBudget(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	var log bytes.Buffer
	sum, err := train.Run(context.Background(), tinyConfig(t, dir, "stop.iterations=0", "stop.time=300ms", "evaluation.every=1000"), train.Options{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	tab, _ := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	elo := tab.Column("elo")
	if sum.Iterations < 1 || len(elo) != sum.Iterations || elo[len(elo)-1] != elo[len(elo)-1] {
		t.Errorf("%d iterations, Elo column %v: want the last iteration evaluated", sum.Iterations, elo)
	}
	if !strings.Contains(log.String(), "time budget 300ms") {
		t.Errorf("no time-budget note in the log:\n%s", log.String())
	}
}

// killChildRun starts this test binary as a child training run in dir (with
// config, or tiny.yaml when config is empty), waits until it has committed
// the given number of iterations, and kills it with SIGKILL wherever it is.
