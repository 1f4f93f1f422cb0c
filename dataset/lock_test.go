package dataset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/internal/lockfile"
)

// TestSelfPlayLocked: self-play into a directory another process holds is
// refused, and runs once the lock is gone.
func TestSelfPlayLocked(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	cfg := resumeConfig(dir)
	cfg.Games = 2
	if _, err := SelfPlay(context.Background(), cfg, false, nil); err != nil {
		t.Fatal(err)
	}
	l, err := lockfile.Dir(dir, "another selfplay")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Games = 4
	if _, err := SelfPlay(context.Background(), cfg, true, nil); !errors.Is(err, lockfile.ErrLocked) {
		t.Fatalf("SelfPlay on a locked directory: %v, want ErrLocked", err)
	}
	l.Release()
	if _, err := SelfPlay(context.Background(), cfg, true, nil); err != nil {
		t.Fatalf("SelfPlay after the lock was released: %v", err)
	}
	// A lock file left by a killed run is taken over and reported.
	os.WriteFile(filepath.Join(dir, lockfile.DirName), []byte("pid 999999 on host gone (urim selfplay) since 2026-01-01T00:00:00Z\n"), 0o644)
	cfg.Games = 5
	res, err := SelfPlay(context.Background(), cfg, true, nil)
	if err != nil || lockfile.Pid(res.StaleLock) != 999999 {
		t.Fatalf("SelfPlay over a stale lock: %v, stale %q", err, res.StaleLock)
	}
}
