package evaluate

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
)

// fakeRemote plays jobs after a JSON round trip (as over the wire), last
// first, delivering every other one twice; stopAfter > 0 stops it with
// an error after that many jobs (workers lost).
type fakeRemote struct {
	stopAfter int
	seen      int
}

func (f *fakeRemote) Play(ctx context.Context, jobs []Job, deliver func(int, Record)) error {
	for k := len(jobs) - 1; k >= 0; k-- {
		if f.stopAfter > 0 && f.seen == f.stopAfter {
			return context.Canceled
		}
		b, err := json.Marshal(jobs[k])
		if err != nil {
			return err
		}
		var j Job
		if err := json.Unmarshal(b, &j); err != nil {
			return err
		}
		rec, err := PlayJob(ctx, j, nil)
		if err != nil {
			return err
		}
		// The record travels too.
		b, _ = json.Marshal(rec)
		var back Record
		if err := json.Unmarshal(b, &back); err != nil {
			return err
		}
		deliver(k, back)
		if k%2 == 0 {
			deliver(k, back)
		}
		f.seen++
	}
	return nil
}

func TestRemoteTournamentSameGamesAsOneProcess(t *testing.T) {
	cfg := Config{Agents: PlayersFromSpecs([]string{"random", "greedy", "mcts:sims=8"}), Games: 6, Setup: Setup{OpeningPlies: 3, Paired: true, Seed: 7, Workers: 2}}
	local, err := RunTournament(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rc := cfg
	rc.Remote = &fakeRemote{}
	remote, err := RunTournament(context.Background(), rc)
	if err != nil {
		t.Fatal(err)
	}
	if remote.Played != len(local.Games) || !reflect.DeepEqual(local.Games, remote.Games) || !reflect.DeepEqual(local.Ratings, remote.Ratings) {
		t.Fatalf("the remote tournament differs from the local one (played %d of %d)", remote.Played, len(local.Games))
	}
}

// TestRemoteTournamentResumesFromTheStore: workers lost mid-tournament
// keep the games delivered in the store; the next run plays only the
// rest, counting none twice.
func TestRemoteTournamentResumesFromTheStore(t *testing.T) {
	store := filepath.Join(t.TempDir(), "games.jsonl")
	cfg := Config{Agents: PlayersFromSpecs([]string{"random", "greedy"}), Games: 8, Setup: Setup{OpeningPlies: 2, Paired: true, Seed: 3}, Store: store}
	cut := cfg
	cut.Remote = &fakeRemote{stopAfter: 3}
	if _, err := RunTournament(context.Background(), cut); err == nil {
		t.Fatal("a remote that stopped gave no error")
	}
	again := cfg
	again.Remote = &fakeRemote{}
	res, err := RunTournament(context.Background(), again)
	if err != nil {
		t.Fatal(err)
	}
	if res.Reused != 3 || res.Played != 5 {
		t.Fatalf("reused %d and played %d games; want 3 and 5", res.Reused, res.Played)
	}
	local := cfg
	local.Store = ""
	want, err := RunTournament(context.Background(), local)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want.Games, res.Games) {
		t.Fatal("the resumed remote tournament differs from the local one")
	}
	s, err := OpenStore(store)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 8 {
		t.Fatalf("the store holds %d games; want 8", s.Len())
	}
}

func TestRemoteRefusesPlayersBuiltInCode(t *testing.T) {
	cfg := Config{Agents: players("random", "test-first"), Games: 2, Setup: Setup{Seed: 1}, Remote: &fakeRemote{}}
	if _, err := RunTournament(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "built in code") {
		t.Fatalf("a player built in code went to remote workers: %v", err)
	}
}

// inMemory is a player built in code that remote workers build from its
// Remote spec: the same agent either way.
func inMemory(name, spec string) Player {
	return Player{Name: name, Remote: spec, New: func(seed uint64) (agents.Agent, error) { return agents.New(spec, seed) }}
}

// TestRemotePlayerBuiltInCodeTravelsByItsRemoteSpec: a player New builds
// here plays on remote workers from its Remote spec, under its own key, so
// the games and ratings are those of one process.
func TestRemotePlayerBuiltInCodeTravelsByItsRemoteSpec(t *testing.T) {
	cfg := Config{Agents: []Player{inMemory("net", "mcts:sims=8"), {Spec: "random"}, {Spec: "greedy"}}, Games: 4,
		Setup: Setup{OpeningPlies: 2, Paired: true, Seed: 9}}
	local, err := RunTournament(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rc := cfg
	rc.Remote = &fakeRemote{}
	remote, err := RunTournament(context.Background(), rc)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(local.Games, remote.Games) || !reflect.DeepEqual(local.Ratings, remote.Ratings) {
		t.Fatal("the remote tournament differs from the local one")
	}
	for _, g := range remote.Games {
		for seat, name := range g.Players {
			if name == "net" && g.Specs[seat] != "player=net" {
				t.Fatalf("the in-memory player's games are stored under %q, not its own key", g.Specs[seat])
			}
		}
	}
}

// TestRemoteSPRTSameDecisionAsOneProcess: an SPRT on remote workers (in
// batches, records delivered out of order and twice) counts the games of
// one process in the same order and decides the same.
func TestRemoteSPRTSameDecisionAsOneProcess(t *testing.T) {
	for _, maxGames := range []int{40, 200} {
		cfg := SPRTConfig{Setup: Setup{OpeningPlies: 2, Paired: true, Seed: 4}, A: inMemory("strong", "mcts:sims=16"), B: Player{Spec: "random"},
			Test: SPRT{Elo0: 0, Elo1: 50}, MaxGames: maxGames}
		local, err := RunSPRT(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		rc := cfg
		rc.Remote = &fakeRemote{}
		remote, err := RunSPRT(context.Background(), rc)
		if err != nil {
			t.Fatal(err)
		}
		if remote.Decision != local.Decision || remote.LLR != local.LLR || !reflect.DeepEqual(local.Games, remote.Games) {
			t.Fatalf("max %d: remote %s after %d games, local %s after %d", maxGames, remote.Decision, len(remote.Games), local.Decision, len(local.Games))
		}
		t.Logf("max %d: %s after %d games", maxGames, local.Decision, len(local.Games))
	}
}
