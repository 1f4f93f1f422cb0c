package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/train/cluster"
)

func TestWorkerAndClusterUsage(t *testing.T) {
	for _, args := range [][]string{{"worker"}, {"worker", "--nats", "nats://127.0.0.1:1", "--threads", "-1"}, {"cluster"}, {"cluster", "status"}, {"cluster", "stats", "--nats", "nats://x"}} {
		if code, _, errs := runCLI(t, "", args...); code != 2 {
			t.Errorf("urim %s: exit %d, want 2 (%s)", strings.Join(args, " "), code, errs)
		}
	}
}

func TestClusterStatusOfAnEmptyServer(t *testing.T) {
	emb, err := cluster.StartEmbedded(filepath.Join(t.TempDir(), "nats"), "run")
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Shutdown()
	t.Setenv(cluster.EnvUser, emb.Learner.User)
	t.Setenv(cluster.EnvPassword, emb.Learner.Password)
	code, out, errs := runCLI(t, "", "cluster", "status", "--nats", emb.URL)
	if code != 0 || !strings.Contains(out, "no runs on") {
		t.Errorf("exit %d: %s%s", code, out, errs)
	}
	if strings.Contains(out+errs, emb.Learner.Password) {
		t.Error("the password was printed")
	}
	t.Setenv(cluster.EnvPassword, "wrong")
	if code, _, errs := runCLI(t, "", "cluster", "status", "--nats", emb.URL); code == 0 || strings.Contains(errs, "wrong") {
		t.Errorf("a wrong password: exit %d, %s", code, errs)
	}
}
