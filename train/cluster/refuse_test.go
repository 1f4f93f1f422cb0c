package cluster

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestRefusedShardsAreCountedAndNamed: shards of other rules or builds,
// and shards played by a network more than max_lag versions old, are
// dropped, counted and logged with the worker's name; the next good shard
// is taken.
func TestRefusedShardsAreCountedAndNamed(t *testing.T) {
	l, _, log := openTestLearner(t, "cluster.max_lag=1")
	ctx, cancel := testBudget(t)
	defer cancel()
	// Two shards of network 0, then (below) three more versions: too old.
	if err := RunWorker(ctx, WorkerOptions{URL: l.emb.URL, Credentials: l.emb.Worker, Run: "run", ID: "old", Threads: 1, Log: log, MaxShards: 2}); err != nil {
		t.Fatal(err)
	}
	nc, err := ConnectRun(l.emb.URL, l.emb.Worker, "test", "run")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	// A shard of other rules and one of another build, copied from a good
	// one.
	good := fetchOne(t, l)
	for i, h := range []map[string]string{{hdrRules: "0123456789abcdef", hdrWorker: "strange-rules"}, {hdrBuild: "p0 v0.0.1", hdrWorker: "old-build"}} {
		m := nats.NewMsg(l.res.n.shards + ".x")
		m.Data = good.Data()
		for k, v := range good.Headers() {
			m.Header[k] = v
		}
		for k, v := range h {
			m.Header.Set(k, v)
		}
		id := "bad-" + string(rune('a'+i))
		m.Header.Set(hdrShard, id)
		if _, err := js.PublishMsg(ctx, m, jetstream.WithMsgID(id)); err != nil {
			t.Fatal(err)
		}
	}
	// A worker may not publish to another run's subjects.
	short, cancelShort := context.WithTimeout(ctx, 2*time.Second)
	defer cancelShort()
	if _, err := js.Publish(short, "urim.other.shards.x", []byte("x")); err == nil {
		t.Error("a worker published to another run's subject")
	}
	for v := 1; v <= 3; v++ {
		if err := l.Publish(ctx, v, l.testNet); err != nil {
			t.Fatal(err)
		}
	}
	if err := RunWorker(ctx, WorkerOptions{URL: l.emb.URL, Credentials: l.emb.Worker, Run: "run", ID: "new", Threads: 1, Log: log, MaxShards: 1}); err != nil {
		t.Fatal(err)
	}
	b, err := l.Collect(ctx, 3, 1, func(string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	if b.DroppedLag != 1 || b.DroppedRefused != 2 || len(b.Shards) != 1 || !strings.HasPrefix(b.Shards[0], "new-") {
		t.Errorf("dropped %d too old and %d refused, kept %v; want 1, 2 and new's shard\n%s", b.DroppedLag, b.DroppedRefused, b.Shards, log)
	}
	for _, want := range []string{"worker strange-rules: shard bad-a: rules 0123456789abcdef", "worker old-build: shard bad-b: build", "dropped 1 shard too old (played by networks more than max_lag 1 versions older than 3): worker old 1"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log does not say %q:\n%s", want, log)
		}
	}
	if err := l.Committed(); err != nil {
		t.Fatal(err)
	}
}

// fetchOne takes one shard through the learner's consumer and acknowledges
// it (it is not trained on: the test copies it).
func fetchOne(t *testing.T, l *Learner) jetstream.Msg {
	t.Helper()
	b, err := l.cons.Fetch(1, jetstream.FetchMaxWait(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for m := range b.Messages() {
		if err := m.DoubleAck(context.Background()); err != nil {
			t.Fatal(err)
		}
		return m
	}
	t.Fatalf("no shard: %v", b.Error())
	return nil
}
