package evaluate

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/internal/lockfile"
)

// TestTournamentStoreLocked: a tournament refuses a store another process
// holds, and leaves no lock behind when it ends.
func TestTournamentStoreLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	cfg := Config{Agents: players("random", "greedy"), Games: 2, Setup: DefaultSetup(), Store: path}
	l, err := LockStore(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RunTournament(context.Background(), cfg); !errors.Is(err, lockfile.ErrLocked) {
		t.Fatalf("RunTournament on a locked store: %v, want ErrLocked", err)
	}
	l.Release()
	if _, err := RunTournament(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	l, err = LockStore(path)
	if err != nil {
		t.Fatalf("the tournament left the store locked: %v", err)
	}
	l.Release()
}
