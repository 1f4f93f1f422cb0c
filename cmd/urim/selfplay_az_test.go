package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn/nntest"
)

// urim selfplay with an az agent playing itself (the lock-step driver, in
// groups of --games-in-lockstep) writes the same shards with one worker as
// with two, and refuses a bad group size by its key.
func TestSelfPlayAZWorkersSameBytes(t *testing.T) {
	agent := "az:ckpt=" + nntest.Checkpoint(t, env.Urim, 8, 3) + ",sims=4"
	base := t.TempDir()
	for _, w := range []string{"1", "2"} {
		code, _, errs := urim(t, "", "selfplay", "--agent", agent, "--games", "5", "--games-in-lockstep", "2",
			"--workers", w, "--shard-size", "100", "--out", filepath.Join(base, w), "--quiet")
		if code != 0 {
			t.Fatalf("--workers %s: exit %d: %s", w, code, errs)
		}
	}
	m, err := dataset.ReadManifest(filepath.Join(base, "1"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(m.Config), `"games_in_lockstep": 2`) {
		t.Errorf("the manifest's config %s lacks games_in_lockstep", m.Config)
	}
	for _, sh := range m.Shards {
		for _, name := range []string{sh.Tensors, sh.Games} {
			one, err1 := os.ReadFile(filepath.Join(base, "1", name))
			two, err2 := os.ReadFile(filepath.Join(base, "2", name))
			if err1 != nil || err2 != nil || !bytes.Equal(one, two) {
				t.Errorf("%s differs between one and two workers (%v, %v)", name, err1, err2)
			}
		}
	}
	code, _, errs := urim(t, "", "selfplay", "--agent", agent, "--games", "2", "--games-in-lockstep", "-1",
		"--out", filepath.Join(base, "bad"), "--quiet")
	if code == 0 || !strings.Contains(errs, "games_in_lockstep") {
		t.Errorf("--games-in-lockstep -1: exit %d, %q", code, errs)
	}
}
