// Package ppo is the PPO algorithm of package train: proximal policy
// optimization in self-play on the vectorized environment (env.Vec), with
// GAE, a clipped surrogate and value loss, and an optional pool of frozen
// past networks as opponents (docs/ppo.md). It registers itself as
// algorithm "ppo", with its config section ppo ([Section]); the run core
// (package train) does the rest.
package ppo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/network"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/progress"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

// Name is the algorithm's registered name (the config's algorithm).
const Name = "ppo"

func init() {
	train.Register(Name, train.Spec{New: New, Panels: panels, Sections: []train.Section{Section}})
}

// panels are the quantities of a PPO run's figures.
var panels = []train.Panel{
	{Figure: train.LossesFigure, Column: "policy_loss", Title: "Policy loss", Unit: "loss"},
	{Figure: train.LossesFigure, Column: "value_loss", Title: "Value loss", Unit: "loss"},
	{Figure: train.LossesFigure, Column: "entropy", Title: "Policy entropy", Unit: "nats"},
	{Figure: train.LossesFigure, Column: "approx_kl", Title: "Approximate KL per update", Unit: "nats"},
	{Figure: train.LossesFigure, Column: "clip_frac", Title: "Clip fraction", Unit: "share of moves"},
	{Figure: train.LossesFigure, Column: "explained_var", Title: "Explained variance of the value", Unit: "share of variance"},
	{Figure: train.SpeedFigure, Column: "env_steps_per_s", Title: "Rollout and update (PPO)", Unit: "environment steps/s"},
}

// algorithm is one session of a PPO run.
type algorithm struct {
	s    *train.Session
	cfg  *train.Config
	st   *ppoState // made by the session's first iteration
	pool []int     // the pool after the iteration being committed
}

// New returns the algorithm of session s. Its games start with the
// session's first iteration, from the pool saved with the last checkpoint.
func New(s *train.Session) (train.Algorithm, error) {
	return &algorithm{s: s, cfg: s.Config}, nil
}

// Columns are the metrics.csv columns of a PPO run.
func (a *algorithm) Columns() []string {
	return []string{"env_steps", "train_moves", "env_steps_per_s",
		"rollout_s", "update_s", "env_s", "forward_s", "backward_s", "update_steps", "lr",
		"policy_loss", "value_loss", "entropy", "approx_kl", "clip_frac", "explained_var", "pool"}
}

// Player is the player of a PPO network in evaluation: its policy alone
// (the neural agent at temperature 0), as it was trained to play.
func (a *algorithm) Player(it int, net *nn.Net) evaluate.Player {
	name := train.PlayerName(it)
	return evaluate.Player{Name: name, New: func(seed uint64) (agents.Agent, error) {
		return network.NewNeural(net, name, 0, seed), nil
	}}
}

// Committed loads the pool's snapshots as they stand after iteration it.
func (a *algorithm) Committed(int) error { return a.st.setPool(a.s, a.pool) }

// KeptCheckpoints are the opponent pool's snapshots, which the games load.
func (a *algorithm) KeptCheckpoints() []int { return a.pool }

// Close stops the session's games and trainer.
func (a *algorithm) Close() { a.st.close() }

// metrics is one PPO iteration's values of the PPO columns.
type metrics struct {
	games, envSteps, trainMoves, updateSteps, pool int
	envStepsPerS, rolloutS, updateS                float64
	envS, forwardS, backwardS                      float64
	lr, policyLoss, valueLoss, entropy, kl         float64
	clipFrac, explainedVar                         float64
}

func (m *metrics) cells() []string {
	i, c := strconv.Itoa, train.Cell
	return []string{i(m.envSteps), i(m.trainMoves), c(m.envStepsPerS),
		c(m.rolloutS), c(m.updateS), c(m.envS), c(m.forwardS), c(m.backwardS), i(m.updateSteps),
		c(m.lr), c(m.policyLoss), c(m.valueLoss), c(m.entropy), c(m.kl), c(m.clipFrac),
		c(m.explainedVar), i(m.pool)}
}

// summary is the algorithm's part of the iteration's log line.
func (m *metrics) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d env steps (%.0f/s; env %.2fs, forward %.2fs, update %.2fs), %s",
		m.envSteps, m.envStepsPerS, m.envS, m.forwardS, m.backwardS, progress.Count(m.games, "games"))
	if m.updateSteps > 0 {
		fmt.Fprintf(&b, "; %d steps, loss policy %.3f value %.3f, entropy %.3f, KL %.4f, clip %.2f, expl.var %.2f",
			m.updateSteps, m.policyLoss, m.valueLoss, m.entropy, m.kl, m.clipFrac, m.explainedVar)
	}
	if m.pool > 0 {
		fmt.Fprintf(&b, "; pool %d", m.pool)
	}
	return b.String()
}

// Iterate collects a rollout and runs the PPO epochs of iteration it; the
// checkpoint carries the opponent pool as it stands after the iteration.
func (a *algorithm) Iterate(ctx context.Context, it int) (*train.Iteration, error) {
	sess, cfg := a.s, a.cfg
	if a.st == nil {
		// A new session: the pool is the one saved with the last
		// checkpoint; the games start afresh.
		ck, err := nn.Load(train.CheckpointPath(sess.Dir, it-1))
		if err != nil {
			return nil, fmt.Errorf("train: ppo: %w", err)
		}
		pool, err := parsePool(ck.Meta)
		if err != nil {
			return nil, err
		}
		if a.st, err = newPPOState(sess, it, pool); err != nil {
			return nil, err
		}
	}
	s := a.st
	var m metrics
	rng := rand.New(rand.NewPCG(sess.Seed(0x70706f, uint64(it)), 0x726f6c6c))

	// Rollout.
	t0 := time.Now()
	tm, episodes, err := s.collect(ctx, cfg, rng, sess.Progress(sess.Iter(it)+" rollout", "steps"))
	if err != nil {
		return nil, err
	}
	// The games that ended, into dataset.dir (before state.json commits
	// the iteration: a resume cuts back what a kill leaves past it).
	if err := sess.Data.Flush(); err != nil {
		return nil, err
	}
	p := Section.Of(cfg)
	s.ro.advantages(float32(p.Gamma), float32(p.Lambda))
	m.rolloutS = time.Since(t0).Seconds()
	m.games, m.envSteps = episodes, s.ro.n*s.ro.t
	for _, ok := range s.ro.train {
		if ok {
			m.trainMoves++
		}
	}
	m.explainedVar = s.ro.explainedVariance()

	// Update.
	t1 := time.Now()
	o := cfg.Optimizer
	sched := nn.Schedule{Kind: nn.ScheduleConstant, LR: sess.LR(it), Warmup: int64(o.WarmupSteps)}
	if s.tr == nil {
		// The session's trainer, kept from one iteration to the next (its
		// optimizer state is the session's: only the rate changes), so
		// that its buffers are not made again every iteration.
		tr, err := sess.NewTraining(nn.TrainConfig{
			Optimizer: nn.AdamW{WeightDecay: o.WeightDecay},
			Schedule:  sched,
			ClipNorm:  o.GradClip, Threads: s.threads,
		}, p.Minibatch)
		if err != nil {
			return nil, fmt.Errorf("train: ppo: %w", err)
		}
		s.tr = tr
	} else if err := s.tr.SetSchedule(sched); err != nil {
		return nil, fmt.Errorf("train: ppo: %w", err)
	}
	us, err := s.update(ctx, s.tr, cfg, rng, sess.Progress(sess.Iter(it)+" update", "steps"))
	if err != nil {
		// The trainer's state is past the session's: drop it.
		s.closeTrainer()
		return nil, err
	}
	ck := s.tr.Checkpoint()
	sess.Optimizer, sess.Step = ck.Optimizer, ck.Step
	m.updateS = time.Since(t1).Seconds()
	m.envS, m.forwardS, m.backwardS = tm.env, tm.forward, m.updateS
	m.envStepsPerS = float64(m.envSteps) / math.Max(m.rolloutS+m.updateS, 1e-9)
	m.updateSteps, m.lr = us.steps, us.lr
	m.policyLoss, m.valueLoss, m.entropy, m.kl, m.clipFrac = us.policy, us.value, us.entropy, us.kl, us.clipFrac
	if us.steps == 0 {
		m.policyLoss, m.valueLoss, m.entropy, m.kl, m.clipFrac, m.lr = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
	} else if math.IsNaN(m.policyLoss) || math.IsInf(m.policyLoss, 0) || math.IsNaN(m.valueLoss) || math.IsInf(m.valueLoss, 0) {
		return nil, fmt.Errorf("train: iteration %d: the loss is not finite (policy %v, value %v): lower optimizer.lr", it, m.policyLoss, m.valueLoss)
	}

	// The pool as it stands after this iteration, into the checkpoint.
	a.pool = poolAfter(s.pool, it, p.Pool)
	m.pool = len(a.pool)
	return &train.Iteration{Games: episodes, Positions: m.envSteps, Cells: m.cells(), Summary: m.summary(),
		Meta: map[string]string{metaPool: formatPool(a.pool)}}, nil
}
