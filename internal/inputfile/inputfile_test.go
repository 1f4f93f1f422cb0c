//go:build unix

package inputfile

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFileRegular(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a")
	os.WriteFile(path, []byte("hello"), 0o644)
	for _, limit := range []int64{5, 6, 1 << 20} {
		b, err := ReadFile(path, limit, "a greeting")
		if err != nil || string(b) != "hello" {
			t.Fatalf("limit %d: %q, %v", limit, b, err)
		}
	}
	_, err := ReadFile(path, 4, "a greeting")
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "a greeting") ||
		!strings.Contains(err.Error(), "at most 4 bytes") {
		t.Fatalf("a 5-byte file with limit 4: %v", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing"), 10, ""); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v, want ErrNotExist", err)
	}
}

// TestRefusesNonRegular: devices (directly or through a symlink), a FIFO
// with no writer (without blocking the test) and a directory are refused
// before anything is read.
func TestRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "zero.ckpt")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", "/dev/urandom", link, fifo, dir} {
		done := make(chan error, 1)
		go func() {
			_, err := ReadFile(path, 1<<30, "a checkpoint")
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), path) {
				t.Errorf("%s: %v, want ErrNotRegular naming it", path, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: ReadFile blocked", path)
		}
	}
}

// TestOpenLimitWhileReading: a file that grows past the limit after Open
// fails at the limit, not at its end.
func TestOpenLimitWhileReading(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a")
	os.WriteFile(path, []byte("abc"), 0o644)
	f, err := Open(path, 4, "")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	os.WriteFile(path, []byte("abcdefgh"), 0o644)
	b, err := io.ReadAll(f)
	if !errors.Is(err, ErrTooLarge) || len(b) != 4 {
		t.Fatalf("read %q, %v; want 4 bytes and ErrTooLarge", b, err)
	}
	if _, err := f.Read(make([]byte, 8)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a read after the limit: %v", err)
	}
}

// TestNoLimit: math.MaxInt64 as the limit means none.
func TestNoLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a")
	os.WriteFile(path, []byte("hello"), 0o644)
	b, err := ReadFile(path, math.MaxInt64, "")
	if err != nil || string(b) != "hello" {
		t.Fatalf("%q, %v", b, err)
	}
}
