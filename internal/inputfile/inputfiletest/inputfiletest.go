//go:build unix

// Package inputfiletest gives the tests of every reader the same hostile
// paths: what package inputfile must refuse.
package inputfiletest

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Paths returns, in a temporary directory, paths named name that are not
// regular files: symlinks to /dev/zero and /dev/urandom, a FIFO without a
// writer, and a directory. With URIM_TEST_NO_DEVICES set the symlinks are
// left out: to run a test against a reader without the check, which would
// read a device until memory runs out.
func Paths(t testing.TB, name string) []string {
	t.Helper()
	var out []string
	devices := []string{"/dev/zero", "/dev/urandom"}
	if os.Getenv("URIM_TEST_NO_DEVICES") != "" {
		devices = nil
	}
	for i, target := range devices {
		p := filepath.Join(t.TempDir(), string(rune('a'+i)), name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	fifo := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), name)
	os.Mkdir(dir, 0o755)
	return append(out, fifo, dir)
}

// Refused calls load on each of Paths and fails the test unless every call
// returns, within a few seconds, an error saying the path is not a regular
// file.
func Refused(t *testing.T, name string, load func(path string) error) {
	t.Helper()
	for _, p := range Paths(t, name) {
		done := make(chan error, 1)
		go func() { done <- load(p) }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: %v, want \"not a regular file\"", p, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: the reader blocked or ran away", p)
		}
	}
}
