package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

func TestNNNewInfoExport(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "net.ckpt")
	code, out, errs := runCLI(t, "", "nn", "new", "--arch", "resmlp", "--width", "32", "--depth", "2", "--layernorm",
		"--rules", "oware", "--encoding", "thermometer", "--seed", "5", "--out", ckpt)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "resmlp 2x32+ln") {
		t.Errorf("output %q", out)
	}
	n, err := nn.LoadNetFor(ckpt, env.Oware, env.EncodingThermometer)
	if err != nil {
		t.Fatal(err)
	}
	if n.Arch() != (nn.Arch{Kind: nn.KindResMLP, Width: 32, Depth: 2, LayerNorm: true}) {
		t.Fatalf("arch %v", n.Arch())
	}
	if code, out, errs = runCLI(t, "", "nn", "info", ckpt); code != 0 || !strings.Contains(out, "block.1.fc2.w [32 32]") {
		t.Fatalf("info: exit %d: %s%s", code, out, errs)
	}
	if code, out, errs = runCLI(t, "", "nn", "info", "--json", ckpt); code != 0 || !strings.Contains(out, `"kind": "resmlp"`) {
		t.Fatalf("info --json: exit %d: %s%s", code, out, errs)
	}
	npz := filepath.Join(dir, "net.npz")
	if code, _, errs = runCLI(t, "", "nn", "export", ckpt, "--npz", npz); code != 0 {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	if st, err := os.Stat(npz); err != nil || st.Size() == 0 {
		t.Fatalf("no npz: %v", err)
	}
	// Flags before the checkpoint work too.
	if code, _, errs = runCLI(t, "", "nn", "export", "--npz", filepath.Join(dir, "b.npz"), ckpt); code != 0 {
		t.Fatalf("export, flags first: exit %d: %s", code, errs)
	}
	if code, _, errs = runCLI(t, "", "nn", "export", ckpt, "extra", "--npz", npz); code != 2 || !strings.Contains(errs, "one checkpoint") {
		t.Fatalf("two arguments: exit %d: %s", code, errs)
	}
}

func TestNNErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.ckpt")
	os.WriteFile(bad, []byte("URIMNNCK\x01\x00\x00\x00"+strings.Repeat("garbage!", 8)), 0o644)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"nn"}, 2, "name a subcommand"},
		{[]string{"nn", "old"}, 2, "unknown subcommand"},
		{[]string{"nn", "new"}, 2, "--out is required"},
		{[]string{"nn", "new", "--arch", "cnn", "--out", "x"}, 2, "unknown architecture kind"},
		{[]string{"nn", "new", "--width", "0", "--out", "x"}, 2, "width 0"},
		{[]string{"nn", "new", "--encoding", "onehot", "--out", "x"}, 2, "--encoding"},
		{[]string{"nn", "new", "--rules", "nope", "--out", "x"}, 2, "preset"},
		{[]string{"nn", "info", bad}, 1, "corrupt checkpoint"},
		{[]string{"nn", "info", filepath.Join(dir, "missing")}, 1, "no such file"},
		{[]string{"nn", "export", bad}, 2, "--npz is required"},
	} {
		code, _, errs := runCLI(t, "", c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.msg)
		}
	}
	_, err := nn.Load(bad)
	if !errors.Is(err, nn.ErrCorrupt) && !errors.Is(err, nn.ErrTruncated) {
		t.Fatal(err)
	}
}
