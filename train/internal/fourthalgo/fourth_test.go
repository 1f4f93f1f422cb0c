package fourthalgo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/syncbuf"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
	"github.com/urim-rl/urim/train/cluster"
)

// name is the fourth algorithm's registered name, section its config
// section's key.
const (
	name    = "test-fourth"
	section = "walk"
)

// walkSection is the fourth algorithm's config section.
type walkSection struct {
	// Games are the games an iteration collects (or plays).
	Games int `yaml:"games"`
	// ChunkGames are the games of a worker's chunk of self-play; a
	// worker's --lockstep replaces it.
	ChunkGames int `yaml:"chunk_games"`
}

// walkConfig is the fourth algorithm's section, declared once.
var walkConfig = train.NewSection(section, "workers", func() walkSection { return walkSection{Games: 6, ChunkGames: 2} },
	func(_ *train.Config, w walkSection, _ *env.Game) error {
		if err := train.IntRange(section+".games", w.Games, 1, 1000); err != nil {
			return err
		}
		return train.IntRange(section+".chunk_games", w.ChunkGames, 1, 100)
	})

func walkOf(cfg *train.Config) walkSection { return walkConfig.Of(cfg) }

// The worker's side, counted for the test: the configs readied, the chunks
// played and the run's networks built for tournament jobs.
var (
	readied, chunks, built atomic.Int64
	// playedBy holds the network versions the chunks were played with.
	playedMu sync.Mutex
	playedBy = map[int]bool{}
)

func init() {
	train.Register(name, train.Spec{
		New:      func(s *train.Session) (train.Algorithm, error) { return &walker{s: s, seen: map[string]bool{}}, nil },
		Sections: []train.Section{walkConfig},
		Remote: &train.RemotePart{
			Worker: func(cfg *train.Config, lockstep int) string {
				readied.Add(1)
				w := walkOf(cfg)
				if lockstep > 0 {
					w.ChunkGames = lockstep
					walkConfig.Set(cfg, w)
				}
				return fmt.Sprintf("%d games a chunk", w.ChunkGames)
			},
			Play: func(ctx context.Context, s *train.Session, version, chunk int, emit func(*dataset.Game) error) error {
				chunks.Add(1)
				playedMu.Lock()
				playedBy[version] = true
				playedMu.Unlock()
				for i := range walkOf(s.Config).ChunkGames {
					if err := ctx.Err(); err != nil {
						return err
					}
					if err := emit(walk(s, int64(chunk)*1000+int64(i))); err != nil {
						return err
					}
				}
				return nil
			},
			Player: func(cfg *train.Config, n train.RunNetwork, net *nn.Net) (evaluate.Player, error) {
				if net == nil || n.Params["moves"] != "random" || cfg.Algorithm != name {
					return evaluate.Player{}, fmt.Errorf("fourth: %s: not a network of the run", n.Spec())
				}
				built.Add(1)
				return evaluate.Player{Name: train.PlayerName(n.Iter), New: randomAgent}, nil
			},
		},
	})
}

func randomAgent(seed uint64) (agents.Agent, error) { return classic.NewRandom(seed), nil }

// walk is game id of random legal moves, recorded with one-hot policy
// targets (the move played).
func walk(s *train.Session, id int64) *dataset.Game {
	seed := s.Seed(0x77616c6b, uint64(id))
	rng := rand.New(rand.NewPCG(seed, 1))
	rec := dataset.NewRecorder(s.Game, s.Encoding, s.Reward)
	rec.Start(id, seed, [2]string{"walk", "walk"}, nil)
	st := s.Game.Start()
	for !st.Terminal() {
		legal := st.Legal()
		a := legal.Nth(rng.IntN(legal.Count()))
		var sr dataset.Search
		sr.Policy[a] = 1
		rec.Add(&st, a, &sr)
		st.Play(a)
	}
	return rec.Finish(&st)
}

// walker is the fourth algorithm: it trains nothing; an iteration's games
// are its workers' (a distributed run) or its own.
type walker struct {
	s      *train.Session
	seen   map[string]bool
	shards []string
}

func (a *walker) Columns() []string { return []string{"shards"} }

func (a *walker) Iterate(ctx context.Context, it int) (*train.Iteration, error) {
	s, want := a.s, walkOf(a.s.Config).Games
	var games []dataset.Game
	if r := s.Remote(); r != nil {
		if err := r.Publish(ctx, it-1, train.CheckpointPath(s.Dir, it-1)); err != nil {
			return nil, err
		}
		b, err := r.Collect(ctx, it-1, want, func(id string) bool { return a.seen[id] })
		if err != nil {
			return nil, err
		}
		games, a.shards = b.Games, b.Shards
	} else {
		for i := range want {
			games = append(games, *walk(s, int64(it)*1000+int64(i)))
		}
	}
	positions := 0
	for _, g := range games {
		positions += g.Record.Positions
	}
	return &train.Iteration{Games: len(games), Positions: positions, Cells: []string{strconv.Itoa(len(a.shards))},
		Summary: fmt.Sprintf("%d games walked", len(games))}, nil
}

func (a *walker) Player(it int, net *nn.Net) evaluate.Player {
	return evaluate.Player{Name: train.PlayerName(it), New: randomAgent,
		Remote: train.RunNetwork{Path: train.CheckpointPath(a.s.Dir, it), Iter: it, Params: map[string]string{"moves": "random"}}.Spec()}
}

func (a *walker) Committed(int) error {
	r := a.s.Remote()
	if r == nil {
		return nil
	}
	for _, id := range a.shards {
		a.seen[id] = true
	}
	return r.Committed()
}

func (a *walker) Close() {}

// syncBuffer is a log written by the learner and the worker at once.
type syncBuffer = syncbuf.Buffer

// budget is a context that ends a little before the test's deadline.
func budget(t *testing.T) (context.Context, context.CancelFunc) {
	d, ok := t.Deadline()
	if !ok {
		return context.WithCancel(context.Background())
	}
	return context.WithDeadline(context.Background(), d.Add(-min(30*time.Second, time.Until(d)/10)))
}

// TestFourthAlgorithmOverTheCluster runs the fourth algorithm distributed:
// the learner of package cluster, on an embedded NATS server, publishes
// its networks and collects the games a worker (cluster.RunWorker, in this
// process) played with the algorithm's RemotePart from the run's config,
// its own section included; the in-run rating's games are jobs the worker
// plays, building the run's networks with the algorithm's Player.
func TestFourthAlgorithmOverTheCluster(t *testing.T) {
	ctx, cancel := budget(t)
	defer cancel()
	dir := t.TempDir()
	emb, err := cluster.StartEmbedded(filepath.Join(dir, "nats"), "fourth")
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Shutdown()
	t.Setenv(cluster.EnvUser, emb.Learner.User)
	t.Setenv(cluster.EnvPassword, emb.Learner.Password)
	cfg, err := train.ParseConfig(nil, "", []string{"algorithm=" + name, "output=" + filepath.Join(dir, "run"),
		"rules=urim4", "network.kind=mlp", "network.width=16", "network.depth=1", "network.layer_norm=false",
		"stop.iterations=3", "walk.games=5", "cluster.nats=" + emb.URL, "cluster.run=fourth", "cluster.games_per_shard=2",
		"cluster.evaluation=true", "evaluation.every=1", "evaluation.games=2", "evaluation.opponents=[random]"})
	if err != nil {
		t.Fatal(err)
	}
	log := &syncBuffer{}
	l, err := cluster.OpenLearner(ctx, &cfg, cluster.LearnerOptions{Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	wctx, stopWorker := context.WithCancel(ctx)
	workerDone := make(chan error, 1)
	go func() {
		workerDone <- cluster.RunWorker(wctx, cluster.WorkerOptions{URL: emb.URL, Credentials: emb.Worker, Run: "fourth",
			ID: "w", Threads: 1, Lockstep: 3, Log: log})
	}()
	sum, err := train.Run(ctx, cfg, train.Options{Log: log, Remote: l, Evaluation: l.Evaluation()})
	stopWorker()
	if werr := <-workerDone; werr != nil {
		t.Errorf("worker: %v", werr)
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if sum.Iterations != 3 {
		t.Errorf("%d iterations, want 3", sum.Iterations)
	}
	st, _, err := train.ReadState(sum.Dir)
	if err != nil {
		t.Fatal(err)
	}
	// Each iteration takes at least walk.games games of the worker's.
	if st.Games < 15 || st.Positions == 0 {
		t.Errorf("state %+v: want at least 15 games of the worker's", st)
	}
	if !strings.Contains(log.String(), "worker w: joined run fourth (urim4, 3 games a chunk)") {
		t.Errorf("the worker did not ready the run's config with the algorithm's Worker (its --lockstep for walk.chunk_games):\n%s", log)
	}
	playedMu.Lock()
	versions := len(playedBy)
	playedMu.Unlock()
	if readied.Load() != 1 || chunks.Load() < 5 || versions < 2 {
		t.Errorf("worker: %d configs readied, %d chunks played with %d network versions; want 1, at least 5 with 2 or more",
			readied.Load(), chunks.Load(), versions)
	}
	// Three ratings of two games each, every one with the run's network
	// built on the worker from its RunNetwork spec.
	if built.Load() < 6 {
		t.Errorf("the worker built the run's network for %d games, want 6 or more", built.Load())
	}
	tab, err := train.ReadMetrics(filepath.Join(sum.Dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tab.Column("shards") {
		if c < 1 {
			t.Errorf("shards column %v: every iteration takes the worker's shards", tab.Column("shards"))
			break
		}
	}
}
