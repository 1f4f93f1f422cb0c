package train

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ckptNames lists dir/checkpoints.
func ckptNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, ckptDir))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestPruneCheckpointsKeepsWhatItMust: the newest keep_last, the multiples
// of keep_every, the last and the best iteration and the pinned ones stay;
// the others go, and nothing the run did not write is touched (a
// non-canonical name, a symlink, other files, an uncommitted iteration).
func TestPruneCheckpointsKeepsWhatItMust(t *testing.T) {
	dir := t.TempDir()
	cdir := filepath.Join(dir, ckptDir)
	if err := os.MkdirAll(cdir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(cdir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for it := 0; it <= 13; it++ {
		if it != 1 {
			write(checkpointName(it))
		}
	}
	for _, name := range []string{"latest.ckpt", "best.ckpt", "iter-3.ckpt", "notes.txt"} {
		write(name)
	}
	outside := filepath.Join(dir, "mine.ckpt")
	if err := os.WriteFile(outside, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(cdir, checkpointName(1))); err != nil {
		t.Fatal(err)
	}
	st := State{Iteration: 12, Best: 4}
	if err := pruneCheckpoints(dir, st, Checkpoints{KeepLast: 3, KeepEvery: 5}, []int{7}); err != nil {
		t.Fatal(err)
	}
	want := []string{"best.ckpt", "iter-0000.ckpt", "iter-0001.ckpt", "iter-0004.ckpt", "iter-0005.ckpt", "iter-0007.ckpt",
		"iter-0010.ckpt", "iter-0011.ckpt", "iter-0012.ckpt", "iter-0013.ckpt", "iter-3.ckpt", "latest.ckpt", "notes.txt"}
	if got := ckptNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("kept %v\nwant %v", got, want)
	}
	if b, err := os.ReadFile(outside); err != nil || string(b) != "mine" {
		t.Errorf("the symlink's target changed: %q, %v", b, err)
	}
	// keep_every 1 keeps everything.
	if err := pruneCheckpoints(dir, State{Iteration: 12}, Checkpoints{KeepLast: 1, KeepEvery: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if got := ckptNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("keep_every 1 deleted: %v", got)
	}
}

// TestRetentionInARun: a PPO run keeping only its last checkpoint still
// keeps its best and its opponent pool, resumes from them (with a
// different retention, which a resume may change), and ends with the
// checkpoints its settings name.
func TestRetentionInARun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	var log bytes.Buffer
	// Pool of the 2 newest snapshots, one every iteration; evaluated at 2
	// only (gating off: best is the last evaluated).
	cfg := ppoTinyConfig(t, dir, "checkpoints.keep_last=1", "checkpoints.keep_every=0", "evaluation.every=2", "stop.iterations=5")
	if _, err := Run(context.Background(), cfg, Options{Log: &log}); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	st := readState(t, dir)
	// After 5: the last (5), the pool (4, 5) and the best (4, rated at 4).
	want := []string{"best.ckpt", checkpointName(st.Best), "iter-0004.ckpt", "iter-0005.ckpt", "latest.ckpt"}
	want = slices.Compact(sortedStrings(want))
	if got := ckptNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("after 5 iterations, best %d: %v, want %v", st.Best, got, want)
	}
	cfg = ppoTinyConfig(t, dir, "checkpoints.keep_last=2", "checkpoints.keep_every=3", "evaluation.every=2", "stop.iterations=7")
	log.Reset()
	if _, err := Run(context.Background(), cfg, Options{Resume: true, Log: &log}); err != nil {
		t.Fatalf("resume with other retention: %v\n%s", err, log.String())
	}
	// PPO keeps no replay buffer, and its resume does not mention one.
	if !strings.Contains(log.String(), "train: resuming "+dir+" after iteration 5\n") || strings.Contains(log.String(), "replay") {
		t.Errorf("PPO's resume line:\n%s", log.String())
	}
	st = readState(t, dir)
	want = slices.Compact(sortedStrings([]string{"best.ckpt", "latest.ckpt", checkpointName(st.Best),
		"iter-0006.ckpt", "iter-0007.ckpt"}))
	if got := ckptNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("after 7 iterations, best %d: %v, want %v", st.Best, got, want)
	}
}

func sortedStrings(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
