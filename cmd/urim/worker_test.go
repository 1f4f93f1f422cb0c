package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/urim-rl/urim/train"
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

// TestClusterStatusOfARunDirectory: cluster status --run DIR reaches a run's
// embedded server with no credentials in the environment, through the
// owner-only credentials file the server writes; a file others may read is
// refused, and the file is gone once the server stops.
func TestClusterStatusOfARunDirectory(t *testing.T) {
	run := t.TempDir()
	dir := filepath.Join(run, train.ClusterDir)
	emb, err := cluster.StartEmbedded(dir, "run")
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Shutdown()
	t.Setenv(cluster.EnvUser, "")
	t.Setenv(cluster.EnvPassword, "")
	code, out, errs := runCLI(t, "", "cluster", "status", "--run", run)
	if code != 0 || !strings.Contains(out, "no runs on") {
		t.Errorf("exit %d: %s%s", code, out, errs)
	}
	if strings.Contains(out+errs, emb.Learner.Password) {
		t.Error("the password was printed")
	}
	file := filepath.Join(dir, cluster.CredentialsFile)
	if fi, err := os.Stat(file); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Fatalf("credentials file: %v, %v; want mode 0600", fi, err)
	}
	if runtime.GOOS != "windows" {
		if err := os.Chmod(file, 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, errs := runCLI(t, "", "cluster", "status", "--run", run); code == 0 || !strings.Contains(errs, "chmod 600") {
			t.Errorf("a credentials file others may read: exit %d, %s", code, errs)
		}
	}
	if code, _, errs := runCLI(t, "", "cluster", "status", "--run", run, "--nats", emb.URL); code != 2 {
		t.Errorf("--run and --nats: exit %d, want 2 (%s)", code, errs)
	}
	emb.Shutdown()
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the credentials file outlived the server: %v", err)
	}
	if code, _, errs := runCLI(t, "", "cluster", "status", "--run", run); code == 0 || !strings.Contains(errs, "no credentials file") {
		t.Errorf("a stopped run: exit %d, %s", code, errs)
	}
}
