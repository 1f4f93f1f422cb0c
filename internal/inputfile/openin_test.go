package inputfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenIn: a file inside the root is read; a symlink out of the root,
// a directory and a missing file are refused; the limit holds.
func TestOpenIn(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "out.txt"), []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "out.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if b, err := ReadFileIn(root, "in.txt", 100, "a test file"); err != nil || string(b) != "inside" {
		t.Fatalf("in.txt: %q, %v", b, err)
	}
	if b, err := ReadFileIn(root, "link.txt", 100, "a test file"); err == nil {
		t.Fatalf("read %q through a symlink out of the root", b)
	}
	if _, err := ReadFileIn(root, ".", 100, "a test file"); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("the directory: %v", err)
	}
	if _, err := ReadFileIn(root, "none.txt", 100, "a test file"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file: %v", err)
	}
	if _, err := ReadFileIn(root, "in.txt", 3, "a test file"); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
}
