package evaluate

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestStoreRescuedWhenUnwritable: if the store's directory becomes
// unwritable during a run, the finished games go to a temporary file, named
// in the error, instead of being lost.
func TestStoreRescuedWhenUnwritable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "games")
	store := filepath.Join(dir, "store.jsonl")
	broken := false
	cfg := Config{Agents: players("random", "greedy"), Games: 4, Setup: DefaultSetup(), Store: store}
	cfg.Workers = 1
	cfg.Progress = func(done, total int) {
		if !broken { // the directory turns into a file under the run's feet
			broken = true
			os.RemoveAll(dir)
			os.WriteFile(dir, []byte("x"), 0o644)
		}
	}
	_, err := RunTournament(context.Background(), cfg)
	if err == nil {
		t.Fatal("the store was saved into a file")
	}
	m := regexp.MustCompile(`saved in (\S+) instead`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("error %v does not say where the games went", err)
	}
	defer os.Remove(m[1])
	s, err := OpenStore(m[1])
	if err != nil || len(s.records) != 4 {
		t.Errorf("rescued store %s: %v, %d records", m[1], err, len(s.records))
	}
	if !strings.HasPrefix(m[1], os.TempDir()) {
		t.Errorf("rescued to %s, not under %s", m[1], os.TempDir())
	}
}
