package dataset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// smallDataset writes a dataset of 6 mcts-vs-random games in shards of about
// 60 positions and returns its directory.
func smallDataset(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ds")
	cfg := Config{Agent: "mcts:sims=10", Opponent: "random", Games: 6, Out: dir, ShardSize: 60, Seed: 5, Workers: 2}
	if _, err := SelfPlay(context.Background(), cfg, false, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(context.Background(), dir, nil); err != nil {
		t.Fatalf("the fresh dataset does not verify: %v", err)
	}
	return dir
}

func TestVerifyFlippedByte(t *testing.T) {
	dir := smallDataset(t)
	m, _ := ReadManifest(dir)
	path := filepath.Join(dir, m.Shards[1].Tensors)
	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 0x10
	os.WriteFile(path, data, 0o644)
	_, err := Verify(context.Background(), dir, nil)
	if !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), m.Shards[1].Tensors) {
		t.Fatalf("Verify = %v, want a checksum mismatch naming %s", err, m.Shards[1].Tensors)
	}
}

func TestVerifyMissingShard(t *testing.T) {
	dir := smallDataset(t)
	m, _ := ReadManifest(dir)
	os.Remove(filepath.Join(dir, m.Shards[1].Games))
	_, err := Verify(context.Background(), dir, nil)
	if !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), m.Shards[1].Games) {
		t.Fatalf("Verify = %v, want a missing file naming %s", err, m.Shards[1].Games)
	}
}

// rewriteRecords applies edit to the records of shard k and fixes the
// manifest's checksum, so that only a replay can catch the change.
func rewriteRecords(t *testing.T, dir string, k int, edit func([]Record)) {
	t.Helper()
	m, _ := ReadManifest(dir)
	path := filepath.Join(dir, m.Shards[k].Games)
	data, _ := os.ReadFile(path)
	recs, err := ReadRecords(data)
	if err != nil {
		t.Fatal(err)
	}
	edit(recs)
	var buf bytes.Buffer
	if err := WriteRecords(&buf, recs); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, buf.Bytes(), 0o644)
	m.Shards[k].GamesSHA256 = sha256Hex(buf.Bytes())
	m.Shards[k].GamesBytes = int64(buf.Len())
	js, _ := json.Marshal(m)
	os.WriteFile(filepath.Join(dir, ManifestName), js, 0o644)
}

func TestVerifyTamperedMove(t *testing.T) {
	dir := smallDataset(t)
	var id int64
	var ply int
	rewriteRecords(t, dir, 0, func(recs []Record) {
		r := &recs[0]
		id = r.ID
		// Replace the 5th move with another legal action at that ply.
		g, _ := Open(dir)
		s := g.Game().Start()
		for _, mv := range r.Moves[:4] {
			s.Play(mv)
		}
		for _, a := range s.Legal().Actions() {
			if a != r.Moves[4] {
				r.Moves[4] = a
				break
			}
		}
		ply = 4
	})
	_, err := Verify(context.Background(), dir, nil)
	var mm *Mismatch
	if !errors.As(err, &mm) || !errors.Is(err, ErrReplay) {
		t.Fatalf("Verify = %v, want a replay mismatch", err)
	}
	if mm.Game != id || mm.Ply > ply {
		t.Fatalf("Verify names game %d ply %d (%v), want game %d at or before ply %d", mm.Game, mm.Ply, err, id, ply)
	}
	t.Logf("tampered move: %v", err)
}

func TestVerifyTamperedOutcome(t *testing.T) {
	dir := smallDataset(t)
	rewriteRecords(t, dir, 1, func(recs []Record) {
		recs[0].Winner = 1 - recs[0].Winner
	})
	_, err := Verify(context.Background(), dir, nil)
	var mm *Mismatch
	if !errors.As(err, &mm) || mm.Field != "winner" {
		t.Fatalf("Verify = %v, want a winner mismatch", err)
	}
}
