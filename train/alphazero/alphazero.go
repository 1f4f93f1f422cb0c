// Package alphazero is the AlphaZero algorithm of package train: each
// iteration plays self-play games with the lock-step PUCT search of
// agents.Lockstep, keeps every fully searched position in the replay window
// (a [Buffer]) with its visit distribution, root value and the game's final
// reward for the mover, and trains the network on batches drawn from the
// window. It registers itself as algorithm "alphazero"; the run core
// (package train) does the rest.
package alphazero

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/progress"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

func init() { train.Register("alphazero", New) }

// algorithm is one session of an AlphaZero run.
type algorithm struct {
	s     *train.Session
	cfg   *train.Config
	learn *learner
	buf   *Buffer
}

// New returns the algorithm of session s: the replay window of its last
// committed iteration (empty for a new run).
func New(s *train.Session) (train.Algorithm, error) {
	a := &algorithm{s: s, cfg: s.Config, learn: newLearner(s)}
	dim, actions := s.Encoder.Dim(), s.Game.PitsPerRow()
	if name := s.State.Replay; name != "" {
		buf, err := LoadBuffer(filepath.Join(s.Dir, name))
		if err != nil {
			return nil, fmt.Errorf("train: resume: %w", err)
		}
		if buf.dim != dim || buf.actions != actions {
			return nil, fmt.Errorf("train: resume: replay buffer %s has %d×%d columns, want %d×%d", name, buf.dim, buf.actions, dim, actions)
		}
		a.buf = buf.Resize(a.cfg.Replay.Window)
		fmt.Fprintf(s.Log, "train: %s in the replay buffer\n", progress.Count(a.buf.Len(), "positions"))
	} else {
		a.buf = NewBuffer(dim, actions, a.cfg.Replay.Window)
	}
	return a, nil
}

// Columns are the metrics.csv columns of an AlphaZero run.
func (a *algorithm) Columns() []string {
	return []string{"positions", "mean_plies", "resigned", "false_resign",
		"selfplay_s", "positions_per_s", "buffer", "train_steps", "steps_per_s", "lr",
		"policy_loss", "value_loss", "entropy", "kl"}
}

// Player is iteration it's network as an az agent, searching with the
// evaluation's simulations.
func (a *algorithm) Player(it int, net *nn.Net) evaluate.Player {
	name := train.PlayerName(it)
	sims := a.cfg.Evaluation.Sims
	if sims == 0 {
		sims = a.cfg.Search.Sims
	}
	mc := agents.MCTSConfig{Sims: sims, C: a.cfg.Search.CPuct, Batch: a.cfg.Search.LeafBatch, Reward: a.s.Reward}
	return evaluate.Player{Name: name, New: func(seed uint64) (agents.Agent, error) {
		return agents.NewAZ(net, name, mc, seed)
	}}
}

func (a *algorithm) Committed(int) error { return nil }
func (a *algorithm) Close()              {}

// Iterate plays iteration it's self-play, trains on the window and saves
// the window and the sample games.
func (a *algorithm) Iterate(ctx context.Context, it int) (*train.Iteration, error) {
	s, cfg := a.s, a.cfg
	m := metrics{lr: math.NaN(), policyLoss: math.NaN(), valueLoss: math.NaN(), entropy: math.NaN(),
		kl: math.NaN(), stepsPerS: math.NaN()}

	// Self-play.
	ls, err := newSearcher(s, s.Seed(0x736561726368, uint64(it)))
	if err != nil {
		return nil, err
	}
	bar := s.Progress(fmt.Sprintf("iter %d self-play", it), "games")
	t0 := time.Now()
	sp, err := selfPlay(ctx, cfg, s.Game, s.Encoder, s.Reward, ls, a.buf, s.Data, it, s.State.Games, bar)
	if err != nil {
		return nil, err
	}
	if err := s.Data.Commit(); err != nil {
		return nil, err
	}
	m.selfPlayS = time.Since(t0).Seconds()
	m.games, m.positions, m.resigned, m.falseResign = sp.games, sp.positions, sp.resigned, sp.falseResign
	m.meanPlies = float64(sp.plies) / float64(max(sp.games, 1))
	m.positionsPerS = float64(sp.positions) / math.Max(m.selfPlayS, 1e-9)
	m.buffer = a.buf.Len()

	// Training.
	if a.buf.Len() >= cfg.Replay.MinPositions && sp.positions > 0 {
		steps := int(math.Ceil(float64(sp.positions) * cfg.Optimizer.SamplesPerPosition / float64(cfg.Optimizer.BatchSize)))
		probe := a.buf.Newest(min(sp.positions, 512))
		before := policyOf(s.Net, probe)
		bar := s.Progress(fmt.Sprintf("iter %d training", it), "steps")
		t1 := time.Now()
		ts, err := a.learn.train(ctx, a.buf, steps, s.Seed(0x747261696e, uint64(it)), s.LR(it), bar)
		if err != nil {
			return nil, err
		}
		m.steps = steps
		m.stepsPerS = float64(steps) / math.Max(time.Since(t1).Seconds(), 1e-9)
		m.policyLoss, m.valueLoss, m.lr = ts.policy, ts.value, ts.lr
		if math.IsNaN(m.policyLoss) || math.IsInf(m.policyLoss, 0) || math.IsNaN(m.valueLoss) || math.IsInf(m.valueLoss, 0) {
			return nil, fmt.Errorf("train: iteration %d: the loss is not finite (policy %v, value %v): lower optimizer.lr", it, m.policyLoss, m.valueLoss)
		}
		after := policyOf(s.Net, probe)
		m.entropy, m.kl = entropyKL(before, after, probe.Mask, s.Game.PitsPerRow())
	}

	// The window and the sample games.
	replay := replayName(it)
	if err := a.buf.Save(filepath.Join(s.Dir, replay)); err != nil {
		return nil, err
	}
	if len(sp.records) > 0 {
		if err := saveRecords(filepath.Join(s.Dir, "selfplay", "games.jsonl"), sp.records); err != nil {
			return nil, err
		}
	}
	return &train.Iteration{Games: sp.games, Positions: sp.positions, Cells: m.cells(), Summary: m.summary(),
		Replay: replay}, nil
}

func replayName(it int) string { return fmt.Sprintf("replay-%04d.bin", it) }

// saveRecords adds self-play games to the store at path.
func saveRecords(path string, recs []evaluate.Record) error {
	st, err := evaluate.OpenStore(path)
	if err != nil {
		return err
	}
	for _, rec := range recs {
		st.Add(rec)
	}
	return st.Save()
}
