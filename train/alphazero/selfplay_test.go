package alphazero

import (
	"context"
	"github.com/urim-rl/urim/train"
	"math/rand/v2"
	"testing"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
)

// fakeSearch visits the lowest legal action and reports a root value that
// depends only on the player to move: player 1 always believes it is lost.
type fakeSearch struct{ searches int }

func (f *fakeSearch) Search(jobs []classic.LockstepJob, out []classic.RootSearch) {
	for i, j := range jobs {
		if j.State == nil {
			continue
		}
		f.searches++
		a := j.State.Legal().Nth(0)
		out[i] = classic.RootSearch{Full: j.Full, Sims: j.Sims}
		out[i].Visits[a], out[i].Policy[a] = 1, 1
		out[i].Value = 0.95
		if j.State.ToMove() == 1 {
			out[i].Value = -0.95
		}
	}
}

func (f *fakeSearch) Choose(r *classic.RootSearch, temp float64) int {
	for a, v := range r.Visits {
		if v > 0 {
			return a
		}
	}
	panic("no visited action")
}

func playFake(t *testing.T, sets ...string) (*selfPlayStats, *Buffer, *env.Game) {
	t.Helper()
	cfg, err := train.ParseConfig(nil, "test", append([]string{"rules=urim4", "selfplay.games_per_iteration=6",
		"selfplay.parallel_games=4", "selfplay.opening_plies=0", "selfplay.resign.consecutive=2"}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	g := env.MustGame(env.Urim4)
	win := memoryWindow(env.EncodingCompact.Dim(g), g.PitsPerRow(), 10000)
	open := openings{g: g, plies: SelfPlaySection.Of(&cfg).OpeningPlies, seed: cfg.Seed, it: 1}
	lc := LockstepConfig(&cfg, env.RewardMatchPoints)
	lc.Moves.Start = open.start
	pl := &classic.SelfPlay{Searcher: &fakeSearch{}, Game: g, Games: lc.Games, Sims: lc.Search.Sims, Moves: lc.Moves,
		Rand: rand.New(rand.NewPCG(1, 2))}
	st, err := selfPlay(context.Background(), &cfg, g, env.EncodingCompact, env.RewardMatchPoints, pl, open, win, nil, 1, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := win.add(); err != nil || n != st.positions {
		t.Fatalf("window: %d positions (%v), self-play reported %d", n, err, st.positions)
	}
	return st, win.buf, g
}

func TestSelfPlayResigns(t *testing.T) {
	st, buf, _ := playFake(t, "selfplay.resign.threshold=-0.9", "selfplay.resign.never_share=0")
	if st.games != 6 || st.resigned != 6 {
		t.Fatalf("%d games, %d resigned: want every game resigned by North", st.games, st.resigned)
	}
	// North resigns at its second searched move, at ply 3: plies 0 to 2
	// are rows (the position resigned in has no move, so no row), South's
	// at 0 and 2 (won, +1), North's at 1 (lost, -1).
	if st.positions != 6*3 || buf.Len() != 18 {
		t.Fatalf("%d positions, buffer %d, want 18", st.positions, buf.Len())
	}
	for i := 0; i < buf.Len(); i++ {
		want := float32(1)
		if buf.rows.Ply[i]%2 == 1 {
			want = -1
		}
		if buf.rows.Outcome[i] != want {
			t.Errorf("row %d (ply %d): value %v, want %v", i, buf.rows.Ply[i], buf.rows.Outcome[i], want)
		}
	}
	if len(st.records) != 0 {
		t.Errorf("resigned games were sampled: %d records", len(st.records))
	}
}

func TestSelfPlayNeverResignCountsFalseResignations(t *testing.T) {
	st, buf, g := playFake(t, "selfplay.resign.threshold=-0.9", "selfplay.resign.never_share=1", "selfplay.sample_games=6")
	if st.resigned != 0 || st.neverResign != 6 {
		t.Fatalf("%d resigned, %d never-resign games", st.resigned, st.neverResign)
	}
	// Every game is the same (lowest legal action throughout); North would
	// have resigned in each, so each is a false resignation unless North
	// lost.
	if len(st.records) != 6 {
		t.Fatalf("%d records, want 6", len(st.records))
	}
	s := g.Start()
	for _, a := range st.records[0].Moves {
		s.Play(a)
	}
	r := s.Rewards(env.RewardMatchPoints)
	want := 0
	if r[1] >= 0 {
		want = 6
	}
	if st.falseResign != want {
		t.Errorf("%d false resignations, want %d (North's reward %v)", st.falseResign, want, r[1])
	}
	// Value targets are the final rewards from each mover's side.
	for i := 0; i < buf.Len(); i++ {
		if buf.rows.Outcome[i] != r[buf.rows.Ply[i]%2] {
			t.Fatalf("row %d (ply %d): value %v, want %v", i, buf.rows.Ply[i], buf.rows.Outcome[i], r[buf.rows.Ply[i]%2])
		}
	}
	for _, rec := range st.records {
		if err := rec.Check(); err != nil {
			t.Errorf("sampled record: %v", err)
		}
	}
}
