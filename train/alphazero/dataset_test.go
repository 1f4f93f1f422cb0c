package alphazero

import (
	"context"
	"fmt"
	"github.com/urim-rl/urim/train"
	"github.com/urim-rl/urim/train/internal/traintest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/urim-rl/urim/dataset"
)

// A run with dataset.dir writes every game of its completed iterations once,
// in id order, in shards that never mix iterations, and a dataset that
// urim dataset verify accepts; extending the run extends the dataset.
func TestRunWritesDataset(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	cfg := tinyConfig(t, filepath.Join(dir, "run"), "dataset.dir="+data, "dataset.shard_size=100")
	if _, err := train.Run(context.Background(), cfg, train.Options{}); err != nil {
		t.Fatal(err)
	}
	shards := traintest.DatasetShards(t, data)
	m, _ := dataset.ReadManifest(data)
	tab, err := train.ReadMetrics(filepath.Join(dir, "run", "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	positions := 0
	for _, p := range tab.Column("positions") {
		positions += int(p)
	}
	if !m.Complete || m.Games != 16 || m.Positions != positions || m.Encoding != cfg.Encoding || m.Outcome != cfg.Reward {
		t.Fatalf("manifest: complete %v, %d games, %d positions, %s, %s; want complete, 16, %d (metrics.csv), %s, %s",
			m.Complete, m.Games, m.Positions, m.Encoding, m.Outcome, positions, cfg.Encoding, cfg.Reward)
	}
	next := int64(0)
	for _, s := range shards {
		if s.FirstID != next || s.LastID != next+int64(s.NumGames)-1 || s.FirstID/8 != s.LastID/8 {
			t.Fatalf("shard %s holds games %d to %d after game %d: want the next ids, within one iteration", s.Tensors, s.FirstID, s.LastID, next-1)
		}
		next = s.LastID + 1
	}
	if _, err := train.Run(context.Background(), tinyConfig(t, filepath.Join(dir, "run"), "dataset.dir="+data, "dataset.shard_size=100", "stop.iterations=3"), train.Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	more := traintest.DatasetShards(t, data)
	if m, _ := dataset.ReadManifest(data); !m.Complete || m.Games != 24 || !reflect.DeepEqual(more[:len(shards)], shards) {
		t.Fatalf("extended run: complete %v, %d games, first shards kept %v; want complete, 24, true", m.Complete, m.Games, reflect.DeepEqual(more[:len(shards)], shards))
	}
	// A new run refuses a directory that holds games.
	if _, err := train.Run(context.Background(), tinyConfig(t, filepath.Join(dir, "other"), "dataset.dir="+data), train.Options{}); err == nil {
		t.Fatal("a new run wrote into a dataset that holds another run's games")
	}
	// Resuming without the dataset would leave out the games played.
	if err := os.Remove(filepath.Join(data, dataset.ManifestName)); err != nil {
		t.Fatal(err)
	}
	if _, err := train.Run(context.Background(), tinyConfig(t, filepath.Join(dir, "run"), "dataset.dir="+data, "dataset.shard_size=100", "stop.iterations=4"), train.Options{Resume: true}); err == nil || !strings.Contains(err.Error(), "holds no dataset") {
		t.Fatalf("a run resumed without its dataset's manifest: %v", err)
	}
}

// An iteration interrupted after it wrote shards (or after its last shard
// but before the run committed it) leaves them listed; resuming drops them
// and writes that iteration again, giving the dataset of an uninterrupted
// run shard for shard.
func TestResumeDropsInterruptedIteration(t *testing.T) {
	dir := t.TempDir()
	sets := func(run, data string, its string) train.Config {
		return tinyConfig(t, filepath.Join(dir, run), "dataset.dir="+filepath.Join(dir, data), "dataset.shard_size=40", "stop.iterations="+its)
	}
	if _, err := train.Run(context.Background(), sets("clean", "clean-data", "2"), train.Options{}); err != nil {
		t.Fatal(err)
	}
	want := traintest.DatasetShards(t, filepath.Join(dir, "clean-data"))
	if _, err := train.Run(context.Background(), sets("run", "data", "1"), train.Options{}); err != nil {
		t.Fatal(err)
	}
	// The interrupted second iteration: its shards and the manifest
	// listing them were written, state.json was not; a temporary file too.
	data := filepath.Join(dir, "data")
	entries, _ := os.ReadDir(filepath.Join(dir, "clean-data"))
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, "clean-data", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(data, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, _ := dataset.ReadManifest(data)
	if m.Games != 16 {
		t.Fatalf("set-up: the dataset lists %d games, want 16", m.Games)
	}
	// The shard after the last listed, which the writer was writing.
	debris := filepath.Join(data, fmt.Sprintf(".tmp-shard-%05d.npz-1", len(m.Shards)))
	if err := os.WriteFile(debris, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := train.Run(context.Background(), sets("run", "data", "2"), train.Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	got := traintest.DatasetShards(t, data)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("resumed dataset's shards differ from an uninterrupted run's:\n got %+v\nwant %+v", got, want)
	}
	if m, _ := dataset.ReadManifest(data); !m.Complete || m.Games != 16 {
		t.Fatalf("resumed dataset: complete %v, %d games; want complete, 16", m.Complete, m.Games)
	}
	if _, err := os.Stat(debris); err == nil {
		t.Error("the interrupted writer's temporary file is still there")
	}
}
