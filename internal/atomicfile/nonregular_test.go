//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteRefusesNonRegular: a target that is a FIFO or a symlink to a
// device is refused, and left as it was. (Never a device itself: code
// without the check, run as root, would replace it.)
func TestWriteRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	null := filepath.Join(dir, "null.ckpt")
	if err := os.Symlink("/dev/null", null); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{fifo, "it is a FIFO, not a regular file"},
		{null, "it is a character device, not a regular file"},
	} {
		err := WriteFile(c.path, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("WriteFile(%s): %v; want %q", c.path, err, c.want)
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}
	if target, err := os.Readlink(null); err != nil || target != "/dev/null" {
		t.Errorf("the symlink was replaced: %q %v", target, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("the directory holds %d entries, want the 2 it had", len(entries))
	}
}
