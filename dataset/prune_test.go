package dataset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
)

// A writer that prunes its oldest shards keeps a valid dataset, and its new
// shards continue the numbering rather than reuse a pruned name.
func TestWriterPrune(t *testing.T) {
	dir := t.TempDir()
	writeThreeShards(t, dir)
	g := env.MustGame(env.Urim4)
	w, err := Create(dir, Options{Rules: g.Rules(), Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := w.Prune(3); n != 1 || err != nil {
		t.Fatalf("Prune(3): %d, %v; want 1 shard (games 0 and 1) dropped", n, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "shard-00000.npz")); err == nil {
		t.Error("shard-00000.npz survived the prune")
	}
	rec := NewRecorder(g, env.EncodingCompact, env.RewardMatchPoints)
	s := g.Start()
	rec.Start(6, 6, [2]string{"low", "low"}, nil)
	for !s.Terminal() {
		a := s.Legal().Nth(0)
		rec.Add(&s, a, nil)
		s.Play(a)
	}
	if err := w.Add(rec.Finish(&s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Shards) != 3 || m.Shards[2].Tensors != "shard-00003.npz" || m.Games != 5 {
		t.Fatalf("after the prune and a new shard: %d shards (last %s), %d games; want 3, shard-00003.npz, 5", len(m.Shards), m.Shards[len(m.Shards)-1].Tensors, m.Games)
	}
	if _, err := Verify(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
}

// ReadTensors refuses a shard whose bytes changed, before decoding it.
func TestReadTensorsChecksFile(t *testing.T) {
	dir := t.TempDir()
	writeThreeShards(t, dir)
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	info := m.Shards[1]
	tens, err := ReadTensors(dir, info, m.ObsDim, m.Actions)
	if err != nil || tens.N != info.Positions {
		t.Fatalf("ReadTensors: %v", err)
	}
	path := filepath.Join(dir, info.Tensors)
	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 1
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTensors(dir, info, m.ObsDim, m.Actions); err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("a flipped byte: %v, want a SHA-256 error", err)
	}
	if err := os.WriteFile(path, append(data, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTensors(dir, info, m.ObsDim, m.Actions); !errors.Is(err, ErrChecksum) {
		t.Errorf("a longer file: %v, want ErrChecksum", err)
	}
}

// A resigned game verifies: it stops before the end, the other player wins
// and every row's outcome is ±1; a resigned record of a finished game does
// not.
func TestResignedGameVerifies(t *testing.T) {
	dir := t.TempDir()
	g := env.MustGame(env.Urim4)
	w, err := Create(dir, Options{Rules: g.Rules()})
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(g, env.EncodingCompact, env.RewardMatchPoints)
	s := g.Start()
	rec.Start(0, 0, [2]string{"low", "low"}, nil)
	for range 7 {
		a := s.Legal().Nth(0)
		rec.Add(&s, a, nil)
		s.Play(a)
	}
	game := rec.Resign(&s, s.ToMove())
	if game.Record.Winner != 1-s.ToMove() || game.Record.Reason != Resigned {
		t.Fatalf("record %+v", game.Record)
	}
	for i, o := range game.Outcome {
		if want := float32(-1); (i%2 == s.ToMove()) != (o == want) {
			t.Errorf("row %d (mover %d): outcome %g", i, i%2, o)
		}
	}
	if err := w.Add(game); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(context.Background(), dir, nil); err != nil {
		t.Fatalf("a resigned game: %v", err)
	}
}
