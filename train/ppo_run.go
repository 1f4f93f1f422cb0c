package train

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/progress"
	"github.com/urim-rl/urim/nn"
)

// metaPool is the checkpoint metadata key of the opponent pool: the
// snapshot iterations, comma-separated.
const metaPool = "ppo_pool"

// step runs iteration it with the config's algorithm.
func (r *run) step(ctx context.Context, it int) (*Metrics, error) {
	if r.cfg.Algorithm == "ppo" {
		return r.ppoIteration(ctx, it)
	}
	return r.iteration(ctx, it)
}

// ppoMetricsHeader returns the columns of a PPO run's metrics.csv.
func ppoMetricsHeader(opponents []string) []string {
	h := []string{"iteration", "elapsed_s", "games", "env_steps", "train_moves", "env_steps_per_s",
		"rollout_s", "update_s", "env_s", "forward_s", "backward_s", "update_steps", "lr",
		"policy_loss", "value_loss", "entropy", "approx_kl", "clip_frac", "explained_var", "pool"}
	for _, o := range opponents {
		h = append(h, scoreColumn(o))
	}
	return append(h, "elo", "elo_lo95", "elo_hi95", "best")
}

// ppoMetrics is one PPO iteration's row.
type ppoMetrics struct {
	Metrics
	envSteps, trainMoves, updateSteps, pool int
	envStepsPerS, rolloutS, updateS         float64
	envS, forwardS, backwardS               float64
	clipFrac, explainedVar                  float64
}

func (m *ppoMetrics) row() []string {
	i := strconv.Itoa
	r := []string{i(m.Iteration), cell(m.ElapsedS), i(m.Games), i(m.envSteps), i(m.trainMoves), cell(m.envStepsPerS),
		cell(m.rolloutS), cell(m.updateS), cell(m.envS), cell(m.forwardS), cell(m.backwardS), i(m.updateSteps),
		cell(m.LR), cell(m.PolicyLoss), cell(m.ValueLoss), cell(m.Entropy), cell(m.KL), cell(m.clipFrac),
		cell(m.explainedVar), i(m.pool)}
	for _, s := range m.Scores {
		r = append(r, cell(s))
	}
	return append(r, cell(m.Elo), cell(m.EloLo), cell(m.EloHi), strconv.Itoa(m.Best))
}

// poolAfter returns the opponent pool once iteration it is complete: the
// previous pool, plus it when it is a snapshot iteration, the newest
// ppo.pool.size kept.
func poolAfter(prev []int, it int, p Pool) []int {
	out := append([]int(nil), prev...)
	if p.Share > 0 && it > 0 && it%p.Every == 0 {
		out = append(out, it)
	}
	if len(out) > p.Size {
		out = out[len(out)-p.Size:]
	}
	return out
}

func formatPool(pool []int) string {
	s := make([]string, len(pool))
	for i, it := range pool {
		s[i] = strconv.Itoa(it)
	}
	return strings.Join(s, ",")
}

// parsePool reads a checkpoint's pool metadata.
func parsePool(meta map[string]string) ([]int, error) {
	v := meta[metaPool]
	if v == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		it, err := strconv.Atoi(f)
		if err != nil || it < 0 {
			return nil, fmt.Errorf("train: ppo: checkpoint metadata %s=%q is not a list of iterations", metaPool, v)
		}
		out = append(out, it)
	}
	return out, nil
}

// ppoIteration collects a rollout, runs the PPO epochs, checkpoints
// (with the opponent pool), evaluates and commits iteration it.
func (r *run) ppoIteration(ctx context.Context, it int) (*Metrics, error) {
	cfg := &r.cfg
	if r.ppo == nil {
		// A new session: the pool is the one saved with the last
		// checkpoint; the games start afresh.
		ck, err := nn.Load(CheckpointPath(r.dir, it-1))
		if err != nil {
			return nil, fmt.Errorf("train: ppo: %w", err)
		}
		pool, err := parsePool(ck.Meta)
		if err != nil {
			return nil, err
		}
		if r.ppo, err = r.newPPOState(it, pool); err != nil {
			return nil, err
		}
		runtime.AddCleanup(r, func(s *ppoState) { s.close() }, r.ppo)
	}
	s := r.ppo
	m := &ppoMetrics{Metrics: Metrics{Iteration: it, Elo: math.NaN(), EloLo: math.NaN(), EloHi: math.NaN()}}
	for range cfg.Evaluation.Opponents {
		m.Scores = append(m.Scores, math.NaN())
	}
	rng := rand.New(rand.NewPCG(derive(cfg.Seed, 0x70706f, uint64(it)), 0x726f6c6c))

	// Rollout.
	t0 := time.Now()
	tm, episodes, err := s.collect(ctx, cfg, rng, r.progress(fmt.Sprintf("iter %d rollout", it), "steps"))
	if err != nil {
		return nil, err
	}
	// The games that ended, into dataset.dir (before state.json commits
	// the iteration: a resume cuts back what a kill leaves past it).
	if err := r.data.flush(); err != nil {
		return nil, err
	}
	s.ro.advantages(float32(cfg.PPO.Gamma), float32(cfg.PPO.Lambda))
	m.rolloutS = time.Since(t0).Seconds()
	m.Games, m.envSteps = episodes, s.ro.n*s.ro.t
	for _, ok := range s.ro.train {
		if ok {
			m.trainMoves++
		}
	}
	m.Positions = m.trainMoves
	m.explainedVar = s.ro.explainedVariance()

	// Update.
	t1 := time.Now()
	lr := r.learn.lrAt(r.progressOf(it))
	o := cfg.Optimizer
	sched := nn.Schedule{Kind: nn.ScheduleConstant, LR: lr, Warmup: int64(o.WarmupSteps)}
	if s.tr == nil {
		// The session's trainer, kept from one iteration to the next (its
		// optimizer state is the learner's: only the rate changes), so
		// that its buffers are not made again every iteration.
		tr, err := newTraining(r.learn.checkpoint(), nn.TrainConfig{
			Optimizer: nn.AdamW{WeightDecay: o.WeightDecay},
			Schedule:  sched,
			ClipNorm:  o.GradClip, Threads: s.threads,
		}, cfg.PPO.Minibatch)
		if err != nil {
			return nil, fmt.Errorf("train: ppo: %w", err)
		}
		s.tr = tr
	} else if err := s.tr.SetSchedule(sched); err != nil {
		return nil, fmt.Errorf("train: ppo: %w", err)
	}
	us, err := s.update(ctx, s.tr, cfg, rng, r.progress(fmt.Sprintf("iter %d update", it), "steps"))
	if err != nil {
		// The trainer's state is past the learner's: drop it.
		s.closeTrainer()
		return nil, err
	}
	ck := s.tr.Checkpoint()
	r.learn.opt, r.learn.step = ck.Optimizer, ck.Step
	m.updateS = time.Since(t1).Seconds()
	m.envS, m.forwardS, m.backwardS = tm.env, tm.forward, m.updateS
	m.envStepsPerS = float64(m.envSteps) / math.Max(m.rolloutS+m.updateS, 1e-9)
	m.updateSteps, m.LR = us.steps, us.lr
	m.PolicyLoss, m.ValueLoss, m.Entropy, m.KL, m.clipFrac = us.policy, us.value, us.entropy, us.kl, us.clipFrac
	if us.steps == 0 {
		m.PolicyLoss, m.ValueLoss, m.Entropy, m.KL, m.clipFrac, m.LR = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
	} else if math.IsNaN(m.PolicyLoss) || math.IsInf(m.PolicyLoss, 0) || math.IsNaN(m.ValueLoss) || math.IsInf(m.ValueLoss, 0) {
		return nil, fmt.Errorf("train: iteration %d: the loss is not finite (policy %v, value %v): lower optimizer.lr", it, m.PolicyLoss, m.ValueLoss)
	}

	// Checkpoint, with the pool as it stands after this iteration.
	pool := poolAfter(s.pool, it, cfg.PPO.Pool)
	m.pool = len(pool)
	save := r.learn.checkpoint()
	save.Meta = map[string]string{metaPool: formatPool(pool)}
	ckpt := CheckpointPath(r.dir, it)
	if err := nn.Save(ckpt, save); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}

	// Evaluation.
	best, bestElo, err := r.promote(ctx, it, t0, &m.Metrics, ckpt)
	if err != nil {
		return nil, err
	}

	// Commit: metrics, then state.json.
	m.Best = best
	m.ElapsedS = r.elapsed()
	row := m.row()
	if err := writeMetrics(filepath.Join(r.dir, metricsFile), r.head, r.table, it-1, row); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	r.table.Rows = append(r.table.Rows, row)
	r.table.Header = r.head
	st := State{Iteration: it, ElapsedS: m.ElapsedS, Games: r.st.Games + int64(episodes),
		Positions: r.st.Positions + int64(m.envSteps), Best: best, BestElo: bestElo}
	if err := writeState(r.dir, st); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	r.st = st
	if err := s.setPool(r, pool); err != nil {
		return nil, err
	}
	if err := pruneCheckpoints(r.dir, st, cfg.Checkpoints, pool); err != nil {
		fmt.Fprintf(r.log, "train: %v\n", err)
	}
	if _, err := WritePlots(r.dir, r.table); err != nil {
		fmt.Fprintf(r.log, "train: %v\n", err)
	}
	fmt.Fprintln(r.log, ppoSummaryLine(m))
	r.lastIterS = time.Since(t0).Seconds()
	return &m.Metrics, nil
}

// ppoSummaryLine is the one line printed per PPO iteration.
func ppoSummaryLine(m *ppoMetrics) string {
	var b strings.Builder
	fmt.Fprintf(&b, "iter %d: %d env steps (%.0f/s; env %.2fs, forward %.2fs, update %.2fs), %s",
		m.Iteration, m.envSteps, m.envStepsPerS, m.envS, m.forwardS, m.backwardS, progress.Count(m.Games, "games"))
	if m.updateSteps > 0 {
		fmt.Fprintf(&b, "; %d steps, loss policy %.3f value %.3f, entropy %.3f, KL %.4f, clip %.2f, expl.var %.2f",
			m.updateSteps, m.PolicyLoss, m.ValueLoss, m.Entropy, m.KL, m.clipFrac, m.explainedVar)
	}
	if m.pool > 0 {
		fmt.Fprintf(&b, "; pool %d", m.pool)
	}
	if !math.IsNaN(m.Elo) {
		fmt.Fprintf(&b, "; Elo %.0f [%.0f, %.0f]", m.Elo, m.EloLo, m.EloHi)
	}
	fmt.Fprintf(&b, "; best %d; %.0fs", m.Best, m.ElapsedS)
	return b.String()
}

// ppoCandidate is the player of a PPO network in evaluation: its policy
// alone (the neural agent at temperature 0), as it was trained to play.
func ppoCandidate(it int, net *nn.Net) evaluate.Player {
	name := fmt.Sprintf("iter-%04d", it)
	return evaluate.Player{Name: name, New: func(seed uint64) (agents.Agent, error) {
		return agents.NewNeural(net, name, 0, seed), nil
	}}
}
