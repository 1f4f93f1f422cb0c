//go:build unix

package cluster

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/urim-rl/urim/train"
)

// startWorker starts this test binary as worker id of the run on url,
// with env added to its environment.
func startWorker(t *testing.T, url, id string, creds Credentials, log *syncBuffer, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], url, "run", id)
	cmd.Env = append(append(append(os.Environ(), "URIM_CLUSTER_TEST_ROLE=worker"), creds.Env()...), env...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd
}

// TestWorkerKilledMidShard: a worker killed with SIGKILL loses only its
// games in progress: the run goes on with the other, a worker started
// again rejoins, and every game is trained on once.
func TestWorkerKilledMidShard(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyCluster(t, dir, "stop.iterations=6", "selfplay.games_per_iteration=24")
	cfg.Cluster.Workers = 0
	emb, err := StartEmbedded(filepath.Join(dir, "nats"), "run")
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Shutdown()
	cfg.Cluster.NATS = emb.URL
	t.Setenv(EnvUser, emb.Learner.User)
	t.Setenv(EnvPassword, emb.Learner.Password)
	log := newLog()
	l, err := OpenLearner(context.Background(), &cfg, LearnerOptions{Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rec := &recorder{Remote: l}
	done := make(chan error, 1)
	go func() {
		_, err := train.Run(context.Background(), cfg, train.Options{Log: log, Remote: rec})
		done <- err
	}()
	a := startWorker(t, emb.URL, "a", emb.Worker, log)
	startWorker(t, emb.URL, "b", emb.Worker, log)
	waitIteration(t, cfg.Output, 2, done)
	if err := a.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitIteration(t, cfg.Output, 4, done)
	startWorker(t, emb.URL, "a", emb.Worker, log)
	if err := <-done; err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	ids := map[string]bool{}
	for _, id := range rec.committed {
		if ids[id] {
			t.Errorf("shard %s trained on twice", id)
		}
		ids[id] = true
	}
	checkOnce(t, dir)
}

// TestLearnerKilledAndResumed: the learner (with its embedded server and
// local workers) killed with SIGKILL mid-run and resumed loses no shard and
// trains on none twice: the shards it held uncommitted come back, those it
// committed are not taken again.
func TestLearnerKilledAndResumed(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyCluster(t, dir, "stop.iterations=6", "selfplay.games_per_iteration=24")
	file := filepath.Join(dir, "config.yaml")
	b, err := cfg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	log := newLog()
	cmd := exec.Command(os.Args[0], file, "new")
	cmd.Env = append(os.Environ(), "URIM_CLUSTER_TEST_ROLE=learner")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	waitIteration(t, cfg.Output, 2, done)
	held := waitHeld(t, cfg.Output, done)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-done
	st, _, err := train.ReadState(cfg.Output)
	if err != nil {
		t.Fatal(err)
	}
	if st.Iteration != held {
		t.Fatalf("killed at iteration %d, not in iteration %d, whose shards were held", st.Iteration, held+1)
	}
	sum, err := runLearner(context.Background(), cfg, true, os.Stderr)
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, log)
	}
	if sum.Iterations != 6 {
		t.Errorf("%d iterations, want 6", sum.Iterations)
	}
	checkOnce(t, dir)
}

// waitHeld waits until the learner of the run in dir (a process with local
// workers, reached through its credentials file) holds shards it took after
// committing its last iteration, and returns that iteration: it is then
// inside the next one, shards held and not committed.
func waitHeld(t *testing.T, dir string, done <-chan error) int {
	t.Helper()
	url, creds, err := RunCredentials(dir)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := Connect(url, creds, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := testBudget(t)
	defer cancel()
	delivered := map[int]uint64{} // per committed iteration: the shards delivered when it was first seen
	held := 0
	if err := waitFor(t, done, func() bool {
		st, _, _ := train.ReadState(dir)
		c, err := js.Consumer(ctx, namesOf("run").stream, consumerName)
		if err != nil {
			return false
		}
		ci, err := c.Info(ctx)
		if err != nil {
			return false
		}
		d0, seen := delivered[st.Iteration]
		if !seen {
			delivered[st.Iteration] = ci.Delivered.Consumer
			return false
		}
		held = st.Iteration
		now, _, _ := train.ReadState(dir)
		return ci.Delivered.Consumer > d0 && ci.NumAckPending > 0 && now.Iteration == st.Iteration
	}); err != nil {
		t.Fatalf("the learner held no shards: %v", err)
	}
	return held
}
