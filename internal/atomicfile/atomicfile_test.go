package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.bin")
	if err := WriteFile(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "two" {
		t.Fatalf("read %q, %v; want two", b, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != Mode {
		t.Fatalf("mode %v, %v; want %v", fi.Mode().Perm(), err, Mode)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory holds %d files, want only a.bin", len(entries))
	}
}

// TestWriteFailureKeepsOld: a failing write leaves the old file and no
// temporary file, and the error names the target.
func TestWriteFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.bin")
	if err := WriteFile(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "writing "+path) {
		t.Fatalf("error %v: want boom, naming %s", err, path)
	}
	b, _ := os.ReadFile(path)
	entries, _ := os.ReadDir(dir)
	if string(b) != "old" || len(entries) != 1 {
		t.Fatalf("after a failed write: %q and %d files; want old and 1", b, len(entries))
	}
}

// TestWriteBadTargets: a directory, or a file in a missing directory, is an
// error that names the target, not a temporary file.
func TestWriteBadTargets(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ path, want string }{
		{dir, dir + ": it is a directory"},
		{filepath.Join(dir, "none", "a.bin"), "cannot create a file in " + filepath.Join(dir, "none")},
	} {
		err := WriteFile(c.path, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), tmpInfix) {
			t.Errorf("WriteFile(%s): %v; want %q", c.path, err, c.want)
		}
	}
}

func TestIsTemp(t *testing.T) {
	dir := t.TempDir()
	f, err := os.CreateTemp(dir, ".x.npz"+tmpInfix+"*")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if !IsTemp(filepath.Base(f.Name())) || IsTemp("x.npz") || IsTemp("shard-00000.npz") {
		t.Fatal("IsTemp is wrong")
	}
}

func TestTempOf(t *testing.T) {
	dir := t.TempDir()
	f, err := os.CreateTemp(dir, ".shard-00001.npz"+tmpInfix+"*")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got, ok := TempOf(filepath.Base(f.Name())); !ok || got != "shard-00001.npz" {
		t.Fatalf("TempOf(%s) = %q, %v", filepath.Base(f.Name()), got, ok)
	}
	for _, name := range []string{"shard-00001.npz", ".tmp123", ".x.tmpfoo", ".notes.tmp.txt"} {
		if got, ok := TempOf(name); ok {
			t.Errorf("TempOf(%s) = %q, true; want false", name, got)
		}
	}
}
