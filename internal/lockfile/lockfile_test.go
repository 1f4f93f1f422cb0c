//go:build unix

package lockfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

func TestDirLockExcludesAndReleases(t *testing.T) {
	dir := t.TempDir()
	l, err := Dir(dir, "urim train")
	if err != nil {
		t.Fatal(err)
	}
	if l.Stale != "" {
		t.Errorf("a fresh lock reports a stale holder %q", l.Stale)
	}
	_, err = Dir(dir, "urim train")
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "urim train") ||
		!strings.Contains(err.Error(), filepath.Join(dir, DirName)) || Pid(strings.TrimPrefix(err.Error(), ErrLocked.Error()+": ")) != os.Getpid() {
		t.Fatalf("second lock: %v; want ErrLocked naming this pid, the command and the file", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, DirName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the lock file is still there after Release: %v", err)
	}
	l2, err := Dir(dir, "urim selfplay")
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	l2.Release()
	l2.Release() // twice is fine
}

// TestStaleLockTakenOver: a lock file whose holder died (nobody holds the
// flock) is taken over and its holder reported.
func TestStaleLockTakenOver(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, DirName), []byte("pid 999999 on host elsewhere (urim train) since 2026-01-01T00:00:00Z\n"), 0o644)
	l, err := Dir(dir, "urim train")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if Pid(l.Stale) != 999999 || !strings.Contains(l.Stale, "elsewhere") {
		t.Fatalf("Stale = %q, want the dead holder", l.Stale)
	}
	b, _ := os.ReadFile(l.Path())
	if Pid(string(b)) != os.Getpid() {
		t.Fatalf("the lock file says %q, want this pid", b)
	}
}

// TestLockRace: of goroutines that lock and release one directory over and
// over, never two hold it at once.
func TestLockRace(t *testing.T) {
	dir := t.TempDir()
	var holders, most atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				l, err := Dir(dir, "test")
				if err != nil {
					if !errors.Is(err, ErrLocked) {
						t.Error(err)
						return
					}
					continue
				}
				n := holders.Add(1)
				if n > most.Load() {
					most.Store(n)
				}
				holders.Add(-1)
				l.Release()
			}
		}()
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Fatalf("%d holders at once", most.Load())
	}
}
