// Package alphazero is the AlphaZero algorithm of package train: each
// iteration plays self-play games with the lock-step PUCT search of
// agents.Lockstep, adds every fully searched position, with its visit
// distribution, root value and the game's final reward for the mover, to
// the replay window, and trains the network on batches drawn from the
// window. The window is dataset shards (the run's own self-play in replay/
// of the run directory, and those of replay.datasets), listed in
// state.json and held in memory in a ring ([Buffer]). It registers itself
// as algorithm "alphazero", with its config sections search, selfplay,
// replay and training ([SearchSection], [SelfPlaySection], [ReplaySection],
// [TrainingSection]);
// the run core (package train) does the rest.
package alphazero

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/progress"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/tablebase"
	"github.com/urim-rl/urim/train"
)

// Name is the algorithm's registered name (the config's algorithm).
const Name = "alphazero"

func init() {
	train.Register(Name, train.Spec{New: New, Panels: panels, Sections: sections, Remote: remotePart, Arch: netArch})
}

// netArch is the architecture of a new run's network: the network
// section's, with the score head when training.score_weight is above 0.
func netArch(cfg *train.Config, a nn.Arch) nn.Arch {
	a.Score = TrainingSection.Of(cfg).ScoreWeight > 0
	return a
}

// scoreOn reports whether the run trains a score head.
func scoreOn(cfg *train.Config) bool { return TrainingSection.Of(cfg).ScoreWeight > 0 }

// panels are the quantities of an AlphaZero run's figures.
var panels = []train.Panel{
	{Figure: train.LossesFigure, Column: "policy_loss", Title: "Policy loss", Unit: "loss"},
	{Figure: train.LossesFigure, Column: "value_loss", Title: "Value loss", Unit: "loss"},
	{Figure: train.LossesFigure, Column: "entropy", Title: "Policy entropy", Unit: "nats"},
	{Figure: train.LossesFigure, Column: "kl", Title: "KL of the policy, before to after training", Unit: "nats"},
	{Figure: train.LossesFigure, Column: "loss_score", Title: "Score loss (training.score_weight)", Unit: "loss"},
	{Figure: train.SpeedFigure, Column: "positions_per_s", Title: "Self-play (AlphaZero)", Unit: "positions/s"},
	{Figure: train.SpeedFigure, Column: "steps_per_s", Title: "Training (AlphaZero)", Unit: "steps/s"},
}

// algorithm is one session of an AlphaZero run.
type algorithm struct {
	s     *train.Session
	cfg   *train.Config
	learn *learner
	win   *window
	table *tablebase.Table // training.tablebase, or nil
	// seen holds the remote shards committed already (a distributed run);
	// recent the ids of the last iterations', for state.json.
	seen   map[string]bool
	recent [][]string
}

// New returns the algorithm of session s, with the replay window of its
// last committed iteration (for a new run, replay.datasets').
func New(s *train.Session) (train.Algorithm, error) {
	if has, want := s.Net.Arch().Score, scoreOn(s.Config); has != want {
		return nil, train.ConfigErrorf("training.score_weight", "%v, but the run's network (%v) %s a score head",
			TrainingSection.Of(s.Config).ScoreWeight, s.Net.Arch(), map[bool]string{true: "has", false: "has no"}[has])
	}
	table, err := loadTrainingTable(s)
	if err != nil {
		return nil, err
	}
	noteStoredMoves(s, table)
	var targets *tableTargets
	if table != nil {
		targets = &tableTargets{t: table, g: s.Game, reward: s.Reward, policy: TrainingSection.Of(s.Config).TablebasePolicy}
	}
	win, err := openWindow(s, targets)
	if err != nil {
		return nil, err
	}
	if win.buf.Len() > 0 {
		fmt.Fprintf(s.Log, "train: %s in the replay window, from %s\n", progress.Count(win.buf.Len(), "positions"),
			progress.Count(len(win.shards), "shards"))
	}
	a := &algorithm{s: s, cfg: s.Config, learn: newLearner(s), win: win, table: table}
	if tc := TrainingSection.Of(s.Config); tc.TablebaseSample > 0 && table != nil {
		if from := tc.TablebaseSampleMinSeeds; from > table.MaxSeeds() {
			return nil, train.ConfigErrorf("training.tablebase_sample_min_seeds", "%d, but the table holds at most %d seeds", from, table.MaxSeeds())
		}
		a.learn.table = &tableSampler{t: table, g: s.Game, enc: s.Encoder, reward: s.Reward, share: tc.TablebaseSample, from: tc.TablebaseSampleMinSeeds}
	}
	if s.Remote() != nil {
		if a.seen, a.recent, err = seenShards(s); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// Columns are the metrics.csv columns of an AlphaZero run.
func (a *algorithm) Columns() []string {
	cols := []string{"positions", "mean_plies", "resigned", "false_resign",
		"selfplay_s", "positions_per_s", "buffer", "train_steps", "steps_per_s", "lr",
		"policy_loss", "value_loss", "entropy", "kl", "table_targets"}
	if scoreOn(a.cfg) {
		cols = append(cols, "loss_score")
	}
	if a.s.Remote() != nil {
		cols = append(cols, remoteColumns...)
	}
	return cols
}

// Player is iteration it's network as an az agent, searching with the
// evaluation's simulations ([EvalPlayer]); a worker of a distributed run
// builds the same player from its checkpoint (its Remote spec, a
// train.RunNetwork; remotePart.Player).
func (a *algorithm) Player(it int, net *nn.Net) evaluate.Player {
	sims := EvalSims(a.cfg, it)
	p := EvalPlayer(a.cfg, a.s.Reward, it, sims, net)
	p.Remote = networkSpec(train.CheckpointPath(a.s.Dir, it), it, sims)
	return p
}

// Committed drops from replay/ the shards that left the window and, in a
// distributed run, acknowledges the iteration's worker shards.
func (a *algorithm) Committed(int) error {
	if err := a.win.prune(a.s.State.Games); err != nil {
		return err
	}
	if r := a.s.Remote(); r != nil {
		for _, ids := range a.recent {
			for _, id := range ids {
				a.seen[id] = true
			}
		}
		return r.Committed()
	}
	return nil
}

// Close marks replay/ complete until a resume reopens it.
func (a *algorithm) Close() {
	if err := a.win.close(); err != nil {
		fmt.Fprintf(a.s.Log, "train: %v\n", err)
	}
}

// Iterate plays iteration it's self-play, trains on the window and saves
// the window and the sample games.
func (a *algorithm) Iterate(ctx context.Context, it int) (*train.Iteration, error) {
	s, cfg := a.s, a.cfg
	m := metrics{lr: math.NaN(), policyLoss: math.NaN(), valueLoss: math.NaN(), entropy: math.NaN(),
		kl: math.NaN(), stepsPerS: math.NaN(), scoreLoss: math.NaN(), score: scoreOn(cfg)}

	// Self-play (the workers' in a distributed run).
	bar := s.Progress(s.Iter(it)+" self-play", "games")
	t0 := time.Now()
	var sp *selfPlayStats
	var rs remoteStats
	var err error
	if s.Remote() != nil {
		sp, rs, err = a.collect(ctx, it)
	} else {
		open := openings{g: s.Game, plies: SelfPlaySection.Of(cfg).OpeningPlies, seed: cfg.Seed, it: it}
		var ls *classic.Lockstep
		if ls, err = newSearcher(s, it, open, a.table, s.Seed(0x736561726368, uint64(it))); err != nil {
			return nil, err
		}
		sp, err = selfPlay(ctx, cfg, s.Game, s.Encoding, s.Reward, ls, open, a.win, s.Data, it, s.State.Games, bar)
	}
	if err != nil {
		return nil, err
	}
	if err := s.Data.Commit(); err != nil {
		return nil, err
	}
	if _, err := a.win.add(); err != nil {
		return nil, err
	}
	buf := a.win.buf
	m.selfPlayS = time.Since(t0).Seconds()
	m.games, m.positions, m.resigned, m.falseResign = sp.games, sp.positions, sp.resigned, sp.falseResign
	m.meanPlies = float64(sp.plies) / float64(max(sp.games, 1))
	m.positionsPerS = float64(sp.positions) / math.Max(m.selfPlayS, 1e-9)
	m.buffer = buf.Len()
	m.tableTargets = a.win.tabled

	// Training.
	if buf.Len() >= ReplaySection.Of(cfg).MinPositions && sp.positions > 0 {
		steps := int(math.Ceil(float64(sp.positions) * cfg.Optimizer.SamplesPerPosition / float64(cfg.Optimizer.BatchSize)))
		probe := buf.Newest(min(sp.positions, 512))
		before := policyOf(s.Net, probe)
		bar := s.Progress(s.Iter(it)+" training", "steps")
		t1 := time.Now()
		ts, err := a.learn.train(ctx, buf, steps, s.Seed(0x747261696e, uint64(it)), s.LR(it), bar)
		if err != nil {
			return nil, err
		}
		m.steps = steps
		m.stepsPerS = float64(steps) / math.Max(time.Since(t1).Seconds(), 1e-9)
		m.policyLoss, m.valueLoss, m.lr = ts.policy, ts.value, ts.lr
		if math.IsNaN(m.policyLoss) || math.IsInf(m.policyLoss, 0) || math.IsNaN(m.valueLoss) || math.IsInf(m.valueLoss, 0) {
			return nil, fmt.Errorf("train: iteration %d: the loss is not finite (policy %v, value %v): lower optimizer.lr", it, m.policyLoss, m.valueLoss)
		}
		if m.score {
			m.scoreLoss = ts.score
			if math.IsNaN(m.scoreLoss) || math.IsInf(m.scoreLoss, 0) {
				return nil, fmt.Errorf("train: iteration %d: the score loss is not finite (%v): lower optimizer.lr or training.score_weight", it, m.scoreLoss)
			}
		}
		after := policyOf(s.Net, probe)
		m.entropy, m.kl = entropyKL(before, after, probe.N, s.Game.PitsPerRow())
	}

	// The sample games.
	if len(sp.records) > 0 {
		if err := saveRecords(filepath.Join(s.Dir, "selfplay", "games.jsonl"), sp.records); err != nil {
			return nil, err
		}
	}
	cells, summary, ws := m.cells(), m.summary(), a.win.state()
	if s.Remote() != nil {
		cells = append(cells, rs.cells()...)
		summary += fmt.Sprintf("; %d worker shards (dropped: %d too old, %d refused)", rs.shards, rs.droppedLag, rs.droppedRefused)
		ws.Remote = a.recent
	}
	return &train.Iteration{Games: sp.games, Positions: sp.positions, Cells: cells, Summary: summary, Data: ws}, nil
}

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
