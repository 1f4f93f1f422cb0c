package cluster

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/urim-rl/urim/train"
)

// startServer starts a loopback JetStream server in dir whose users are
// the learner (every subject) and, for each run, its workers (the
// permissions of workerPermissions), as a standalone server of several runs
// is set up (docs/distributed.md).
func startServer(t *testing.T, dir string, runs ...string) (string, Credentials, map[string]Credentials) {
	t.Helper()
	learner := Credentials{User: "learner", Password: secret()}
	users := []*server.User{{Username: learner.User, Password: learner.Password}}
	workers := map[string]Credentials{}
	for _, run := range runs {
		c := Credentials{User: "worker-" + run, Password: secret()}
		users = append(users, &server.User{Username: c.User, Password: c.Password, Permissions: workerPermissions(namesOf(run))})
		workers[run] = c
	}
	srv, err := natsServer(t, &server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoSigs: true, NoLog: true,
		JetStream: true, StoreDir: dir, MaxPayload: maxPayload, Users: users})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	return srv.ClientURL(), learner, workers
}

// openRunLearner opens the learner of run on the server at url and
// publishes its network 0.
func openRunLearner(t *testing.T, url string, learner Credentials, run string) *Learner {
	t.Helper()
	dir := t.TempDir()
	cfg := tinyCluster(t, dir, "cluster.workers=0", "cluster.nats="+url, "cluster.run="+run)
	t.Setenv(EnvUser, learner.User)
	t.Setenv(EnvPassword, learner.Password)
	l, err := OpenLearner(context.Background(), &cfg, LearnerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
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
	return l
}

// TestWorkerSeesNothingOfAnotherRun: on a server of two runs, a worker of
// run a that subscribes to everything it may try (every subject, every
// inbox, run b's subjects) receives nothing while run b's worker plays and
// its learner takes the shards, and cannot read run b's streams; run a's
// own worker still plays.
func TestWorkerSeesNothingOfAnotherRun(t *testing.T) {
	url, learner, workers := startServer(t, t.TempDir(), "a", "b")
	la := openRunLearner(t, url, learner, "a")
	lb := openRunLearner(t, url, learner, "b")
	spy, err := ConnectRun(url, workers["a"], "spy", "a")
	if err != nil {
		t.Fatal(err)
	}
	defer spy.Close()
	// Synchronous subscriptions: nothing takes their messages, so what they
	// hold is all the spy received.
	var subs []*nats.Subscription
	for _, subj := range []string{">", "_INBOX.>", "_URIM_INBOX.>", InboxPrefix("b") + ".>", InboxPrefix("a") + ".>", "urim.b.>", "$JS.>", "$KV.>"} {
		sub, err := spy.SubscribeSync(subj)
		if err != nil {
			t.Fatal(err)
		}
		subs = append(subs, sub)
	}
	spy.Flush()
	ctx, cancel := testBudget(t)
	defer cancel()
	if err := RunWorker(ctx, WorkerOptions{URL: url, Credentials: workers["b"], Run: "b", ID: "wb", Threads: 1, MaxShards: 2}); err != nil {
		t.Fatal(err)
	}
	bb, err := lb.Collect(ctx, 0, 1, func(string) bool { return false })
	if err != nil || len(bb.Shards) == 0 {
		t.Fatalf("run b's learner took %v: %v", bb, err)
	}
	if err := lb.Committed(); err != nil {
		t.Fatal(err)
	}
	// The server queues what it sends the spy in order: once the spy's
	// round trip, begun after run b's last acknowledgement was confirmed,
	// is back, the spy holds whatever the server sent it of run b till then.
	if err := spy.Flush(); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, sub := range subs {
		for {
			m, err := sub.NextMsg(0)
			if err != nil {
				break
			}
			n++
			t.Logf("the spy got %s on %s", m.Subject, sub.Subject)
		}
	}
	if n != 0 {
		t.Errorf("a worker of run a received %d messages of run b", n)
	}
	// Run b's streams, buckets and objects are not run a's worker's to read.
	js, _ := jetstream.New(spy)
	short, cancelShort := context.WithTimeout(ctx, 2*time.Second)
	defer cancelShort()
	if _, err := js.Stream(short, namesOf("b").stream); err == nil {
		t.Error("run a's worker read run b's shard stream")
	}
	if _, err := spy.Request("$JS.API.STREAM.MSG.GET."+namesOf("b").stream, []byte(`{"seq":1}`), time.Second); err == nil {
		t.Error("run a's worker got a message of run b's shard stream")
	}
	if _, err := js.KeyValue(short, namesOf("b").kv); err == nil {
		t.Error("run a's worker opened run b's bucket")
	}
	// Its own run works: it fetches the network and publishes shards.
	if err := RunWorker(ctx, WorkerOptions{URL: url, Credentials: workers["a"], Run: "a", ID: "wa", Threads: 1, MaxShards: 1}); err != nil {
		t.Fatal(err)
	}
	ba, err := la.Collect(ctx, 0, 1, func(string) bool { return false })
	if err != nil || len(ba.Shards) == 0 {
		t.Fatalf("run a's learner took %v: %v", ba, err)
	}
}
