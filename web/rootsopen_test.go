package web

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// copyTree copies the regular files of the directory src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

// TestFilesSymlinkedOut: a run's metrics.csv and a dataset's manifest.json
// that are symlinks out of --runs and --data are refused with 403, not
// read (docs/web.md, "Safety").
func TestFilesSymlinkedOut(t *testing.T) {
	f := testFixture(t)
	dir := t.TempDir()
	data, runs, outside := filepath.Join(dir, "data"), filepath.Join(dir, "runs"), filepath.Join(dir, "outside")
	for _, d := range []string{filepath.Join(runs, "run"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A dataset whose manifest is a symlink to an identical one outside.
	copyTree(t, filepath.Join(f.data, "selfplay"), filepath.Join(data, "ds"))
	manifest := filepath.Join(data, "ds", "manifest.json")
	if err := os.Rename(manifest, filepath.Join(outside, "manifest.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "manifest.json"), manifest); err != nil {
		t.Fatal(err)
	}
	// A run whose metrics.csv is outside.
	if err := os.WriteFile(filepath.Join(runs, "run", "config.yaml"), []byte("name: run\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "metrics.csv"), []byte("iteration,secret\n1,42\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "metrics.csv"), filepath.Join(runs, "run", "metrics.csv")); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Data: PathList{data}, Runs: PathList{runs}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptestServer(t, s)
	for _, path := range []string{"/api/games?source=data0/ds", "/api/run?run=runs0/run"} {
		code, body := call(t, ts, "GET", path, nil, nil)
		if code != 403 || strings.Contains(body, "secret") {
			t.Errorf("%s: %d %s, want 403", path, code, body)
		}
	}
}

// TestSwapRace: a served directory swapped for a symlink out, again and
// again while requests read a store in it, never serves the outside store:
// each open is relative to the served root, in one step with its check.
func TestSwapRace(t *testing.T) {
	f := testFixture(t)
	dir := t.TempDir()
	data, outside := filepath.Join(dir, "data"), filepath.Join(dir, "outside")
	copyTree(t, filepath.Join(f.data, "tourney"), filepath.Join(data, "swap"))
	copyTree(t, f.outside, outside)
	if err := os.Rename(filepath.Join(outside, "secret.jsonl"), filepath.Join(outside, "games.jsonl")); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Data: PathList{data}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptestServer(t, s)
	swap, aside := filepath.Join(data, "swap"), filepath.Join(data, "aside")
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			if os.Rename(swap, aside) != nil || os.Symlink(outside, swap) != nil || os.Remove(swap) != nil || os.Rename(aside, swap) != nil {
				t.Error("the swap failed")
				return
			}
		}
	}()
	leaked, ok := 0, 0
	for range 1500 {
		var out struct{ All int }
		code, _ := call(t, ts, "GET", "/api/games?source=data0/swap/games.jsonl", nil, &out)
		switch {
		case code == 200 && out.All == 1:
			leaked++
		case code == 200:
			ok++
		}
	}
	stop.Store(true)
	wg.Wait()
	if leaked > 0 {
		t.Errorf("the outside store was served in %d of 1500 requests", leaked)
	}
	t.Logf("%d of 1500 requests served the store", ok)
}

// httptestServer serves s for the test.
func httptestServer(t *testing.T, s *Server) *httptest.Server {
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts
}
