package dataset

import (
	"reflect"
	"testing"

	"github.com/urim-rl/urim/env"
)

// packGames records n short games of urim4 (random moves, every position
// searched with a uniform policy).
func packGames(t testing.TB, n int) ([]Game, int, int) {
	g := env.MustGame(env.Urim4)
	rec := NewRecorder(g, env.EncodingCompact, env.RewardMatchPoints)
	var games []Game
	for i := range n {
		s := g.Start()
		rec.Start(int64(i+10), uint64(i), [2]string{"a", "b"}, nil)
		for ply := 0; !s.Terminal() && ply < 6+i; ply++ {
			a := s.Legal().Nth(0)
			var pol [env.MaxActions]float32
			pol[a] = 1
			rec.Add(&s, a, &Search{Policy: pol, Value: 0.5})
			s.Play(a)
		}
		games = append(games, *rec.Finish(&s))
	}
	return games, env.NewEncoder(g, env.EncodingCompact).Dim(), g.PitsPerRow()
}

func TestPackRoundTrip(t *testing.T) {
	games, dim, a := packGames(t, 3)
	data, err := Pack(games, dim, a)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Unpack(data, dim, a)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(games) {
		t.Fatalf("%d games back, want %d", len(got), len(games))
	}
	for i := range games {
		if !reflect.DeepEqual(got[i], games[i]) {
			t.Errorf("game %d differs after the round trip", i)
		}
	}
	if _, err := Unpack(data[:len(data)-3], dim, a); err == nil {
		t.Error("a cut shard unpacked")
	}
	if _, err := Unpack(data, dim+1, a); err == nil {
		t.Error("a shard of another observation size unpacked")
	}
}

func FuzzUnpack(f *testing.F) {
	games, dim, a := packGames(f, 2)
	data, err := Pack(games, dim, a)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte{3, 1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		gs, err := Unpack(b, dim, a)
		if err != nil {
			return
		}
		for _, g := range gs {
			if len(g.Obs) != g.Record.Positions*dim {
				t.Fatalf("game %d: %d observations for %d positions", g.Record.ID, len(g.Obs), g.Record.Positions)
			}
		}
	})
}
