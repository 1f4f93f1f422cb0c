package evaluate

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

func newAgents(t *testing.T, a, b string, seed uint64) [2]agents.Agent {
	t.Helper()
	var out [2]agents.Agent
	for i, spec := range []string{a, b} {
		ag, err := newAgent(spec, seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = ag
	}
	return out
}

// replay plays a record's moves from the start and checks its result fields.
func replay(t *testing.T, g *env.Game, r Record) {
	t.Helper()
	s := g.Start()
	for i, a := range r.Moves {
		next, err := s.Apply(a)
		if err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
		s = next
	}
	if !s.Terminal() {
		t.Fatalf("the moves do not end the game")
	}
	if s.FinalStores() != r.Stores || s.MatchPoints() != r.MatchPoints || s.Reason().String() != r.Reason || len(r.Moves) != r.Plies {
		t.Fatalf("record %+v does not match the replay: stores %v, mp %v, reason %s", r, s.FinalStores(), s.MatchPoints(), s.Reason())
	}
	if !reflect.DeepEqual(r.Moves[:len(r.Opening)], r.Opening) {
		t.Fatalf("moves %v do not start with the opening %v", r.Moves, r.Opening)
	}
}

func TestPlayRecordReplays(t *testing.T) {
	for _, name := range env.PresetNames() {
		g, err := env.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < 20; seed++ {
			opening := g.RandomOpening(4, seed)
			r, err := Play(context.Background(), g, newAgents(t, "random", "random", seed), opening)
			if err != nil {
				t.Fatal(err)
			}
			if r.Rules != name {
				t.Fatalf("rules %q, want %q", r.Rules, name)
			}
			replay(t, g, r)
		}
	}
}

func TestPlayRejectsAgentErrors(t *testing.T) {
	g := env.MustGame(env.Urim)
	for _, spec := range []string{"test-fail:n=3", "test-illegal"} {
		_, err := Play(context.Background(), g, newAgents(t, "random", spec, 1), nil)
		if !errors.Is(err, ErrAgent) {
			t.Errorf("%s: error %v, want ErrAgent", spec, err)
		}
	}
	if _, err := Play(context.Background(), g, newAgents(t, "random", "random", 1), []int{0, 1, 0}); err == nil {
		t.Errorf("an opening that plays an empty pit was accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Play(ctx, g, newAgents(t, "random", "random", 1), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v", err)
	}
}

func TestRandomOpening(t *testing.T) {
	g := env.MustGame(env.Urim)
	a, b := g.RandomOpening(6, 42), g.RandomOpening(6, 42)
	if !reflect.DeepEqual(a, b) || len(a) != 6 {
		t.Fatalf("openings %v and %v from one seed differ or are short", a, b)
	}
	differ := false
	for seed := uint64(0); seed < 10; seed++ {
		if !reflect.DeepEqual(a, g.RandomOpening(6, seed)) {
			differ = true
		}
	}
	if !differ {
		t.Errorf("ten seeds gave the same opening")
	}
	if len(g.RandomOpening(0, 1)) != 0 {
		t.Errorf("a 0-ply opening has moves")
	}
}

func TestGameSeedIgnoresOrderAndSpelling(t *testing.T) {
	if GameSeed(1, "random", "mcts:sims=5,c=1", 3) != GameSeed(1, "mcts: c=1, sims=5", "random", 3) {
		t.Errorf("the seed depends on the order or spelling of the specs")
	}
	if GameSeed(1, "random", "greedy", 3) == GameSeed(1, "random", "greedy", 4) ||
		GameSeed(1, "random", "greedy", 3) == GameSeed(2, "random", "greedy", 3) {
		t.Errorf("different games share a seed")
	}
}

func TestSplitSpecs(t *testing.T) {
	for in, want := range map[string][]string{
		"random,greedy,mcts:sims=200":             {"random", "greedy", "mcts:sims=200"},
		"random, mcts:sims=200,c=1.4,alphabeta":   {"random", "mcts:sims=200,c=1.4", "alphabeta"},
		"external:cmd='prog --a,b',name=x,random": {"external:cmd='prog --a,b',name=x", "random"},
		"alphabeta:depth=4,mcts:sims=10":          {"alphabeta:depth=4", "mcts:sims=10"},
	} {
		if got := SplitSpecs(in); !reflect.DeepEqual(got, want) {
			t.Errorf("SplitSpecs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPlayersFromSpecsNamesTwins(t *testing.T) {
	p := PlayersFromSpecs([]string{"random", "test-first", "random"})
	if p[0].Label() != "random#1" || p[1].Label() != "test-first" || p[2].Label() != "random#2" {
		t.Errorf("labels %q %q %q", p[0].Label(), p[1].Label(), p[2].Label())
	}
}
