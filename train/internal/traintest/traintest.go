// Package traintest holds what the algorithm packages' run tests share: a
// training child process to kill, and checks of a run directory and its
// dataset.
package traintest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/train"

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)

// The kill tests run their test binary as a child that trains (see
// ChildMain), in the directory childEnv names, from the config file
// childConfigEnv names.
const (
	childEnv       = "URIM_TRAIN_TEST_CHILD"
	childConfigEnv = "URIM_TRAIN_TEST_CHILD_CONFIG"
)

// ChildMain is a test binary's TestMain: in a child that KillChildRun
// started it trains until killed; otherwise it runs the tests.
func ChildMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		cfg, err := train.LoadConfig(os.Getenv(childConfigEnv),
			[]string{"output=" + dir, "stop.iterations=1000", "evaluation.every=3", "optimizer.schedule=constant"})
		if err == nil {
			cfg.Dataset = train.Dataset{Dir: dir + "-data", ShardSize: 40}
			_, err = train.Run(context.Background(), cfg, train.Options{})
		}
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// KillChildRun trains config's run in dir in a child process (the test
// binary, through ChildMain; its dataset in dir-data, shards of 40
// positions, evaluation every 3 iterations, a constant learning rate) and
// kills it with SIGKILL once it has committed the given iterations.
func KillChildRun(t *testing.T, dir, config string, iterations int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+dir, childConfigEnv+"="+config)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if st, ok, _ := train.ReadState(dir); ok && st.Iteration >= iterations {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the child made no progress in 60s: %s", stderr.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
}

// ReadState reads the run's state.json, failing the test without one.
func ReadState(t *testing.T, dir string) train.State {
	t.Helper()
	st, ok, err := train.ReadState(dir)
	if err != nil || !ok {
		t.Fatalf("state of %s: %v (found %v)", dir, err, ok)
	}
	return st
}

// DatasetShards lists the shards of the dataset in dir (file names and
// digests), failing unless it verifies: every game replays through the
// rules engine to its stored rows.
func DatasetShards(t *testing.T, dir string) []dataset.ShardInfo {
	t.Helper()
	if _, err := dataset.Verify(context.Background(), dir, nil); err != nil {
		t.Fatalf("urim dataset verify %s: %v", dir, err)
	}
	m, err := dataset.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m.Shards
}
