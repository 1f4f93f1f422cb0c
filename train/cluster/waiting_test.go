package cluster

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestWaitingNamesTheWorkers: the learner's note while it waits for shards
// tells to start a worker only when none has reported; once one has, it
// says they are playing.
func TestWaitingNamesTheWorkers(t *testing.T) {
	l, _, _ := openTestLearner(t)
	if got := l.workersNote(); !strings.Contains(got, "start urim worker --nats") {
		t.Errorf("no worker: %q", got)
	}
	b, _ := json.Marshal(heartbeat{ID: "w1", Seen: time.Now().UTC()})
	if _, err := l.res.kv.Put(context.Background(), keyWorkers+".w1", b); err != nil {
		t.Fatal(err)
	}
	if got := l.workersNote(); strings.Contains(got, "start urim worker") || !strings.Contains(got, "1 workers reported") {
		t.Errorf("a worker that reported: %q", got)
	}
}

// TestCollectTakesWhatWaits: after the games it asks for, Collect takes the
// shards waiting already, up to drainFactor times as many games, rather
// than leaving them to go stale while the learner trains; beyond that they
// wait for the next iteration.
func TestCollectTakesWhatWaits(t *testing.T) {
	l, _, log := openTestLearner(t, "cluster.games_per_shard=2")
	ctx, cancel := testBudget(t)
	defer cancel()
	if err := RunWorker(ctx, WorkerOptions{URL: l.emb.URL, Credentials: l.emb.Worker, Run: "run", ID: "w", Threads: 1, Log: log, MaxShards: 6}); err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	// Asked for 2 games (one shard), it takes 8: drainFactor × 2.
	b, err := l.Collect(ctx, 0, 2, func(string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Shards) != drainFactor || len(b.Games) != 2*drainFactor {
		t.Errorf("took %d shards, %d games; want %d and %d", len(b.Shards), len(b.Games), drainFactor, 2*drainFactor)
	}
	if err := l.Committed(); err != nil {
		t.Fatal(err)
	}
	// The other two wait for the next Collect.
	if b, err = l.Collect(ctx, 0, 2, func(string) bool { return false }); err != nil || len(b.Shards) != 2 {
		t.Errorf("next: %v (%v), want the 2 shards left", b, err)
	}
}
