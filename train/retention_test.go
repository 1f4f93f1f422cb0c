package train

import (
	"os"
	"path/filepath"
	"slices"
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

func sortedStrings(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
