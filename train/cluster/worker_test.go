package cluster

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/train"
)

// openTestLearner opens the learner of a tiny distributed run on an
// embedded server without local workers, with network 0 published.
func openTestLearner(t *testing.T, sets ...string) (*Learner, *train.Config, *syncBuffer) {
	t.Helper()
	dir := t.TempDir()
	cfg := tinyCluster(t, dir, sets...)
	cfg.Cluster.Workers = 0
	emb, err := StartEmbedded(filepath.Join(dir, "nats"), "run")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(emb.Shutdown)
	cfg.Cluster.NATS = emb.URL
	t.Setenv(EnvUser, emb.Learner.User)
	t.Setenv(EnvPassword, emb.Learner.Password)
	log := newLog()
	l, err := OpenLearner(context.Background(), &cfg, LearnerOptions{Log: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	l.emb = emb
	s, err := train.NewSession(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "net0.ckpt")
	if err := saveNet(path, s); err != nil {
		t.Fatal(err)
	}
	if err := l.Publish(context.Background(), 0, path); err != nil {
		t.Fatal(err)
	}
	l.testNet = path
	return l, &cfg, log
}

func TestWorkerPublishesShards(t *testing.T) {
	l, _, log := openTestLearner(t)
	ctx, cancel := testBudget(t)
	defer cancel()
	err := RunWorker(ctx, WorkerOptions{URL: l.emb.URL, Credentials: l.emb.Worker, Run: "run", ID: "w", Threads: 1, Log: log, MaxShards: 2})
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	b, err := l.Collect(ctx, 0, 1, func(string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Shards) == 0 || len(b.Games) == 0 {
		t.Fatalf("collected %d shards, %d games", len(b.Shards), len(b.Games))
	}
	if err := l.Committed(); err != nil {
		t.Fatal(err)
	}
}
