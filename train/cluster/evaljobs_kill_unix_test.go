//go:build unix

package cluster

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/urim-rl/urim/evaluate"
)

// shortAckWait shortens the AckWait of the run's tournament consumer, so
// that a killed worker's job is offered again within seconds, not 30.
func shortAckWait(t *testing.T, er *EvalRemote, d time.Duration) {
	t.Helper()
	ctx := context.Background()
	cons, err := er.res.js.Consumer(ctx, er.res.n.evalStream, evalConsumer)
	if err != nil {
		t.Fatal(err)
	}
	cc := cons.CachedInfo().Config
	cc.AckWait = d
	if _, err := er.res.js.UpdateConsumer(ctx, er.res.n.evalStream, cc); err != nil {
		t.Fatal(err)
	}
}

// storedKeys returns the store key of every record in the store file at
// path, as written (a key twice would be a game stored twice).
func storedKeys(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var keys []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for first := true; sc.Scan(); first = false {
		if first {
			continue // the header
		}
		var rec evaluate.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, evaluate.RecordKey(&rec))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return keys
}

// checkStoredOnce fails unless the store at path holds want games, each
// once.
func checkStoredOnce(t *testing.T, path string, want int) {
	t.Helper()
	keys := storedKeys(t, path)
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			t.Errorf("game %s stored twice", k)
		}
		seen[k] = true
	}
	if len(keys) != want {
		t.Errorf("the store holds %d games; want %d", len(keys), want)
	}
}

// waitLog waits until the log holds s, failing when the test's time
// (testBudget) runs out or when done delivers first.
func waitLog(t *testing.T, log *syncBuffer, s string, done <-chan error) {
	t.Helper()
	if err := waitFor(t, done, func() bool { return strings.Contains(log.String(), s) }); err != nil {
		t.Fatalf("no %q in the log: the tournament: %v\n%s", s, err, log)
	}
}

// TestTournamentWorkerKilledMidGame: a worker killed with SIGKILL while it
// holds a tournament game (played, its record not sent; or its record
// sent, the job not acknowledged) leaves the job on the work queue: it is
// offered again when its AckWait ends, another worker plays it, the
// tournament completes with the games of one process, and each game is
// counted and stored once.
func TestTournamentWorkerKilledMidGame(t *testing.T) {
	for _, stage := range []string{"played", "published"} {
		t.Run(stage, func(t *testing.T) {
			l, _, log := openTestLearner(t)
			ctx, cancel := testBudget(t)
			defer cancel()
			er, err := OpenEval(ctx, l.emb.URL, l.emb.Learner, "run", 1)
			if err != nil {
				t.Fatal(err)
			}
			defer er.Close()
			shortAckWait(t, er, 2*time.Second)
			a := startWorker(t, l.emb.URL, "a", l.emb.Worker, log, "URIM_CLUSTER_TEST_EVAL_STALL="+stage)
			cfg := evalConfig(l.testNet)
			cfg.Store = filepath.Join(t.TempDir(), "games.jsonl")
			cfg.Remote = er
			var mu sync.Mutex
			delivered := 0
			cfg.Progress = func(int, int) { mu.Lock(); delivered++; mu.Unlock() }
			var res *evaluate.Result
			done := make(chan error, 1)
			go func() {
				var err error
				res, err = evaluate.RunTournament(ctx, cfg)
				done <- err
			}()
			waitLog(t, log, "worker a: stalled, game "+stage, done)
			if err := a.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_, wait := evalWorkers(t, l, log, 1)
			defer wait()
			if err := <-done; err != nil {
				t.Fatalf("%v\n%s", err, log)
			}
			total := 3 * cfg.Games
			mu.Lock()
			if res.Played != total || res.Reused != 0 || delivered != total {
				t.Errorf("played %d, reused %d, delivered %d; want %d, 0, %d", res.Played, res.Reused, delivered, total, total)
			}
			mu.Unlock()
			checkStoredOnce(t, cfg.Store, total)
			if stage == "played" { // the game a played went nowhere: only a second delivery could finish it
				info, err := er.res.js.Consumer(ctx, er.res.n.evalStream, evalConsumer)
				if err != nil {
					t.Fatal(err)
				}
				if got := info.CachedInfo().Delivered.Consumer; got <= uint64(total) {
					t.Errorf("%d deliveries of %d jobs: the killed worker's job was not offered again", got, total)
				}
			}
			local := cfg
			local.Remote, local.Store, local.Progress = nil, "", nil
			want, err := evaluate.RunTournament(ctx, local)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(want.Games, res.Games) || !reflect.DeepEqual(want.Ratings, res.Ratings) {
				t.Error("the tournament that lost a worker differs from the one in one process")
			}
		})
	}
}

// TestTournamentResumesAfterItsWorkersDie: the only worker of a
// tournament killed with SIGKILL, the tournament interrupted (urim eval
// stopped by Ctrl-C) keeps the games it received in its store; run again
// on a new worker it plays only the others, and the store holds each game
// once.
func TestTournamentResumesAfterItsWorkersDie(t *testing.T) {
	l, _, log := openTestLearner(t)
	ctx, cancel := testBudget(t)
	defer cancel()
	er, err := OpenEval(ctx, l.emb.URL, l.emb.Learner, "run", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer er.Close()
	a := startWorker(t, l.emb.URL, "a", l.emb.Worker, log)
	cfg := evalConfig(l.testNet)
	cfg.Store = filepath.Join(t.TempDir(), "games.jsonl")
	cfg.Remote = er
	total := 3 * cfg.Games
	tctx, interrupt := context.WithCancel(ctx)
	var once sync.Once
	first := cfg
	first.Progress = func(done, _ int) {
		if done >= 3 {
			once.Do(func() {
				_ = a.Process.Signal(syscall.SIGKILL)
				_ = a.Wait()
				interrupt()
			})
		}
	}
	res, err := evaluate.RunTournament(tctx, first)
	if err == nil {
		t.Fatalf("the tournament without workers completed (played %d)", res.Played)
	}
	kept := len(storedKeys(t, cfg.Store))
	if kept < 3 || kept >= total {
		t.Fatalf("the interrupted tournament stored %d games; want from 3 to %d", kept, total-1)
	}
	_, wait := evalWorkers(t, l, log, 1)
	defer wait()
	again, err := evaluate.RunTournament(ctx, cfg)
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if again.Reused != kept || again.Played != total-kept {
		t.Errorf("reused %d and played %d games; want %d and %d", again.Reused, again.Played, kept, total-kept)
	}
	checkStoredOnce(t, cfg.Store, total)
	local := cfg
	local.Remote, local.Store = nil, ""
	want, err := evaluate.RunTournament(ctx, local)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want.Games, again.Games) {
		t.Error("the resumed tournament differs from the one in one process")
	}
}
