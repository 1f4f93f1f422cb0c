package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelpIsCurrent: the help texts and the canonical config describe the
// tree as it is: train does PPO as well as AlphaZero, demo is not a stand-in
// for training, PPO is implemented.
func TestHelpIsCurrent(t *testing.T) {
	_, out, _ := urim(t, "", "--help")
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "train ") && !strings.Contains(l, "PPO") {
			t.Errorf("urim --help describes train as AlphaZero only: %q", l)
		}
	}
	stale := map[string][]string{
		"demo":  {"until training", "arrives"},
		"train": {"five minutes", "takes under 10 minutes"},
	}
	for cmd, phrases := range stale {
		_, out, _ := urim(t, "", cmd, "--help")
		for _, p := range phrases {
			if strings.Contains(out, p) {
				t.Errorf("urim %s --help still says %q", cmd, p)
			}
		}
	}
	cfg, err := os.ReadFile(filepath.Join("..", "..", "configs", "urim.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cfg), "not implemented") {
		t.Errorf("configs/urim.yaml says an algorithm is not implemented")
	}
	// The rules are docs/rules.md; no file cites a RULES.md the tree lacks.
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "RULES.md")); err == nil {
		return
	}
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "runs" || d.Name() == "data") {
			return filepath.SkipDir
		}
		if ext := filepath.Ext(p); d.Type().IsRegular() && (ext == ".go" || ext == ".md" || ext == ".yaml") && !strings.HasSuffix(p, "stale_test.go") {
			b, err := os.ReadFile(p)
			if err == nil && strings.Contains(string(b), "RULES.md") {
				t.Errorf("%s cites RULES.md, which is not in the tree (the rules are docs/rules.md)", p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
