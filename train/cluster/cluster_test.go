package cluster

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/internal/syncbuf"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
	_ "github.com/urim-rl/urim/train/all"
)

// The test binary doubles as a worker and as a learner: run with
// URIM_CLUSTER_TEST_ROLE set it plays that part (with the arguments after
// the role) and exits.
func init() {
	switch os.Getenv("URIM_CLUSTER_TEST_ROLE") {
	case "worker":
		url, run, id := os.Args[1], os.Args[2], os.Args[3]
		if stage := os.Getenv("URIM_CLUSTER_TEST_EVAL_STALL"); stage != "" {
			// Stall on the first tournament game at stage, to be killed there.
			testHookEval = func(s string) {
				if s == stage {
					fmt.Fprintf(os.Stderr, "worker %s: stalled, game %s\n", id, stage)
					select {}
				}
			}
		}
		err := RunWorker(context.Background(), WorkerOptions{URL: url, Run: run, ID: id, Threads: 1,
			Credentials: CredentialsFrom(train.Cluster{}), Log: os.Stderr, ExitWithParent: true})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "learner":
		cfgFile, resume := os.Args[1], os.Args[2] == "resume"
		cfg, err := train.LoadConfig(cfgFile, nil)
		if err == nil {
			_, err = runLearner(context.Background(), cfg, resume, os.Stderr)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// testWorkers runs the local workers as this test binary.
func testWorkers(i int, url, run string) []string {
	return []string{os.Args[0], url, run, fmt.Sprintf("w%d", i)}
}

// runLearner runs cfg's learner with local workers that are this binary.
func runLearner(ctx context.Context, cfg train.Config, resume bool, log *os.File) (*train.Summary, error) {
	os.Setenv("URIM_CLUSTER_TEST_ROLE", "worker") // the workers' environment, inherited
	defer os.Unsetenv("URIM_CLUSTER_TEST_ROLE")
	l, err := OpenLearner(ctx, &cfg, LearnerOptions{Log: log, WorkerCommand: testWorkers})
	if err != nil {
		return nil, err
	}
	defer l.Close()
	return train.Run(ctx, cfg, train.Options{Resume: resume, Log: log, Remote: l})
}

// tinyCluster is configs/tiny.yaml as a distributed run in dir.
func tinyCluster(t *testing.T, dir string, sets ...string) train.Config {
	t.Helper()
	cfg, err := train.LoadConfig(filepath.Join("..", "..", "configs", "tiny.yaml"),
		append([]string{"output=" + filepath.Join(dir, "run"), "dataset.dir=" + filepath.Join(dir, "games"),
			"cluster.workers=2", "evaluation.every=0", "stop.iterations=3"}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// gameSeeds returns the opening seeds of every game in the dataset dir:
// each game a worker played has its own.
func gameSeeds(t *testing.T, dir string) []uint64 {
	t.Helper()
	d, err := dataset.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var seeds []uint64
	for i := range d.Manifest.Shards {
		sh, err := d.LoadShard(i)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range sh.Records {
			seeds = append(seeds, r.Seed)
		}
	}
	return seeds
}

// checkOnce fails when a game appears twice, or when the run's state does
// not count exactly the games of its dataset.
func checkOnce(t *testing.T, dir string) {
	t.Helper()
	st, _, err := train.ReadState(filepath.Join(dir, "run"))
	if err != nil {
		t.Fatal(err)
	}
	seeds := gameSeeds(t, filepath.Join(dir, "games"))
	seen := map[uint64]bool{}
	for _, s := range seeds {
		if seen[s] {
			t.Errorf("game of seed %d trained on twice", s)
		}
		seen[s] = true
	}
	if int64(len(seeds)) != st.Games {
		t.Errorf("the dataset holds %d games, state.json counts %d", len(seeds), st.Games)
	}
}

// recorder is a train.Remote that records the shards each committed
// iteration took.
type recorder struct {
	train.Remote
	mu        sync.Mutex
	last      []string
	committed []string
}

func (r *recorder) Collect(ctx context.Context, version, games int, seen func(string) bool) (*train.RemoteBatch, error) {
	b, err := r.Remote.Collect(ctx, version, games, seen)
	if err == nil {
		r.mu.Lock()
		r.last = b.Shards
		r.mu.Unlock()
	}
	return b, err
}

func (r *recorder) Committed() error {
	r.mu.Lock()
	r.committed = append(r.committed, r.last...)
	r.mu.Unlock()
	return r.Remote.Committed()
}

func TestLearnerAndTwoWorkersTrainEveryShardOnce(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyCluster(t, dir)
	log := newLog()
	os.Setenv("URIM_CLUSTER_TEST_ROLE", "worker")
	l, err := OpenLearner(context.Background(), &cfg, LearnerOptions{Log: log, WorkerCommand: testWorkers})
	os.Unsetenv("URIM_CLUSTER_TEST_ROLE")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{Remote: l}
	sum, err := train.Run(context.Background(), cfg, train.Options{Log: log, Remote: rec})
	l.Close()
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if sum.Iterations != 3 {
		t.Errorf("%d iterations, want 3", sum.Iterations)
	}
	ids := map[string]bool{}
	workers := map[string]bool{}
	for _, id := range rec.committed {
		if ids[id] {
			t.Errorf("shard %s trained on twice", id)
		}
		ids[id] = true
		workers[id[:strings.Index(id, "-")]] = true
	}
	if len(ids) == 0 {
		t.Fatalf("no shards trained on\n%s", log.String())
	}
	checkOnce(t, dir)
	tab, err := train.ReadMetrics(filepath.Join(dir, "run", "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0.0
	for _, v := range tab.Column("shards") {
		n += v
	}
	if int(n) != len(ids) {
		t.Errorf("metrics.csv counts %v shards, the learner committed %d", n, len(ids))
	}
	t.Logf("%d shards from workers %v", len(ids), workers)
}

// syncBuffer is a log written by the learner and its workers' pipes at once.
type syncBuffer = syncbuf.Buffer

// newLog returns a syncBuffer that also echoes to stderr under go test -v.
func newLog() *syncBuffer {
	if testing.Verbose() {
		return &syncBuffer{Echo: os.Stderr}
	}
	return &syncBuffer{}
}

// saveNet saves session s's network as a checkpoint at path.
func saveNet(path string, s *train.Session) error { return nn.Save(path, s.Checkpoint()) }

// testBudget returns a context that ends a little before the test's
// deadline (go test -timeout, 10 minutes by default), so that a test that
// runs out of time fails with its log instead of being killed; without a
// deadline (-timeout 0) it never ends by itself.
func testBudget(t *testing.T) (context.Context, context.CancelFunc) {
	t.Helper()
	d, ok := t.Deadline()
	if !ok {
		return context.WithCancel(context.Background())
	}
	return context.WithDeadline(context.Background(), d.Add(-testMargin(d)))
}

// testMargin is the time kept before a test's deadline d for its report:
// 30 s, or a tenth of what is left when that is less.
func testMargin(d time.Time) time.Duration {
	return min(30*time.Second, time.Until(d)/10)
}

// beforeDeadline reports whether the test still has time, its margin kept.
func beforeDeadline(t *testing.T) bool {
	d, ok := t.Deadline()
	return !ok || time.Now().Before(d.Add(-testMargin(d)))
}

// natsServer starts a NATS server with opts (tests bind 127.0.0.1, on a
// port the server picks: RANDOM_PORT, read back with ClientURL) and waits
// until it takes connections, within the test's time (testBudget). It
// returns an error rather than failing, for the tests that start a server
// from another goroutine.
func natsServer(t *testing.T, opts *server.Options) (*server.Server, error) {
	ctx, cancel := testBudget(t)
	defer cancel()
	wait := time.Hour // no deadline (-timeout 0): as long as it takes
	if d, ok := ctx.Deadline(); ok {
		wait = time.Until(d)
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, err
	}
	go srv.Start()
	if !srv.ReadyForConnections(wait) {
		srv.Shutdown()
		return nil, fmt.Errorf("the NATS server on %s did not start in the test's time", opts.Host)
	}
	return srv, nil
}

// waitFor polls cond until it holds. It returns an error, for the caller
// to fail with, when the test's time (testBudget) runs out first or when
// done (nil: never) delivers first, the thing waited on having ended.
func waitFor(t *testing.T, done <-chan error, cond func() bool) error {
	t.Helper()
	start := time.Now()
	for !cond() {
		if !beforeDeadline(t) {
			return fmt.Errorf("not after %v, the test's time", time.Since(start).Round(time.Second))
		}
		select {
		case err := <-done:
			return fmt.Errorf("it ended first: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nil
}

// waitIteration waits until the run in dir has committed iteration it, or
// the test's time (testBudget) runs out.
func waitIteration(t *testing.T, dir string, it int, done <-chan error) {
	t.Helper()
	if err := waitFor(t, done, func() bool {
		st, ok, err := train.ReadState(dir)
		return err == nil && ok && st.Iteration >= it
	}); err != nil {
		st, _, _ := train.ReadState(dir)
		t.Fatalf("no iteration %d (at iteration %d): the run: %v", it, st.Iteration, err)
	}
}

// The library does not write the worker's command line: local workers
// without LearnerOptions.WorkerCommand are refused, naming it, and nothing
// is left running.
func TestLocalWorkersNeedTheirCommand(t *testing.T) {
	cfg := tinyCluster(t, t.TempDir())
	_, err := OpenLearner(context.Background(), &cfg, LearnerOptions{Log: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "WorkerCommand") {
		t.Fatalf("OpenLearner without a worker command: %v, want WorkerCommand named", err)
	}
}
