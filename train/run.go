package train

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/progress"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/tablebase"
)

// Options are the run's non-config settings: where its output goes and how
// it starts.
type Options struct {
	// Resume continues the run in the config's output directory from its
	// last completed iteration; it is an error if there is none. Without
	// it, a directory that already holds a run is an error.
	Resume bool
	// Log receives one summary line per iteration and notes; nil discards.
	Log io.Writer
	// Progress is where self-play, training and evaluation report their
	// progress (progress.To: bars on a terminal, plain lines otherwise);
	// the zero Sink reports none.
	Progress progress.Sink
}

// ErrRunExists is returned when starting a run in a directory that holds one.
var ErrRunExists = errors.New("train: the output directory already holds a run")

// Summary is what a finished (or stopped) run reports.
type Summary struct {
	Dir        string
	Iterations int // last completed iteration
	Best       int
	Last       Metrics
}

// run is one training session.
type run struct {
	cfg    Config
	opt    Options
	dir    string
	rules  env.Rules
	game   *env.Game
	enc    env.Encoding
	reward env.RewardKind
	encdr  *env.Encoder
	log    io.Writer

	net   *nn.Net
	learn *learner
	buf   *Buffer
	st    State
	table *Table
	data  *gameLog         // the self-play dataset, nil without dataset.dir
	tb    *tablebase.Table // evaluation.tablebase, or nil
	head  []string
	start time.Time
	base  float64 // elapsed seconds before this session
	final bool    // the iteration just run was the last that fits the time budget
	// lastIterS is the previous iteration's duration in this session.
	lastIterS float64
	// ppo holds a PPO run's games and pool (algorithm: ppo).
	ppo *ppoState
}

// Run trains as cfg says until its stop condition, ctx's end (Ctrl-C) or an
// error. Every completed iteration is committed to the run directory, so a
// run stopped at any moment (even by kill -9) resumes from the last one with
// [Options.Resume]. cfg must have passed Validate.
func Run(ctx context.Context, cfg Config, opt Options) (*Summary, error) {
	r := &run{cfg: cfg, opt: opt, dir: cfg.Output, log: opt.Log, start: time.Now()}
	if r.log == nil {
		r.log = io.Discard
	}
	lock, err := lockRunDir(r.dir, opt.Resume, r.log)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	defer func() { r.data.release() }()
	if err := r.setup(); err != nil {
		return nil, err
	}
	sum := &Summary{Dir: r.dir}
	for {
		it := r.st.Iteration + 1
		if cfg.Stop.Iterations > 0 && it > cfg.Stop.Iterations {
			break
		}
		// A new run always completes its first iteration, however slow the
		// set-up was: a budget spent before any training leaves nothing.
		if cfg.Stop.Time > 0 && it > 1 && r.elapsed() >= cfg.Stop.Time.Std().Seconds() {
			fmt.Fprintf(r.log, "train: time budget %v spent\n", cfg.Stop.Time.Std())
			if err := r.evaluateLast(ctx); err != nil {
				return sum, err
			}
			break
		}
		m, err := r.step(ctx, it)
		if err != nil {
			sum.Iterations, sum.Best = r.st.Iteration, r.st.Best
			if ctx.Err() != nil {
				return sum, fmt.Errorf("train: stopped during iteration %d; iteration %d is the last completed, in %s (continue with --resume): %w",
					it, r.st.Iteration, r.dir, ctx.Err())
			}
			return sum, err
		}
		sum.Last = *m
		if r.final {
			fmt.Fprintf(r.log, "train: time budget %v: another iteration would not fit\n", cfg.Stop.Time.Std())
			break
		}
	}
	sum.Iterations, sum.Best = r.st.Iteration, r.st.Best
	return sum, r.data.close()
}

func (r *run) elapsed() float64 { return r.base + time.Since(r.start).Seconds() }

// progressOf returns how far through the run iteration it starts, from 0 to
// 1: by iterations or by the time budget, whichever limit is nearer.
func (r *run) progressOf(it int) float64 {
	p := 0.0
	if n := r.cfg.Stop.Iterations; n > 0 {
		p = float64(it-1) / float64(n)
	}
	if b := r.cfg.Stop.Time.Std().Seconds(); b > 0 {
		p = max(p, r.elapsed()/b)
	}
	return p
}

// setup prepares the directory: a new run (initial network, config.yaml,
// state.json at iteration 0) or a resumed one (checked config, state,
// network, optimizer, replay buffer, metrics trimmed to the state).
func (r *run) setup() error {
	cfg := &r.cfg
	var err error
	if r.rules, err = cfg.RulesOf(); err != nil {
		return err
	}
	if r.game, err = env.NewGame(r.rules); err != nil {
		return err
	}
	if r.enc, err = env.ParseEncoding(cfg.Encoding); err != nil {
		return err
	}
	if r.reward, err = env.ParseRewardKind(cfg.Reward); err != nil {
		return err
	}
	if r.tb, err = loadEvalTable(cfg, r.rules); err != nil {
		return err
	}
	r.encdr = env.NewEncoder(r.game, r.enc)
	r.head = metricsHeader(cfg.Evaluation.Opponents)
	if cfg.Algorithm == "ppo" {
		r.head = ppoMetricsHeader(cfg.Evaluation.Opponents)
	}
	effective, err := cfg.Marshal()
	if err != nil {
		return err
	}
	if r.tb != nil {
		r.head = append(r.head, tbColumns...)
	}
	st, exists, err := readStateOf(r.dir)
	if err != nil {
		return err
	}
	switch {
	case exists && !r.opt.Resume:
		return fmt.Errorf("%w: %s (iteration %d); continue it with --resume, or start another with --set output=DIR", ErrRunExists, r.dir, st.Iteration)
	case !exists && r.opt.Resume:
		return fmt.Errorf("train: nothing to resume in %s (no %s)", r.dir, stateFile)
	case exists:
		if err := r.resume(st, effective); err != nil {
			return err
		}
		r.data, err = openGameLog(cfg, r.game, r.enc, r.reward, st.Games, true)
		return err
	}
	if r.data, err = openGameLog(cfg, r.game, r.enc, r.reward, 0, false); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(r.dir, ckptDir), 0o755); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := writeBytes(filepath.Join(r.dir, configFile), effective); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := noteVersion(r.dir, false); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	arch := nn.Arch{Kind: cfg.Network.Kind, Width: cfg.Network.Width, Depth: cfg.Network.Depth, LayerNorm: cfg.Network.LayerNorm}
	if r.net, err = nn.New(arch, r.rules, r.enc, derive(cfg.Seed, 0x6e6574)); err != nil {
		return trainError(&ConfigError{Key: "network", Err: err})
	}
	if r.learn, err = newLearner(r.net, cfg, nil, 0); err != nil {
		return err
	}
	r.buf = NewBuffer(r.encdr.Dim(), r.game.PitsPerRow(), cfg.Replay.Window)
	r.table = &Table{}
	path := CheckpointPath(r.dir, 0)
	if err := nn.Save(path, r.learn.checkpoint()); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	for _, name := range []string{"latest.ckpt", "best.ckpt"} {
		if err := copyFile(filepath.Join(r.dir, ckptDir, name), path); err != nil {
			return fmt.Errorf("train: %w", err)
		}
	}
	if err := writeMetrics(filepath.Join(r.dir, metricsFile), r.head, r.table, 0); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	r.st = State{}
	if err := writeState(r.dir, r.st); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	fmt.Fprintf(r.log, "train: new run in %s: %s, %s network (%d weights), %s encoding\n",
		r.dir, r.rules.Name, arch, r.net.NumWeights(), r.enc)
	return nil
}

// resume loads the run's state and checks that the config did not change
// (but for the stop condition, which may be extended).
func (r *run) resume(st State, effective []byte) error {
	old, err := readRunConfig(r.dir)
	if err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	if diff := configDiff(old, effective); diff != "" {
		return fmt.Errorf("train: resume %s: the config differs from the run's config.yaml (%s); only stop and workers may change", r.dir, diff)
	}
	if err := writeBytes(filepath.Join(r.dir, configFile), effective); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := cleanRun(r.dir, st); err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	if err := noteVersion(r.dir, true); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	ck, err := nn.Load(CheckpointPath(r.dir, st.Iteration))
	if err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	if err := ck.Check(r.rules, r.enc, nil); err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	r.net = ck.Net
	if r.learn, err = newLearner(r.net, &r.cfg, ck.Optimizer, ck.Step); err != nil {
		return err
	}
	if st.Replay != "" {
		if r.buf, err = LoadBuffer(filepath.Join(r.dir, st.Replay)); err != nil {
			return fmt.Errorf("train: resume: %w", err)
		}
		if r.buf.dim != r.encdr.Dim() || r.buf.actions != r.game.PitsPerRow() {
			return fmt.Errorf("train: resume: replay buffer %s has %d×%d columns, want %d×%d", st.Replay, r.buf.dim, r.buf.actions, r.encdr.Dim(), r.game.PitsPerRow())
		}
		r.buf = r.buf.Resize(r.cfg.Replay.Window)
	} else {
		r.buf = NewBuffer(r.encdr.Dim(), r.game.PitsPerRow(), r.cfg.Replay.Window)
	}
	if r.table, err = ReadMetrics(filepath.Join(r.dir, metricsFile)); err != nil {
		return err
	}
	warn, err := checkResumedMetrics(r.table, r.head, st.Iteration)
	if err != nil {
		return fmt.Errorf("train: resume: %s: %w", filepath.Join(r.dir, metricsFile), err)
	}
	if warn != "" {
		fmt.Fprintf(r.log, "train: resume: warning: %s: %s\n", filepath.Join(r.dir, metricsFile), warn)
	}
	if err := writeMetrics(filepath.Join(r.dir, metricsFile), r.head, r.table, st.Iteration); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if r.table, err = ReadMetrics(filepath.Join(r.dir, metricsFile)); err != nil {
		return err
	}
	r.st, r.base = st, st.ElapsedS
	if r.cfg.Algorithm == "ppo" {
		// PPO keeps no replay buffer: each iteration learns from its own rollout.
		fmt.Fprintf(r.log, "train: resuming %s after iteration %d\n", r.dir, st.Iteration)
	} else {
		fmt.Fprintf(r.log, "train: resuming %s after iteration %d (%s in the replay buffer)\n", r.dir, st.Iteration,
			progress.Count(r.buf.Len(), "positions"))
	}
	return nil
}

// configDiff names the top-level keys (stop aside) whose values differ
// between two effective configs, or "".
func configDiff(a, b []byte) string {
	var ca, cb Config
	if err := yamlUnmarshal(a, &ca); err != nil {
		return "unreadable config.yaml: " + err.Error()
	}
	if err := yamlUnmarshal(b, &cb); err != nil {
		return err.Error()
	}
	ca.Stop, cb.Stop = Stop{}, Stop{}
	ca.Workers, cb.Workers = 0, 0
	ca.Checkpoints, cb.Checkpoints = Checkpoints{}, Checkpoints{} // retention changes no result
	ca.Output, cb.Output = "", ""                                 // the run directory may have moved
	var diffs []string
	ma, mb := topLevel(ca), topLevel(cb)
	for _, k := range sortedKeys(typeOfConfig) {
		if !bytes.Equal(ma[k], mb[k]) {
			diffs = append(diffs, k)
		}
	}
	return strings.Join(diffs, ", ")
}

// iteration plays, trains, checkpoints, evaluates and commits iteration it.
func (r *run) iteration(ctx context.Context, it int) (*Metrics, error) {
	cfg := &r.cfg
	m := &Metrics{Iteration: it, Elo: math.NaN(), EloLo: math.NaN(), EloHi: math.NaN(), LR: math.NaN(),
		PolicyLoss: math.NaN(), ValueLoss: math.NaN(), Entropy: math.NaN(), KL: math.NaN(), StepsPerS: math.NaN()}
	for range cfg.Evaluation.Opponents {
		m.Scores = append(m.Scores, math.NaN())
	}
	if r.tb != nil {
		m.Tablebase = nans(len(tbColumns))
	}

	// Self-play.
	ls, err := newSearch(r.net, r.reward, cfg, derive(cfg.Seed, 0x736561726368, uint64(it)))
	if err != nil {
		return nil, err
	}
	bar := r.progress(fmt.Sprintf("iter %d self-play", it), "games")
	t0 := time.Now()
	sp, err := selfPlay(ctx, cfg, r.game, r.encdr, r.reward, ls, r.buf, r.data, it, r.st.Games, bar)
	if err != nil {
		return nil, err
	}
	if err := r.data.commit(); err != nil {
		return nil, err
	}
	m.SelfPlayS = time.Since(t0).Seconds()
	m.Games, m.Positions, m.Resigned, m.FalseResign = sp.games, sp.positions, sp.resigned, sp.falseResign
	m.MeanPlies = float64(sp.plies) / float64(max(sp.games, 1))
	m.PositionsPerS = float64(sp.positions) / math.Max(m.SelfPlayS, 1e-9)
	m.Buffer = r.buf.Len()

	// Training.
	if r.buf.Len() >= cfg.Replay.MinPositions && sp.positions > 0 {
		steps := int(math.Ceil(float64(sp.positions) * cfg.Optimizer.SamplesPerPosition / float64(cfg.Optimizer.BatchSize)))
		probe := r.buf.Newest(min(sp.positions, 512))
		before := policyOf(r.net, probe)
		bar := r.progress(fmt.Sprintf("iter %d training", it), "steps")
		t1 := time.Now()
		ts, err := r.learn.train(ctx, r.buf, steps, derive(cfg.Seed, 0x747261696e, uint64(it)), r.progressOf(it), bar)
		if err != nil {
			return nil, err
		}
		m.Steps = steps
		m.StepsPerS = float64(steps) / math.Max(time.Since(t1).Seconds(), 1e-9)
		m.PolicyLoss, m.ValueLoss, m.LR = ts.policy, ts.value, ts.lr
		if math.IsNaN(m.PolicyLoss) || math.IsInf(m.PolicyLoss, 0) || math.IsNaN(m.ValueLoss) || math.IsInf(m.ValueLoss, 0) {
			return nil, fmt.Errorf("train: iteration %d: the loss is not finite (policy %v, value %v): lower optimizer.lr", it, m.PolicyLoss, m.ValueLoss)
		}
		after := policyOf(r.net, probe)
		m.Entropy, m.KL = entropyKL(before, after, probe.Mask, r.game.PitsPerRow())
	}

	// Checkpoint and replay buffer.
	ckpt := CheckpointPath(r.dir, it)
	if err := nn.Save(ckpt, r.learn.checkpoint()); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	replay := replayName(it)
	if err := r.buf.Save(filepath.Join(r.dir, replay)); err != nil {
		return nil, err
	}
	if len(sp.records) > 0 {
		if err := saveRecords(filepath.Join(r.dir, "selfplay", "games.jsonl"), sp.records); err != nil {
			return nil, err
		}
	}

	// Evaluation and gating.
	best, bestElo, err := r.promote(ctx, it, t0, m, ckpt)
	if err != nil {
		return nil, err
	}

	// Commit: metrics, then state.json.
	m.Best = best
	m.ElapsedS = r.elapsed()
	if err := writeMetrics(filepath.Join(r.dir, metricsFile), r.head, r.table, it-1, m.row()); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	r.table.Rows = append(r.table.Rows, m.row())
	r.table.Header = r.head
	prevReplay := r.st.Replay
	st := State{Iteration: it, ElapsedS: m.ElapsedS, Games: r.st.Games + int64(sp.games),
		Positions: r.st.Positions + int64(sp.positions), Best: best, BestElo: bestElo, Replay: replay}
	if err := writeState(r.dir, st); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	r.st = st
	if prevReplay != "" && prevReplay != replay {
		_ = os.Remove(filepath.Join(r.dir, prevReplay))
	}
	if err := pruneCheckpoints(r.dir, st, cfg.Checkpoints, nil); err != nil {
		fmt.Fprintf(r.log, "train: %v\n", err)
	}
	if _, err := WritePlots(r.dir, r.table); err != nil {
		fmt.Fprintf(r.log, "train: %v\n", err)
	}
	fmt.Fprintln(r.log, summaryLine(m))
	r.lastIterS = time.Since(t0).Seconds()
	return m, nil
}

// summaryLine is the one line printed per iteration.
func summaryLine(m *Metrics) string {
	var b strings.Builder
	fmt.Fprintf(&b, "iter %d: %s, %s (%.0f/s), buffer %d", m.Iteration, progress.Count(m.Games, "games"),
		progress.Count(m.Positions, "positions"), m.PositionsPerS, m.Buffer)
	if m.Steps > 0 {
		fmt.Fprintf(&b, "; %d steps (%.0f/s), loss policy %.3f value %.3f, entropy %.3f, KL %.4f",
			m.Steps, m.StepsPerS, m.PolicyLoss, m.ValueLoss, m.Entropy, m.KL)
	}
	if !math.IsNaN(m.Elo) {
		fmt.Fprintf(&b, "; Elo %.0f [%.0f, %.0f]", m.Elo, m.EloLo, m.EloHi)
	}
	if len(m.Tablebase) == len(tbColumns) && !math.IsNaN(m.Tablebase[0]) {
		fmt.Fprintf(&b, "; tablebase best %.1f%%, %.2f seeds lost/move", 100*m.Tablebase[0], m.Tablebase[3])
	}
	fmt.Fprintf(&b, "; best %d; %.0fs", m.Best, m.ElapsedS)
	return b.String()
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

// rate evaluates iteration it's network (r.net) into m and returns the best
// iteration and its Elo afterwards: without gating the network just rated
// (AlphaZero plays its latest network; a single evaluation's Elo is too noisy
// to pick among networks), with gating the one that last passed the SPRT.
func (r *run) rate(ctx context.Context, it int, m *Metrics) (int, *float64, error) {
	ev, err := r.evaluate(ctx, it, r.net)
	if err != nil {
		return 0, nil, err
	}
	copy(m.Scores, ev.scores)
	m.Elo, m.EloLo, m.EloHi = ev.elo, ev.lo, ev.hi
	if r.tb != nil {
		if m.Tablebase, err = r.tableAccuracy(ctx, it, r.net); err != nil {
			return 0, nil, err
		}
	}
	promote := true
	if r.cfg.Evaluation.Gating.Enabled {
		if promote, err = r.gate(ctx, it, r.net); err != nil {
			return 0, nil, err
		}
	}
	if promote {
		return it, &ev.elo, nil
	}
	return r.st.Best, r.st.BestElo, nil
}

// evaluateLast evaluates the last completed iteration when a time budget
// ran out before it could be marked as the last: its metrics row gets the
// scores and the Elo, and best.ckpt may change, committed again as usual.
func (r *run) evaluateLast(ctx context.Context) error {
	it := r.st.Iteration
	n := len(r.table.Rows)
	if it == 0 || r.cfg.Evaluation.Every == 0 || n == 0 || r.table.Column("elo")[n-1] == r.table.Column("elo")[n-1] {
		return nil // nothing to rate, or rated already
	}
	m := &Metrics{Scores: make([]float64, len(r.cfg.Evaluation.Opponents))}
	if r.tb != nil {
		m.Tablebase = nans(len(tbColumns))
	}
	best, bestElo, err := r.rate(ctx, it, m)
	if err != nil {
		return err
	}
	row := r.table.Rows[n-1]
	set := func(col string, v float64) {
		for k, h := range r.table.Header {
			if h == col && k < len(row) {
				row[k] = cell(v)
			}
		}
	}
	for i, o := range r.cfg.Evaluation.Opponents {
		set(scoreColumn(o), m.Scores[i])
	}
	set("elo", m.Elo)
	set("elo_lo95", m.EloLo)
	set("elo_hi95", m.EloHi)
	for i, col := range tbColumns[:len(m.Tablebase)] {
		set(col, m.Tablebase[i])
	}
	set("best", float64(best))
	if best == it {
		if err := copyFile(filepath.Join(r.dir, ckptDir, "best.ckpt"), CheckpointPath(r.dir, it)); err != nil {
			return fmt.Errorf("train: %w", err)
		}
	}
	if err := writeMetrics(filepath.Join(r.dir, metricsFile), r.head, r.table, it); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	st := r.st
	st.Best, st.BestElo = best, bestElo
	if err := writeState(r.dir, st); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	r.st = st
	if _, err := WritePlots(r.dir, r.table); err != nil {
		fmt.Fprintf(r.log, "train: %v\n", err)
	}
	fmt.Fprintf(r.log, "iter %d: Elo %.0f [%.0f, %.0f]; best %d\n", it, m.Elo, m.EloLo, m.EloHi, best)
	return nil
}

// promote ends an iteration whose checkpoint is saved at ckpt: it rates the
// network when the evaluation schedule (or the last iteration, or the time
// budget) asks, gating it when configured, then copies the checkpoint to
// best.ckpt if it became the best and to latest.ckpt. It returns the best
// iteration and its Elo (nil when not rated); both loops (AlphaZero and PPO) end this way.
func (r *run) promote(ctx context.Context, it int, t0 time.Time, m *Metrics, ckpt string) (best int, bestElo *float64, err error) {
	cfg := r.cfg
	best, bestElo = r.st.Best, r.st.BestElo
	last := cfg.Stop.Iterations > 0 && it == cfg.Stop.Iterations
	// The next iteration is estimated to take as long as the longest of
	// this one so far and the previous one (saving and plotting included).
	if b := cfg.Stop.Time.Std().Seconds(); b > 0 && r.elapsed()+max(time.Since(t0).Seconds(), r.lastIterS) >= b {
		last, r.final = true, true // the next iteration would not fit in the time budget
	}
	if cfg.Evaluation.Every > 0 && (it%cfg.Evaluation.Every == 0 || last) {
		if best, bestElo, err = r.rate(ctx, it, m); err != nil {
			return 0, nil, err
		}
	} else if cfg.Evaluation.Every == 0 {
		best = it
	}
	if best == it {
		if err := copyFile(filepath.Join(r.dir, ckptDir, "best.ckpt"), ckpt); err != nil {
			return 0, nil, fmt.Errorf("train: %w", err)
		}
	}
	if err := copyFile(filepath.Join(r.dir, ckptDir, "latest.ckpt"), ckpt); err != nil {
		return 0, nil, fmt.Errorf("train: %w", err)
	}
	return best, bestElo, nil
}
