package ppo

import (
	"bytes"
	"context"
	"github.com/urim-rl/urim/train"
	"github.com/urim-rl/urim/train/internal/traintest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/network"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// ppoTinyConfig is configs/ppo-tiny.yaml writing to dir, with overrides.
func ppoTinyConfig(t *testing.T, dir string, sets ...string) train.Config {
	t.Helper()
	cfg, err := train.LoadConfig(filepath.Join("..", "..", "configs", "ppo-tiny.yaml"), append([]string{"output=" + dir}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestPPOTinyRun runs configs/ppo-tiny.yaml end to end: every output is
// written, metrics.csv has PPO's columns, the pool is saved with the
// checkpoints, and the network plays as neural:ckpt= and az:ckpt=.
func TestMain(m *testing.M) { traintest.ChildMain(m) }

func TestPPOTinyRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	var log bytes.Buffer
	sum, err := train.Run(context.Background(), ppoTinyConfig(t, dir), train.Options{Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if sum.Iterations != 3 {
		t.Errorf("%d iterations, want 3", sum.Iterations)
	}
	for _, f := range []string{"config.yaml", "state.json", "metrics.csv", "losses.png", "speed.png", "elo.png",
		"eval/games.jsonl", "checkpoints/latest.ckpt", "checkpoints/best.ckpt", "checkpoints/iter-0003.ckpt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing output: %v", err)
		}
	}
	tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 3 {
		t.Fatalf("metrics.csv has %d rows, want 3", len(tab.Rows))
	}
	for _, col := range []string{"policy_loss", "value_loss", "entropy", "approx_kl", "clip_frac", "explained_var",
		"env_steps_per_s", "env_s", "forward_s", "backward_s"} {
		v := tab.Column(col)
		if v == nil || v[2] != v[2] {
			t.Errorf("metrics.csv column %s: %v", col, v)
		}
	}
	if s := tab.Column("score_random"); s[1] != s[1] || s[2] != s[2] {
		t.Errorf("iterations 2 and 3 are not evaluated: %v", s)
	}
	ck, err := nn.Load(train.CheckpointPath(dir, 3))
	if err != nil {
		t.Fatal(err)
	}
	if pool, err := parsePool(ck.Meta); err != nil || !slices.Equal(pool, []int{2, 3}) {
		t.Errorf("pool after iteration 3: %v (%v), want [2 3]", pool, err)
	}
	path := train.CheckpointPath(dir, 3)
	g := env.MustGame(ck.Net.Rules())
	for _, spec := range []string{"neural:ckpt=" + path, "az:ckpt=" + path + ",sims=16"} {
		a, err := agents.New(spec, 1)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		b, _ := agents.New("random", 2)
		end, err := agents.PlayGame(context.Background(), g.Start(), [2]agents.Agent{a, b}, nil)
		if err != nil || !end.Terminal() {
			t.Errorf("%s plays: %v (final %v)", spec, err, end)
		}
	}
}

// TestPPOKillAndResume kills a PPO run with SIGKILL in the middle of an
// iteration and resumes it: the run continues from the last committed
// iteration with its pool, metrics.csv has every iteration once, and the
// dataset (dataset.dir) holds the games of the completed iterations once.
func TestPPOKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process")
	}
	dir := filepath.Join(t.TempDir(), "run")
	traintest.KillChildRun(t, dir, filepath.Join("..", "..", "configs", "ppo-tiny.yaml"), 4)
	k := traintest.ReadState(t, dir).Iteration
	cfg := ppoTinyConfig(t, dir, "stop.iterations="+strconv.Itoa(k+2), "evaluation.every=3", "optimizer.schedule=constant",
		"dataset.dir="+dir+"-data", "dataset.shard_size=40")
	if _, err := train.Run(context.Background(), cfg, train.Options{Resume: true}); err != nil {
		t.Fatalf("resume after kill at iteration %d: %v", k, err)
	}
	if st := traintest.ReadState(t, dir); st.Iteration != k+2 {
		t.Errorf("resumed to iteration %d, want %d", st.Iteration, k+2)
	}
	tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	its := tab.Column("iteration")
	if len(its) != k+2 {
		t.Fatalf("metrics.csv has %d rows after resuming from %d, want %d", len(its), k, k+2)
	}
	for i, v := range its {
		if int(v) != i+1 {
			t.Fatalf("metrics.csv iterations %v", its)
		}
	}
	ck, err := nn.Load(train.CheckpointPath(dir, k+2))
	if err != nil {
		t.Fatal(err)
	}
	if pool, _ := parsePool(ck.Meta); !slices.Equal(pool, []int{k + 1, k + 2}) {
		t.Errorf("pool after iteration %d: %v, want [%d %d]", k+2, pool, k+1, k+2)
	}
	ppoDatasetGames(t, dir+"-data", dir)
}

// TestPPOBeatsRandom trains briefly on urim4 (a few seconds) and checks
// that the policy alone beats the random agent clearly.
func TestPPOBeatsRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("trains for a few seconds")
	}
	dir := filepath.Join(t.TempDir(), "run")
	cfg := ppoTinyConfig(t, dir, "max_plies=0", "network.width=32", "ppo.games=64", "ppo.steps=32",
		"ppo.epochs=4", "ppo.minibatch=256", "ppo.pool.share=0", "stop.iterations=10", "evaluation.every=0")
	if _, err := train.Run(context.Background(), cfg, train.Options{}); err != nil {
		t.Fatal(err)
	}
	net, err := nn.LoadNet(train.CheckpointPath(dir, 10))
	if err != nil {
		t.Fatal(err)
	}
	g := env.MustGame(net.Rules())
	const games = 200
	var score float64
	for i := 0; i < games; i++ {
		start := g.Start()
		for _, a := range g.RandomOpening(2, uint64(i/2)) {
			start.Play(a)
		}
		seat := i % 2
		var players [2]agents.Agent
		players[seat] = network.NewNeural(net, "ppo", 0, 1)
		players[1-seat], _ = agents.New("random", uint64(i))
		end, err := agents.PlayGame(context.Background(), start, players, nil)
		if err != nil {
			t.Fatal(err)
		}
		switch end.Winner() {
		case seat:
			score++
		case -1:
			score += 0.5
		}
	}
	score /= games
	t.Logf("PPO policy vs random on urim4: score %.3f over %d games", score, games)
	if score < 0.7 {
		t.Errorf("score %.3f against random, want at least 0.7", score)
	}
}
