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
