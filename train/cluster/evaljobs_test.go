package cluster

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/urim-rl/urim/evaluate"
)

// evalWorkers starts n workers of the test learner's run as goroutines;
// stop[i] stops worker i, and the returned func waits for them all.
func evalWorkers(t *testing.T, l *Learner, log *syncBuffer, n int) ([]context.CancelFunc, func()) {
	t.Helper()
	var wg sync.WaitGroup
	var stops []context.CancelFunc
	for i := range n {
		ctx, stop := context.WithCancel(context.Background())
		stops = append(stops, stop)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := RunWorker(ctx, WorkerOptions{URL: l.emb.URL, Credentials: l.emb.Worker, Run: "run", ID: fmt.Sprint("w", i), Threads: 1, Log: log}); err != nil {
				t.Errorf("worker %d: %v", i, err)
			}
		}()
	}
	return stops, func() {
		for _, s := range stops {
			s()
		}
		wg.Wait()
	}
}

func evalConfig(ckpt string) evaluate.Config {
	return evaluate.Config{Agents: evaluate.PlayersFromSpecs([]string{"random", "greedy", "az:ckpt=" + ckpt + ",sims=4"}), Games: 4,
		Setup: evaluate.Setup{Rules: "urim4", MaxPlies: 60, Seed: 5, OpeningPlies: 2, Paired: true, Workers: 2}}
}

// TestTournamentOverTwoWorkers: a tournament played by two workers (a
// checkpoint sent through the object store) gives the games and ratings
// of the same tournament in one process.
func TestTournamentOverTwoWorkers(t *testing.T) {
	l, _, log := openTestLearner(t)
	_, wait := evalWorkers(t, l, log, 2)
	defer wait()
	ctx, cancel := testBudget(t)
	defer cancel()
	er, err := OpenEval(ctx, l.emb.URL, l.emb.Learner, "run", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer er.Close()
	cfg := evalConfig(l.testNet)
	local, err := evaluate.RunTournament(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	rc := cfg
	rc.Remote = er
	remote, err := evaluate.RunTournament(ctx, rc)
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if remote.Played != len(local.Games) || !reflect.DeepEqual(local.Games, remote.Games) || !reflect.DeepEqual(local.Ratings, remote.Ratings) {
		t.Fatalf("the tournament over two workers differs from the one in one process (played %d of %d)", remote.Played, len(local.Games))
	}
}

// TestTournamentSurvivesAWorker: a worker stopped mid-tournament leaves
// its game to the other; the store holds every game once.
func TestTournamentSurvivesAWorker(t *testing.T) {
	l, _, log := openTestLearner(t)
	stops, wait := evalWorkers(t, l, log, 2)
	defer wait()
	ctx, cancel := testBudget(t)
	defer cancel()
	er, err := OpenEval(ctx, l.emb.URL, l.emb.Learner, "run", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer er.Close()
	cfg := evalConfig(l.testNet)
	cfg.Store = filepath.Join(t.TempDir(), "games.jsonl")
	cfg.Remote = er
	var once sync.Once
	cfg.Progress = func(done, total int) {
		if done >= 2 {
			once.Do(stops[0])
		}
	}
	res, err := evaluate.RunTournament(ctx, cfg)
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	total := 3 * cfg.Games
	if res.Played != total || res.Reused != 0 {
		t.Fatalf("played %d, reused %d; want %d and 0", res.Played, res.Reused, total)
	}
	s, err := evaluate.OpenStore(cfg.Store)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != total {
		t.Fatalf("the store holds %d games; want %d", s.Len(), total)
	}
	local := cfg
	local.Remote, local.Store, local.Progress = nil, "", nil
	want, err := evaluate.RunTournament(ctx, local)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want.Games, res.Games) {
		t.Fatal("the tournament that lost a worker differs from the one in one process")
	}
}
