package ppo

import (
	"context"
	"github.com/urim-rl/urim/train"
	"github.com/urim-rl/urim/train/internal/traintest"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/dataset"
)

// ppoDatasetGames checks the dataset in dir (it verifies: every game
// replays to its rows) against the run in run: it holds exactly the games of
// the run's completed iterations, ids 0 … Games-1 once each, every row is a
// learner's move with a policy that sums to 1, and a snapshot's moves have
// no rows. It returns the number of games a snapshot played.
func ppoDatasetGames(t *testing.T, dir, run string) int {
	t.Helper()
	traintest.DatasetShards(t, dir)
	st := traintest.ReadState(t, run)
	d, err := dataset.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if int64(d.Manifest.Games) != st.Games {
		t.Fatalf("the dataset holds %d games, the run's state.json %d", d.Manifest.Games, st.Games)
	}
	seen := make([]bool, st.Games)
	snapshot := 0
	for i := range d.Manifest.Shards {
		sh, err := d.LoadShard(i)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range sh.Records {
			if r.ID < 0 || r.ID >= st.Games || seen[r.ID] {
				t.Fatalf("game id %d: out of [0, %d) or twice", r.ID, st.Games)
			}
			seen[r.ID] = true
			moves := r.Plies - len(r.Opening)
			snap := false
			for _, spec := range r.Agents {
				if strings.HasPrefix(spec, "ppo:snapshot=") {
					snap = true
				} else if spec != ppoLearnerSpec {
					t.Fatalf("game %d: agent %q", r.ID, spec)
				}
			}
			if snap {
				snapshot++
			}
			if r.Positions > moves || snap && r.Positions == moves || !snap && r.Positions != moves {
				t.Fatalf("game %d (snapshot %v): %d rows for %d moves after the opening", r.ID, snap, r.Positions, moves)
			}
		}
		tn := sh.Tensors
		for k := 0; k < tn.N; k++ {
			if !tn.HasPolicy[k] {
				t.Fatalf("row %d has no policy", k)
			}
			var sum float64
			for _, p := range tn.Policy[k*tn.Actions : (k+1)*tn.Actions] {
				sum += float64(p)
			}
			if math.Abs(sum-1) > 1e-4 || tn.Value[k] < -1 || tn.Value[k] > 1 {
				t.Fatalf("row %d: policy sums to %v, value %v", k, sum, tn.Value[k])
			}
		}
	}
	return snapshot
}

// A PPO run with dataset.dir writes the games of its completed iterations,
// each once, with their random openings, and extending it extends the
// dataset.
func TestPPOWritesDataset(t *testing.T) {
	dir := t.TempDir()
	run, data := filepath.Join(dir, "run"), filepath.Join(dir, "data")
	if _, err := train.Run(context.Background(), ppoTinyConfig(t, run, "dataset.dir="+data, "dataset.shard_size=100", "ppo.opening_plies=2"), train.Options{}); err != nil {
		t.Fatal(err)
	}
	if snap := ppoDatasetGames(t, data, run); snap == 0 {
		t.Error("no game against a pool snapshot was recorded")
	}
	if m, _ := dataset.ReadManifest(data); !m.Complete || m.Games == 0 {
		t.Fatalf("manifest: complete %v, %d games", m.Complete, m.Games)
	}
	if _, err := train.Run(context.Background(), ppoTinyConfig(t, run, "dataset.dir="+data, "dataset.shard_size=100", "ppo.opening_plies=2", "stop.iterations=4"), train.Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	ppoDatasetGames(t, data, run)
}

// An iteration interrupted after it wrote its games but before state.json
// committed it: resuming drops them and plays the iteration again; the
// dataset stays the run's, no game twice.
func TestPPOResumeDropsInterruptedIteration(t *testing.T) {
	dir := t.TempDir()
	run, data := filepath.Join(dir, "run"), filepath.Join(dir, "data")
	cfg := func(its string) train.Config {
		return ppoTinyConfig(t, run, "dataset.dir="+data, "dataset.shard_size=50", "stop.iterations="+its)
	}
	// Games last longer than an iteration's steps: each session plays
	// two iterations, so that games end.
	if _, err := train.Run(context.Background(), cfg("2"), train.Options{}); err != nil {
		t.Fatal(err)
	}
	st2, err := os.ReadFile(filepath.Join(run, "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := train.Run(context.Background(), cfg("4"), train.Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	// Back to iteration 2's state: iterations 3 and 4's games are in the dataset,
	// as a kill between its flush and its state.json leaves them.
	if err := os.WriteFile(filepath.Join(run, "state.json"), st2, 0o644); err != nil {
		t.Fatal(err)
	}
	m, _ := dataset.ReadManifest(data)
	if st := traintest.ReadState(t, run); int64(m.Games) <= st.Games {
		t.Fatalf("set-up: the dataset holds %d games, iteration 2 %d", m.Games, st.Games)
	}
	if _, err := train.Run(context.Background(), cfg("5"), train.Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	if st := traintest.ReadState(t, run); st.Iteration != 5 {
		t.Fatalf("resumed to iteration %d, want 5", st.Iteration)
	}
	ppoDatasetGames(t, data, run)
}
