package train

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/internal/lockfile"
)

// TestRunDirLocked: a run directory another process holds is refused, new
// or resumed, with the holder named; a stale lock file is taken over with a
// note.
func TestRunDirLocked(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	os.MkdirAll(dir, 0o755)
	l, err := lockfile.Dir(dir, "urim train")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), tinyConfig(t, dir, "stop.iterations=1"), Options{})
	if !errors.Is(err, lockfile.ErrLocked) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("Run on a locked directory: %v, want ErrLocked naming it", err)
	}
	if _, err := os.Stat(filepath.Join(dir, configFile)); err == nil {
		t.Fatal("the refused run wrote config.yaml")
	}
	l.Release()
	os.WriteFile(filepath.Join(dir, lockfile.DirName), []byte("pid 999999 on host gone (urim train) since 2026-01-01T00:00:00Z\n"), 0o644)
	var log bytes.Buffer
	if _, err := Run(context.Background(), tinyConfig(t, dir, "stop.iterations=1"), Options{Log: &log}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "stale lock of pid 999999") {
		t.Errorf("no note of the stale lock taken over:\n%s", log.String())
	}
	if _, err := os.Stat(filepath.Join(dir, lockfile.DirName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file outlived the run: %v", err)
	}
}

// TestRunRefusesForeignDir: a new run in a directory holding other files is
// refused, and a resume deletes none of the files there that merely look
// like the run's temporary files.
func TestRunRefusesForeignDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mine")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("mine"), 0o644)
	_, err := Run(context.Background(), tinyConfig(t, dir, "stop.iterations=1"), Options{})
	if err == nil || !strings.Contains(err.Error(), "thesis.tex") {
		t.Fatalf("Run into a foreign directory: %v, want a refusal naming its file", err)
	}

	run := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), tinyConfig(t, run, "stop.iterations=1"), Options{}); err != nil {
		t.Fatal(err)
	}
	foreign := []string{".thesis.tex.tmp", ".notes.tmp42", "checkpoints/.draft.tmp7"}
	for _, f := range foreign {
		os.WriteFile(filepath.Join(run, f), []byte("mine"), 0o644)
	}
	if _, err := Run(context.Background(), tinyConfig(t, run, "stop.iterations=1"), Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	for _, f := range foreign {
		if _, err := os.Stat(filepath.Join(run, f)); err != nil {
			t.Errorf("resume deleted %s: %v", f, err)
		}
	}
}
