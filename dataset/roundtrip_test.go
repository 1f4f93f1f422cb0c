package dataset

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/urim-rl/urim/env"
)

// playRandom plays game id between random agents (seat 1 a fake searcher
// with a made-up visit distribution) and records every move.
func playRandom(t testing.TB, rec *Recorder, g *env.Game, id int64) Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(id), 9))
	s := g.Start()
	opening := []int{}
	for range 2 {
		a := s.Legal().Nth(rng.IntN(s.Legal().Count()))
		opening = append(opening, a)
		s.Play(a)
	}
	rec.Start(id, uint64(id)*7, [2]string{"random", "fake"}, opening)
	for !s.Terminal() {
		m := s.Legal()
		a := m.Nth(rng.IntN(m.Count()))
		if s.ToMove() == 1 {
			var sr Search
			for _, b := range m.Actions() {
				sr.Policy[b] = 1 / float32(m.Count())
			}
			sr.Value = float32(rng.Float64()*2 - 1)
			rec.Add(&s, a, &sr)
		} else {
			rec.Add(&s, a, nil)
		}
		s.Play(a)
	}
	return *rec.Finish(&s)
}

func TestRoundTrip(t *testing.T) {
	for _, enc := range []env.Encoding{env.EncodingCompact, env.EncodingThermometer} {
		t.Run(enc.String(), func(t *testing.T) {
			dir := t.TempDir()
			g := env.MustGame(env.Urim)
			w, err := Create(dir, Options{Rules: env.Urim, Encoding: enc, ShardPositions: 300})
			if err != nil {
				t.Fatal(err)
			}
			rec := NewRecorder(g, enc, env.RewardMatchPoints)
			var played []Game
			for id := range int64(12) {
				gm := playRandom(t, rec, g, id)
				played = append(played, gm)
				if err := w.Add(&gm); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			d, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Manifest.Shards) < 2 || !d.Manifest.Complete || d.Manifest.Games != 12 {
				t.Fatalf("manifest: %d shards, complete %v, %d games; want several shards, complete, 12 games",
					len(d.Manifest.Shards), d.Manifest.Complete, d.Manifest.Games)
			}
			var loaded []Game
			for i := range d.Manifest.Shards {
				sh, err := d.LoadShard(i)
				if err != nil {
					t.Fatal(err)
				}
				loaded = append(loaded, sh.Games()...)
			}
			if len(loaded) != len(played) {
				t.Fatalf("loaded %d games, played %d", len(loaded), len(played))
			}
			for i := range played {
				if !reflect.DeepEqual(normal(played[i]), normal(loaded[i])) {
					t.Fatalf("game %d differs after the round trip:\nplayed %+v\nloaded %+v", i, played[i].Record, loaded[i].Record)
				}
			}
			if _, err := Verify(context.Background(), dir, nil); err != nil {
				t.Fatalf("Verify: %v", err)
			}
		})
	}
}

// normal gives nil and empty slices one form for comparison.
func normal(g Game) Game {
	if len(g.Record.Opening) == 0 {
		g.Record.Opening = nil
	}
	return g
}

func TestSelfPlayVerifies(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	cfg := Config{Agent: "mcts:sims=20", Opponent: "random", Games: 6, Out: dir, ShardSize: 100, Seed: 3, Workers: 2, Openings: 2}
	res, err := SelfPlay(context.Background(), cfg, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Played != 6 || res.Manifest.Games != 6 || !res.Manifest.Complete {
		t.Fatalf("played %d, manifest %d games complete %v", res.Played, res.Manifest.Games, res.Manifest.Complete)
	}
	rep, err := Verify(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != 6 || rep.Positions != res.Positions {
		t.Fatalf("verified %d games %d positions, wrote %d", rep.Games, rep.Positions, res.Positions)
	}
	// The mcts seat has a policy on every row, the random one on none.
	d, _ := Open(dir)
	for i := range d.Manifest.Shards {
		sh, err := d.LoadShard(i)
		if err != nil {
			t.Fatal(err)
		}
		for _, gm := range sh.Games() {
			for r := range gm.Record.Positions {
				mover := int(gm.Ply[r]) % 2 // South moves on even plies
				if want := gm.Record.Agents[mover] == "mcts:sims=20"; gm.HasPolicy[r] != want {
					t.Fatalf("game %d row %d (%s to move): has_policy %v", gm.Record.ID, r, gm.Record.Agents[mover], gm.HasPolicy[r])
				}
			}
		}
	}
}
