package agents_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/urim-rl/urim/agents"
)

// TestCacheForgetsFailures: a file that fails to load is read again at the
// next call, and loads once fixed; a loaded file is read once while it is
// unchanged, and again once it changes.
func TestCacheForgetsFailures(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("bad"), 0o644); err != nil {
		t.Fatal(err)
	}
	reads := 0
	load := func(p string) (string, error) {
		reads++
		b, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		if string(b) == "bad" {
			return "", errors.New("corrupt")
		}
		return string(b), nil
	}
	var c agents.Cache[string]
	if _, err := c.Load(path, load); err == nil {
		t.Fatal("loading a bad file: no error")
	}
	if _, err := c.Load(path, load); err == nil || reads != 2 {
		t.Fatalf("the bad file again: error %v after %d reads, want an error after 2 (failures are not kept)", err, reads)
	}
	if err := os.WriteFile(path, []byte("good"), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if v, err := c.Load(path, load); err != nil || v != "good" {
			t.Fatalf("the fixed file: %q, %v", v, err)
		}
	}
	if reads != 3 {
		t.Errorf("the fixed file loaded 3 times took %d reads in all, want 3 (the failures' 2, then one)", reads)
	}
	// A changed file (another size and time) is read again.
	if err := os.WriteFile(path, []byte("better"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if v, err := c.Load(path, load); err != nil || v != "better" || reads != 4 {
		t.Errorf("the changed file: %q, %v after %d reads, want \"better\" after 4", v, err, reads)
	}
}

// TestCacheKeepsMax: past Max files, the one loaded first is read again.
func TestCacheKeepsMax(t *testing.T) {
	dir := t.TempDir()
	reads := map[string]int{}
	load := func(p string) (string, error) { reads[p]++; return p, nil }
	c := agents.Cache[string]{Max: 2}
	var paths []string
	for _, n := range []string{"a", "b", "c"} {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		if _, err := c.Load(p, load); err != nil {
			t.Fatal(err)
		}
	}
	c.Load(paths[2], load)
	c.Load(paths[0], load)
	if reads[paths[2]] != 1 || reads[paths[0]] != 2 {
		t.Errorf("reads %v: want the last file read once, the first (evicted) twice", reads)
	}
}
