//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestTablebaseBuildRefusesFIFO: --out naming a FIFO is refused before the
// build, which would otherwise run to its end and only then fail to write.
func TestTablebaseBuildRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "t.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "", "tablebase", "build", "--max-seeds", "3", "--out", fifo)
	if code != 1 || !strings.Contains(errs, fifo+" is not a regular file") || out != "" || strings.Contains(errs, "sweep") {
		t.Errorf("--out FIFO: exit %d, stdout %q, stderr %q; want a refusal before any sweep", code, out, errs)
	}
}
