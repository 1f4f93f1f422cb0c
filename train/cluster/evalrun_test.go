package cluster

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/train"
)

// TestInRunEvaluationOnWorkers: a distributed run with cluster.evaluation
// rates and gates every iteration on its two local workers: the run
// completes, every rating has an Elo, the games are in eval/games.jsonl,
// and they were played by the workers (the tournament consumer handed
// them out).
func TestInRunEvaluationOnWorkers(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyCluster(t, dir, "evaluation.every=1", "evaluation.opponents=[random, best]", "evaluation.gating.enabled=true",
		"evaluation.gating.max_games=8", "cluster.evaluation=true")
	log := newLog()
	os.Setenv("URIM_CLUSTER_TEST_ROLE", "worker")
	l, err := OpenLearner(context.Background(), &cfg, LearnerOptions{Log: log, WorkerCommand: testWorkers})
	os.Unsetenv("URIM_CLUSTER_TEST_ROLE")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	sum, err := train.Run(context.Background(), cfg, train.Options{Log: log, Remote: l, Evaluation: l.Evaluation()})
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if sum.Iterations != 3 {
		t.Errorf("%d iterations, want 3", sum.Iterations)
	}
	tab, err := train.ReadMetrics(filepath.Join(dir, "run", "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for i, elo := range tab.Column("elo") {
		if math.IsNaN(elo) {
			t.Errorf("iteration %d has no Elo", i+1)
		}
	}
	s, err := evaluate.OpenStore(filepath.Join(dir, "run", "eval", "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ec, err := l.res.js.Consumer(context.Background(), l.res.n.evalStream, evalConsumer)
	if err != nil {
		t.Fatal(err)
	}
	if n := ec.CachedInfo().Delivered.Consumer; s.Len() == 0 || n < uint64(s.Len()) {
		t.Errorf("the workers were handed %d evaluation games; the store holds %d", n, s.Len())
	}
	// The checkpoints sent for evaluation do not pile up: only the last
	// evaluation's (the candidate's and the best's) are left.
	objs, err := l.res.nets.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	blobs := 0
	for _, o := range objs {
		if strings.HasPrefix(o.Name, "blob-") {
			blobs++
		}
	}
	if blobs < 1 || blobs > 2 {
		t.Errorf("%d checkpoints sent for evaluation left in the object store; want 1 or 2", blobs)
	}
	t.Logf("%d rating games stored, %d evaluation jobs handed out, %d checkpoints left", s.Len(), ec.CachedInfo().Delivered.Consumer, blobs)
}
