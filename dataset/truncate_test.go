package dataset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/lockfile"
)

// writeThreeShards writes games 0 … 5, two a shard, playing the lowest
// legal move.
func writeThreeShards(t *testing.T, dir string) {
	t.Helper()
	g := env.MustGame(env.Urim4)
	w, err := Create(dir, Options{Rules: g.Rules()})
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(g, env.EncodingCompact, env.RewardMatchPoints)
	for id := range int64(6) {
		s := g.Start()
		rec.Start(id, uint64(id), [2]string{"low", "low"}, nil)
		for !s.Terminal() {
			a := s.Legal().Nth(0)
			rec.Add(&s, a, nil)
			s.Play(a)
		}
		if err := w.Add(rec.Finish(&s)); err != nil {
			t.Fatal(err)
		}
		if id%2 == 1 {
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	w.Release()
}

func TestTruncate(t *testing.T) {
	dir := t.TempDir()
	if n, err := Truncate(filepath.Join(dir, "none"), 0); n != 0 || err != nil {
		t.Fatalf("Truncate without a manifest: %d, %v; want 0, nil", n, err)
	}
	writeThreeShards(t, dir)
	if _, err := Truncate(dir, 3); err == nil || !strings.Contains(err.Error(), "shard-00001.npz holds games 2 to 3") {
		t.Fatalf("Truncate inside a shard: %v; want an error naming shard-00001.npz", err)
	}
	if n, err := Truncate(dir, 6); n != 0 || err != nil {
		t.Fatalf("Truncate after the last game: %d, %v; want 0, nil", n, err)
	}
	if n, err := Truncate(dir, 4); n != 1 || err != nil {
		t.Fatalf("Truncate(4): %d, %v; want 1 shard dropped", n, err)
	}
	rep, err := Verify(context.Background(), dir, nil)
	if err != nil || rep.Games != 4 || rep.Complete {
		t.Fatalf("after Truncate(4): %d games, complete %v, %v; want 4 games, not complete, valid", rep.Games, rep.Complete, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "shard-00002.npz")); err == nil {
		t.Error("the dropped shard's file is still there")
	}
	// The writer continues after the kept shards, numbering the next one 2.
	w, err := Create(dir, Options{Rules: env.MustGame(env.Urim4).Rules(), Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if w.Has(4) || !w.Has(3) {
		t.Fatalf("resumed writer: has game 4 %v, game 3 %v; want false, true", w.Has(4), w.Has(3))
	}
	if _, err := Truncate(dir, 0); !errors.Is(err, lockfile.ErrLocked) {
		t.Fatalf("Truncate while a writer holds the dataset: %v; want ErrLocked", err)
	}
	w.Release()
	if n, err := Truncate(dir, 0); n != 2 || err != nil {
		t.Fatalf("Truncate(0): %d, %v; want 2 shards dropped", n, err)
	}
	if m, _ := ReadManifest(dir); m.Games != 0 || len(m.Shards) != 0 {
		t.Fatalf("after Truncate(0): %d games in %d shards", m.Games, len(m.Shards))
	}
}
