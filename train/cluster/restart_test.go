package cluster

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// restartable is a standalone loopback server that can be stopped and
// started again on its port and storage, as an operator restarts one.
type restartable struct {
	t    *testing.T
	opts server.Options
	srv  *server.Server
}

// start starts the server, on the port it picked the first time.
func (r *restartable) start() error {
	opts := r.opts
	srv, err := natsServer(r.t, &opts)
	if err != nil {
		return err
	}
	r.srv = srv
	r.opts.Port = srv.Addr().(*net.TCPAddr).Port
	return nil
}

func (r *restartable) stop() { r.srv.Shutdown(); r.srv.WaitForShutdown() }

// TestCommittedAfterServerRestart: the standalone server is stopped while
// the learner holds shards to acknowledge. Restarted within the budget,
// the learner says what it waits for and acknowledges them; left down, it
// fails within the budget with an error that says what it waited for.
func TestCommittedAfterServerRestart(t *testing.T) {
	defer func(b, n time.Duration) { ackBudget, ackNote = b, n }(ackBudget, ackNote)
	ackBudget, ackNote = 8*time.Second, time.Second
	learner := Credentials{User: "learner", Password: secret()}
	worker := Credentials{User: "worker-run", Password: secret()}
	r := &restartable{t: t, opts: server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoSigs: true, NoLog: true,
		JetStream: true, StoreDir: t.TempDir(), MaxPayload: maxPayload, Users: []*server.User{
			{Username: learner.User, Password: learner.Password},
			{Username: worker.User, Password: worker.Password, Permissions: workerPermissions(namesOf("run"))}}}}
	if err := r.start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r.srv != nil {
			r.stop()
		}
	}()
	url := r.srv.ClientURL()
	log := newLog()
	l := openRunLearner(t, url, learner, "run")
	l.log = log
	ctx, cancel := testBudget(t)
	defer cancel()
	collect := func() {
		t.Helper()
		if err := RunWorker(ctx, WorkerOptions{URL: url, Credentials: worker, Run: "run", ID: "w", Threads: 1, MaxShards: 1}); err != nil {
			t.Fatal(err)
		}
		if b, err := l.Collect(ctx, 0, 1, func(string) bool { return false }); err != nil || len(b.Shards) == 0 {
			t.Fatalf("took %v: %v", b, err)
		}
	}
	collect()
	r.stop()
	// Started again once the learner says what it waits for, however long
	// that takes on a loaded machine.
	restarted, committed := make(chan error, 1), make(chan error)
	go func() {
		if err := waitFor(t, committed, func() bool { return strings.Contains(log.String(), "waiting for the NATS server at") }); err != nil {
			restarted <- fmt.Errorf("no note of the wait in the log: the acknowledgements: %v", err)
			return
		}
		restarted <- r.start()
	}()
	start := time.Now()
	err := l.Committed()
	close(committed)
	if rerr := <-restarted; rerr != nil {
		t.Fatalf("%v\n%s", rerr, log)
	}
	if err != nil {
		t.Fatalf("after a restart within the budget: %v\n%s", err, log)
	}
	if took := time.Since(start); took > ackBudget+2*time.Second || !strings.Contains(log.String(), "waiting for the NATS server at") {
		t.Errorf("acknowledged after %v (budget %v); the log:\n%q", took, ackBudget, log.String())
	}
	collect()
	r.stop()
	r.srv = nil
	start = time.Now()
	err = l.Committed()
	if took := time.Since(start); err == nil || took > ackBudget+7*time.Second || !strings.Contains(err.Error(), "confirmed none of the last 1 shards' acknowledgements in 8s") {
		t.Fatalf("with the server down: after %v: %v", took, err)
	}
}
