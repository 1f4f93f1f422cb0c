//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWritePrivate: a private file is the owner's alone (0600), also when
// it replaces a file readable by everyone.
func TestWritePrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "secret")
	if err := WriteFile(path, []byte("public")); err != nil {
		t.Fatal(err)
	}
	if err := WritePrivate(path, []byte("secret")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if b, _ := os.ReadFile(path); string(b) != "secret" {
		t.Fatalf("read %q", b)
	}
}
