package evaluate

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
)

func TestTournamentSameSeedSameGames(t *testing.T) {
	cfg := Config{Agents: players("random", "test-capture", "test-first"), Games: 6, Setup: Setup{OpeningPlies: 3, Paired: true, Seed: 7}}
	one, two := cfg, cfg
	one.Workers, two.Workers = 1, 2
	a, err := RunTournament(context.Background(), one)
	if err != nil {
		t.Fatal(err)
	}
	b, err := RunTournament(context.Background(), two)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Games) != 3*6 || !reflect.DeepEqual(a.Games, b.Games) {
		t.Fatalf("the same seed gave different games with 1 and 2 workers")
	}
	other := cfg
	other.Seed = 8
	c, err := RunTournament(context.Background(), other)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a.Games, c.Games) {
		t.Fatalf("seeds 7 and 8 gave the same games")
	}
	g := env.MustGame(env.Urim)
	for _, r := range a.Games {
		replay(t, g, r)
	}
}

func TestTournamentPairedOpeningsSwapSeats(t *testing.T) {
	cfg := Config{Agents: players("random", "test-first"), Games: 8, Setup: Setup{OpeningPlies: 4, Paired: true, Seed: 3}}
	res, err := RunTournament(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	openings := map[string]bool{}
	for k := 0; k < len(res.Games); k += 2 {
		a, b := res.Games[k], res.Games[k+1]
		if !reflect.DeepEqual(a.Opening, b.Opening) || len(a.Opening) != 4 {
			t.Fatalf("games %d and %d have openings %v and %v", k, k+1, a.Opening, b.Opening)
		}
		if a.Players[0] != b.Players[1] || a.Players[1] != b.Players[0] {
			t.Fatalf("games %d and %d do not swap seats: %v %v", k, k+1, a.Players, b.Players)
		}
		openings[joinMoves(a.Opening)] = true
	}
	if len(openings) < 3 {
		t.Errorf("4 pairs share %d distinct openings; want distinct openings", len(openings))
	}
}

func TestTournamentGauntletAndRoundRobin(t *testing.T) {
	specs := players("test-first", "random", "test-capture", "test-fail:n=1000")
	rr := Config{Agents: specs, Games: 2}
	ga := Config{Agents: specs, Games: 2, Format: Gauntlet}
	if n := len(rr.Pairings()); n != 6 {
		t.Errorf("round robin of 4: %d pairings, want 6", n)
	}
	if p := ga.Pairings(); len(p) != 3 || p[0][0] != 0 || p[2] != [2]int{0, 3} {
		t.Errorf("gauntlet pairings %v", p)
	}
	res, err := RunTournament(context.Background(), ga)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Games) != 6 || len(res.Pairs) != 3 || res.Ratings.Anchor != "random" {
		t.Errorf("gauntlet: %d games, %d pairs, anchor %q", len(res.Games), len(res.Pairs), res.Ratings.Anchor)
	}
}

func TestTournamentStoreReusesGames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	first := Config{Agents: players("random", "test-capture"), Games: 4, Setup: Setup{OpeningPlies: 2, Seed: 5}, Store: path}
	a, err := RunTournament(context.Background(), first)
	if err != nil {
		t.Fatal(err)
	}
	if a.Played != 4 || a.Reused != 0 {
		t.Fatalf("first run: played %d reused %d", a.Played, a.Reused)
	}
	// A new agent, listed first, with the old ones spelled differently: the
	// old pairing's games come from the store.
	second := first
	second.Agents = players("test-first", "test-capture", " random ")
	b, err := RunTournament(context.Background(), second)
	if err != nil {
		t.Fatal(err)
	}
	if b.Reused != 4 || b.Played != 8 {
		t.Fatalf("second run: played %d reused %d, want 8 and 4", b.Played, b.Reused)
	}
	old := Pair("random", "test-capture", a.Games)
	again := Pair("random", "test-capture", b.Games)
	if old != again {
		t.Errorf("the reused pairing changed: %+v vs %+v", old, again)
	}
	s, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 12 {
		t.Errorf("the store holds %d games, want 12", s.Len())
	}
	// A fresh run without the store plays the same games.
	third := second
	third.Store = ""
	c, err := RunTournament(context.Background(), third)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b.Games, c.Games) {
		t.Errorf("stored games differ from freshly played ones")
	}
}

func TestTournamentErrors(t *testing.T) {
	_, err := RunTournament(context.Background(), Config{Agents: players("random", "test-fail:n=4"), Games: 2})
	if !errors.Is(err, ErrAgent) {
		t.Errorf("failing agent: error %v, want ErrAgent", err)
	}
	_, err = RunTournament(context.Background(), Config{Agents: players("random", "nosuchagent")})
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Key != "agents[1]" {
		t.Errorf("unknown agent: error %v, want a ConfigError on agents[1]", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RunTournament(ctx, Config{Agents: players("random", "random")}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v", err)
	}
}

func TestTournamentProgress(t *testing.T) {
	var calls, last, total int
	cfg := Config{Agents: players("random", "test-first"), Games: 10, Progress: func(d, n int) { calls++; last, total = d, n }}
	if _, err := RunTournament(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if calls != 10 || last != 10 || total != 10 {
		t.Errorf("progress: %d calls, last %d/%d", calls, last, total)
	}
}

// TestFactoryPlayer rates an agent held in memory: a player with a factory
// and no spec. Its agent is built once per game (never to validate it), and
// its games are stored and reused under its name.
func TestFactoryPlayer(t *testing.T) {
	var builds atomic.Int64
	net := Player{Name: "net", New: func(seed uint64) (agents.Agent, error) {
		builds.Add(1)
		return classic.NewGreedy(seed), nil
	}}
	path := filepath.Join(t.TempDir(), "games.jsonl")
	cfg := Config{Agents: []Player{net, {Spec: "random"}}, Games: 6, Setup: Setup{OpeningPlies: 2, Paired: true, Seed: 2}, Store: path}
	res, err := RunTournament(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if builds.Load() != 6 {
		t.Errorf("the factory built %d agents for 6 games", builds.Load())
	}
	if ps := res.Pairs[0]; ps.A != "net" || ps.Games != 6 || ps.Score <= 0.5 {
		t.Errorf("greedy (as net) against random: %+v", ps)
	}
	for _, r := range res.Games {
		if r.Specs[0] != "player=net" && r.Specs[1] != "player=net" {
			t.Fatalf("record specs %v do not name the factory player", r.Specs)
		}
	}
	again, err := RunTournament(context.Background(), cfg)
	if err != nil || again.Reused != 6 || builds.Load() != 6 {
		t.Errorf("second run: reused %d, builds %d, err %v", again.Reused, builds.Load(), err)
	}
	if err := (&Config{Agents: []Player{{New: net.New}, {Spec: "random"}}}).Validate(); err == nil {
		t.Error("a factory player without a name was accepted")
	}
}
