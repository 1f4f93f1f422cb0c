package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSelfPlayInspectVerify(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	code, out, errs := urim(t, "", "selfplay", "--agent", "mcts:sims=10", "--opponent", "greedy", "--games", "4",
		"--out", dir, "--shard-size", "50", "--workers", "2", "--quiet")
	if code != 0 || !strings.Contains(out, "wrote "+dir+": 4 games") || !strings.Contains(out, "positions/s") {
		t.Fatalf("selfplay: status %d\n%s%s", code, out, errs)
	}
	code, out, errs = urim(t, "", "dataset", "inspect", dir)
	if code != 0 || !strings.Contains(out, "shards, games, positions") || !strings.Contains(out, "greedy") {
		t.Fatalf("inspect: status %d\n%s%s", code, out, errs)
	}
	code, out, errs = urim(t, "", "dataset", "verify", "--quiet", dir)
	if code != 0 || !strings.HasPrefix(out, "ok: ") {
		t.Fatalf("verify: status %d\n%s%s", code, out, errs)
	}
	// Again without --resume: refused; with it, nothing left to play.
	code, _, errs = urim(t, "", "selfplay", "--agent", "mcts:sims=10", "--opponent", "greedy", "--games", "4", "--out", dir, "--shard-size", "50", "--quiet")
	if code != 1 || !strings.Contains(errs, "already holds a dataset") {
		t.Fatalf("second run without --resume: status %d, %s", code, errs)
	}
	code, out, errs = urim(t, "", "selfplay", "--agent", "mcts:sims=10", "--opponent", "greedy", "--games", "4", "--out", dir, "--shard-size", "50", "--quiet", "--resume")
	if code != 0 || !strings.Contains(out, "resumed: 4 games") {
		t.Fatalf("--resume of a complete dataset: status %d\n%s%s", code, out, errs)
	}
	// A damaged shard: verify names it and fails.
	os.Remove(filepath.Join(dir, "shard-00000.npz"))
	code, _, errs = urim(t, "", "dataset", "verify", "--quiet", dir)
	if code != 1 || !strings.Contains(errs, "missing file: shard-00000.npz") {
		t.Fatalf("verify of a damaged dataset: status %d, %s", code, errs)
	}
}

func TestSelfPlayConfig(t *testing.T) {
	tmp := t.TempDir()
	cfg := filepath.Join(tmp, "sp.yaml")
	os.WriteFile(cfg, []byte("agent: greedy\ngames: 2\nout: "+filepath.Join(tmp, "ds")+"\nopenings: 0\n"), 0o644)
	code, out, errs := urim(t, "", "selfplay", "--config", cfg, "--games", "3", "--quiet")
	if code != 0 || !strings.Contains(out, ": 3 games") {
		t.Fatalf("selfplay --config: status %d\n%s%s", code, out, errs)
	}
	os.WriteFile(cfg, []byte("agent: random\ngamez: 2\n"), 0o644)
	code, _, errs = urim(t, "", "selfplay", "--config", cfg)
	if code != 1 || !strings.Contains(errs, cfg+":2: gamez: unknown key") {
		t.Fatalf("unknown key: status %d, %s", code, errs)
	}
	code, _, errs = urim(t, "", "selfplay", "--games", "2")
	if code != 2 || !strings.Contains(errs, "give --agent") {
		t.Fatalf("no agent: status %d, %s", code, errs)
	}
	code, _, errs = urim(t, "", "dataset", "check", tmp)
	if code != 2 || !strings.Contains(errs, "want inspect DIR or verify DIR") {
		t.Fatalf("dataset check: status %d, %s", code, errs)
	}
}
