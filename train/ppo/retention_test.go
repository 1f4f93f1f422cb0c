package ppo

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urim-rl/urim/train"
	"github.com/urim-rl/urim/train/internal/traintest"
)

// ckptNames lists dir/checkpoints, sorted.
func ckptNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "checkpoints"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
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
	if _, err := train.Run(context.Background(), cfg, train.Options{Log: &log}); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	st := traintest.ReadState(t, dir)
	// After 5: the last (5), the pool (4, 5) and the best (4, rated at 4).
	want := []string{"best.ckpt", fmt.Sprintf("iter-%04d.ckpt", st.Best), "iter-0004.ckpt", "iter-0005.ckpt", "latest.ckpt"}
	want = slices.Compact(sortedStrings(want))
	if got := ckptNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("after 5 iterations, best %d: %v, want %v", st.Best, got, want)
	}
	cfg = ppoTinyConfig(t, dir, "checkpoints.keep_last=2", "checkpoints.keep_every=3", "evaluation.every=2", "stop.iterations=7")
	log.Reset()
	if _, err := train.Run(context.Background(), cfg, train.Options{Resume: true, Log: &log}); err != nil {
		t.Fatalf("resume with other retention: %v\n%s", err, log.String())
	}
	// PPO keeps no replay buffer, and its resume does not mention one.
	if !strings.Contains(log.String(), "train: resuming "+dir+" after iteration 5\n") || strings.Contains(log.String(), "replay") {
		t.Errorf("PPO's resume line:\n%s", log.String())
	}
	st = traintest.ReadState(t, dir)
	want = slices.Compact(sortedStrings([]string{"best.ckpt", "latest.ckpt", fmt.Sprintf("iter-%04d.ckpt", st.Best),
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
