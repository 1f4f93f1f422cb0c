package dataset

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/agents/network"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn/nntest"
)

// azConfig is a self-play run of a small az agent against itself: 7 games
// in lock-step groups of 3 (the last group's games 7 and 8 are played, not
// written).
func azConfig(t *testing.T, dir string) Config {
	spec := "az:ckpt=" + nntest.Checkpoint(t, env.Urim, 8, 5) + ",sims=6,batch=2"
	return Config{Agent: spec, Games: 7, Out: dir, ShardSize: 120, Seed: 9, Workers: 1, Openings: 3, GamesInLockstep: 3}
}

// shardBytes returns the content of every shard file of the dataset in dir.
func shardBytes(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, sh := range m.Shards {
		for _, name := range []string{sh.Tensors, sh.Games} {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			files[name] = b
		}
	}
	return files
}

// An az agent playing itself gives the same bytes with one worker as with
// two: the lock-step groups are the config's, not the workers'.
func TestSelfPlayAZSameBytesForAnyWorkers(t *testing.T) {
	base := t.TempDir()
	cfg := azConfig(t, filepath.Join(base, "one"))
	if _, err := SelfPlay(context.Background(), cfg, false, nil); err != nil {
		t.Fatal(err)
	}
	cfg2 := cfg
	cfg2.Out, cfg2.Workers = filepath.Join(base, "two"), 2
	res, err := SelfPlay(context.Background(), cfg2, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Workers != 2 || res.Manifest.Games != 7 || !res.Manifest.Complete {
		t.Fatalf("two workers: %d workers, %d games, complete %v", res.Workers, res.Manifest.Games, res.Manifest.Complete)
	}
	one, two := shardBytes(t, cfg.Out), shardBytes(t, cfg2.Out)
	if len(one) != len(two) || len(one) < 4 {
		t.Fatalf("%d shard files with one worker, %d with two (want the same, several)", len(one), len(two))
	}
	for name, b := range one {
		if !bytes.Equal(b, two[name]) {
			t.Errorf("%s differs between one and two workers", name)
		}
	}
	if _, err := Verify(context.Background(), cfg2.Out, nil); err != nil {
		t.Fatal(err)
	}
}

// urim selfplay with an az agent plays through the self-play driver: its
// games are those agents.SelfPlay plays on the same lock-step search, group
// by group, move for move and visit for visit.
func TestSelfPlayAZIsTheDriver(t *testing.T) {
	cfg := azConfig(t, filepath.Join(t.TempDir(), "ds"))
	if _, err := SelfPlay(context.Background(), cfg, false, nil); err != nil {
		t.Fatal(err)
	}
	got := allGames(t, cfg.Out)
	g, err := env.NewGame(env.Urim)
	if err != nil {
		t.Fatal(err)
	}
	type game struct {
		moves  []int
		policy []float32
		value  []float32
	}
	for group := int64(0); group*3 < 7; group++ {
		lo, n := group*3, 3 // the last group is played whole, games 7 and 8 unwritten
		l, ok, err := network.AZLockstep(cfg.Agent, n, groupSeed(cfg.Seed, group))
		if err != nil || !ok {
			t.Fatalf("AZLockstep: %v, %v", ok, err)
		}
		want := make([]game, n)
		d := classic.SelfPlay{Searcher: l, Game: g, Games: n, Sims: 6, Rand: rand.New(rand.NewPCG(1, 2)),
			Moves: classic.SelfPlayPolicy{Start: func(k int) env.State {
				op := g.RandomOpening(cfg.Openings, derive(gameSeed(cfg.Seed, lo+int64(k)), 0x6f70656e))
				s := g.Start()
				for _, a := range op {
					s.Play(a)
				}
				want[k].moves = append([]int{}, op...)
				return s
			}}}
		err = d.Play(context.Background(), n, func(m *classic.SelfPlayMove) error {
			w := &want[m.Game]
			visits := 0
			for _, v := range m.Search.Visits {
				visits += v
			}
			if visits == 0 {
				t.Errorf("game %d: a search without visits", lo+int64(m.Game))
			}
			w.moves = append(w.moves, m.Action)
			w.policy = append(w.policy, m.Search.Policy[:g.PitsPerRow()]...)
			w.value = append(w.value, m.Search.Value)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for k, w := range want {
			id := lo + int64(k)
			if id >= 7 {
				if _, ok := got[id]; ok {
					t.Errorf("game %d is written, past the run's 7", id)
				}
				continue
			}
			gm := got[id]
			if !reflect.DeepEqual(gm.Record.Moves, w.moves) {
				t.Errorf("game %d: moves %v, the driver played %v", id, gm.Record.Moves, w.moves)
			}
			if !reflect.DeepEqual(gm.Policy, w.policy) || !reflect.DeepEqual(gm.Value, w.value) {
				t.Errorf("game %d: policy or value rows differ from the driver's searches", id)
			}
		}
	}
}

// A run interrupted inside a lock-step group and resumed plays the group
// again and keeps only its missing games: the dataset is the uninterrupted
// run's.
func TestSelfPlayAZResumeInsideGroup(t *testing.T) {
	base := t.TempDir()
	ref := azConfig(t, filepath.Join(base, "ref"))
	if _, err := SelfPlay(context.Background(), ref, false, nil); err != nil {
		t.Fatal(err)
	}
	part := ref
	part.Out, part.Games = filepath.Join(base, "part"), 4 // games 0 to 3: group {3,4,5} is cut at 3
	if _, err := SelfPlay(context.Background(), part, false, nil); err != nil {
		t.Fatal(err)
	}
	part.Games = 7 // group {3,4,5} replayed whole: 4 and 5 kept
	res, err := SelfPlay(context.Background(), part, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Resumed != 4 || res.Played != 3 {
		t.Fatalf("resumed %d, played %d; want 4 and 3", res.Resumed, res.Played)
	}
	got, want := allGames(t, part.Out), allGames(t, ref.Out)
	for id, w := range want {
		if !reflect.DeepEqual(got[id], w) {
			t.Errorf("game %d differs from the uninterrupted run's", id)
		}
	}
	changed := part
	changed.GamesInLockstep = 2
	if _, err := SelfPlay(context.Background(), changed, true, nil); err == nil {
		t.Error("resumed with another games_in_lockstep")
	}
}

// Agents other than an az agent playing itself play game by game.
func TestLockstepGroupOnlyForAZSelfPlay(t *testing.T) {
	ckpt := nntest.Checkpoint(t, env.Urim, 8, 5)
	for _, c := range []struct {
		agent, opp string
		want       int
	}{
		{"az:ckpt=" + ckpt, "", DefaultGamesInLockstep},
		{"az:sims=20,ckpt=" + ckpt, "az:ckpt=" + ckpt + ",sims=20", DefaultGamesInLockstep},
		{"az:root=gumbel,sims=8,ckpt=" + ckpt, "", DefaultGamesInLockstep},
		{"az:ckpt=" + ckpt, "greedy", 0},
		{"az:ckpt=" + ckpt + ",time=10ms", "", 0},
		{"az:ckpt=" + ckpt + ",threads=2", "", 0},
		{"mcts:sims=10", "", 0},
		{"neural:ckpt=" + ckpt, "", 0},
	} {
		cfg := Config{Agent: c.agent, Opponent: c.opp}
		if got, err := lockstepGroup(&cfg); err != nil || got != c.want {
			t.Errorf("%s vs %q: %d, %v; want %d", c.agent, c.opp, got, err, c.want)
		}
	}
}
