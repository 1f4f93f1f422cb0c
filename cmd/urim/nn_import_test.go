package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urim-rl/urim/nn"
)

func TestNNImportInvertsExport(t *testing.T) {
	dir := t.TempDir()
	ckpt, npz, back := filepath.Join(dir, "net.ckpt"), filepath.Join(dir, "net.npz"), filepath.Join(dir, "back.ckpt")
	if code, _, errs := runCLI(t, "", "nn", "new", "--width", "16", "--depth", "2", "--layernorm", "--out", ckpt); code != 0 {
		t.Fatalf("new: %s", errs)
	}
	if code, _, errs := runCLI(t, "", "nn", "export", ckpt, "--npz", npz); code != 0 {
		t.Fatalf("export: %s", errs)
	}
	if code, out, errs := runCLI(t, "", "nn", "import", "--npz", npz, "--out", back); code != 0 || !strings.Contains(out, "wrote") {
		t.Fatalf("import: exit %d: %s%s", code, out, errs)
	}
	a, err := nn.LoadNet(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := nn.LoadNet(back)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range a.Params() {
		if !slices.Equal(p.W, b.Params()[i].W) {
			t.Fatalf("tensor %s differs after the round trip", p.Name)
		}
	}
	// A corrupt archive and missing flags are refused.
	bad := filepath.Join(dir, "bad.npz")
	if err := os.WriteFile(bad, []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI(t, "", "nn", "import", "--npz", bad, "--out", filepath.Join(dir, "x.ckpt")); code == 0 || !strings.Contains(errs, "corrupt") {
		t.Fatalf("corrupt archive: exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(t, "", "nn", "import", "--npz", npz); code != 2 {
		t.Fatalf("no --out: exit %d: %s", code, errs)
	}
}
