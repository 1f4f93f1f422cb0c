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

	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/progress"
	"github.com/urim-rl/urim/nn"
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
	// Remote, when set, plays the run's self-play in other processes
	// (package train/cluster); nil plays it here.
	Remote Remote
	// Evaluation, when set with cluster.evaluation, plays the in-run
	// rating's and gating's games in other processes (the run's workers);
	// nil plays them here.
	Evaluation evaluate.Remote
}

// ErrRunExists is returned when starting a run in a directory that holds one.
var ErrRunExists = errors.New("train: the output directory already holds a run")

// Summary is what a finished (or stopped) run reports.
type Summary struct {
	Dir        string
	Iterations int // last completed iteration
	Best       int
}

// Run trains as cfg says until its stop condition, ctx's end (Ctrl-C) or an
// error. Every completed iteration is committed to the run directory, so a
// run stopped at any moment (even by kill -9) resumes from the last one with
// [Options.Resume]. cfg must have passed Validate, and its algorithm must be
// registered (import train/all).
func Run(ctx context.Context, cfg Config, opt Options) (*Summary, error) {
	spec, ok := specOf(cfg.Algorithm)
	if !ok {
		return nil, trainError(checkAlgorithm(cfg.Algorithm))
	}
	s := &Session{Config: &cfg, opt: opt, Dir: cfg.Output, Log: opt.Log, start: time.Now()}
	if s.Log == nil {
		s.Log = io.Discard
	}
	lock, err := lockRunDir(s.Dir, opt.Resume, s.Log)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	defer func() { s.Data.release() }()
	resumed, err := s.setup()
	if err != nil {
		return nil, err
	}
	if s.alg, err = spec.New(s); err != nil {
		return nil, err
	}
	defer s.alg.Close()
	if err := s.openMetrics(resumed); err != nil {
		return nil, err
	}
	// The set-up (above all an endgame table built for training targets)
	// is not training time: elapsed_s, stop.time and a sweep's budget
	// count from here.
	if setup := time.Since(s.start); setup >= time.Second {
		fmt.Fprintf(s.Log, "train: set-up took %.1fs (not counted in elapsed_s or stop.time)\n", setup.Seconds())
	}
	s.start = time.Now()
	sum := &Summary{Dir: s.Dir}
	first := s.State.Iteration + 1
	s.first = first
	for {
		it := s.State.Iteration + 1
		if cfg.Stop.Iterations > 0 && it > cfg.Stop.Iterations {
			if it == first {
				fmt.Fprintf(s.Log, "train: %s is finished: stop.iterations is %d and iteration %d is done; to train on, resume it with a larger one: "+
					"urim train --resume %s --set stop.iterations=%d\n", s.Dir, cfg.Stop.Iterations, s.State.Iteration, s.Dir, 2*cfg.Stop.Iterations)
			}
			break
		}
		// A new run always completes its first iteration, however slow the
		// set-up was: a budget spent before any training leaves nothing.
		if cfg.Stop.Time > 0 && it > 1 && s.Elapsed() >= cfg.Stop.Time.Std().Seconds() {
			fmt.Fprintf(s.Log, "train: time budget %v spent\n", cfg.Stop.Time.Std())
			if it == first {
				fmt.Fprintf(s.Log, "train: %s is finished: stop.time is %v and %.0fs of training are done (iteration %d); to train on, resume it with a larger one: "+
					"urim train --resume %s --set stop.time=%v\n", s.Dir, cfg.Stop.Time.Std(), s.Elapsed(), s.State.Iteration, s.Dir, 2*cfg.Stop.Time.Std())
			}
			if err := s.evaluateLast(ctx); err != nil {
				return sum, err
			}
			break
		}
		if err := s.iteration(ctx, it); err != nil {
			sum.Iterations, sum.Best = s.State.Iteration, s.State.Best
			if ctx.Err() != nil {
				return sum, fmt.Errorf("train: stopped during iteration %d; iteration %d is the last completed, in %s (continue with --resume): %w",
					it, s.State.Iteration, s.Dir, ctx.Err())
			}
			return sum, err
		}
		if s.final {
			fmt.Fprintf(s.Log, "train: time budget %v: another iteration would not fit\n", cfg.Stop.Time.Std())
			break
		}
	}
	sum.Iterations, sum.Best = s.State.Iteration, s.State.Best
	return sum, s.Data.close()
}

// setup prepares the directory for the algorithm: a new run (initial
// network, config.yaml) or a resumed one (checked config, state, network,
// optimizer). It reports whether the run is resumed.
func (s *Session) setup() (resumed bool, err error) {
	cfg := s.Config
	if err := s.setGame(); err != nil {
		return false, err
	}
	if s.endgames, err = loadEvalTable(cfg, s.Rules); err != nil {
		return false, err
	}
	effective, err := cfg.Marshal()
	if err != nil {
		return false, err
	}
	st, exists, err := ReadState(s.Dir)
	if err != nil {
		return false, err
	}
	switch {
	case exists && !s.opt.Resume:
		return false, fmt.Errorf("%w: %s (iteration %d); continue it with --resume, or start another with --set output=DIR", ErrRunExists, s.Dir, st.Iteration)
	case !exists && s.opt.Resume:
		return false, fmt.Errorf("train: nothing to resume in %s (no %s)", s.Dir, stateFile)
	case exists:
		if err := s.resume(st, effective); err != nil {
			return false, err
		}
		s.Data, err = openGameLog(cfg, s.Game, s.Encoding, s.Reward, st.Games, true)
		return true, err
	}
	if s.Data, err = openGameLog(cfg, s.Game, s.Encoding, s.Reward, 0, false); err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Join(s.Dir, ckptDir), 0o755); err != nil {
		return false, fmt.Errorf("train: %w", err)
	}
	if err := writeBytes(filepath.Join(s.Dir, configFile), effective); err != nil {
		return false, fmt.Errorf("train: %w", err)
	}
	if err := noteVersion(s.Dir, false); err != nil {
		return false, fmt.Errorf("train: %w", err)
	}
	if err := s.newNet(); err != nil {
		return false, err
	}
	path := CheckpointPath(s.Dir, 0)
	if err := nn.Save(path, s.Checkpoint()); err != nil {
		return false, fmt.Errorf("train: %w", err)
	}
	for _, name := range []string{"latest.ckpt", "best.ckpt"} {
		if err := copyFile(filepath.Join(s.Dir, ckptDir, name), path); err != nil {
			return false, fmt.Errorf("train: %w", err)
		}
	}
	s.State = State{}
	fmt.Fprintf(s.Log, "train: new run in %s: %s, %s network (%d weights), %s encoding\n",
		s.Dir, s.Rules.Name, s.Net.Arch(), s.Net.NumWeights(), s.Encoding)
	return false, nil
}

// resume loads the run's state and checks that the config did not change
// (but for the stop condition, which may be extended).
func (s *Session) resume(st State, effective []byte) error {
	old, err := readRunConfig(s.Dir)
	if err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	if diff := configDiff(old, effective); diff != "" {
		return fmt.Errorf("train: resume %s: the config differs from the run's config.yaml (%s); only stop and workers may change", s.Dir, diff)
	}
	if err := writeBytes(filepath.Join(s.Dir, configFile), effective); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := cleanRun(s.Dir, st); err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	if err := noteVersion(s.Dir, true); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	ck, err := nn.Load(CheckpointPath(s.Dir, st.Iteration))
	if err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	if err := ck.Check(s.Rules, s.Encoding, nil); err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	s.Net, s.Optimizer, s.Step = ck.Net, ck.Optimizer, ck.Step
	s.State, s.base = st, st.ElapsedS
	return nil
}

// openMetrics starts metrics.csv, with the algorithm's columns: a new run
// writes its header and then state.json at iteration 0 (the run exists from
// then on); a resumed one checks the committed rows and drops those past
// state.json.
func (s *Session) openMetrics(resumed bool) error {
	path := filepath.Join(s.Dir, metricsFile)
	if !resumed {
		s.metrics = &Table{}
		if err := writeMetrics(path, s.header(), s.metrics, 0); err != nil {
			return fmt.Errorf("train: %w", err)
		}
		if err := writeState(s.Dir, s.State); err != nil {
			return fmt.Errorf("train: %w", err)
		}
		return nil
	}
	var err error
	if s.metrics, err = ReadMetrics(path); err != nil {
		return err
	}
	warn, err := checkResumedMetrics(s.metrics, s.header(), s.State.Iteration)
	if err != nil {
		return fmt.Errorf("train: resume: %s: %w", path, err)
	}
	if warn != "" {
		fmt.Fprintf(s.Log, "train: resume: warning: %s: %s\n", path, warn)
	}
	if err := writeMetrics(path, s.header(), s.metrics, s.State.Iteration); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if s.metrics, err = ReadMetrics(path); err != nil {
		return err
	}
	fmt.Fprintf(s.Log, "train: resuming %s after iteration %d\n", s.Dir, s.State.Iteration)
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
	ca.Cluster, cb.Cluster = Cluster{}, Cluster{}                 // where self-play runs may change
	ca.Output, cb.Output = "", ""                                 // the run directory may have moved
	var diffs []string
	ma, mb := topLevel(ca), topLevel(cb)
	if ca.Algorithm != cb.Algorithm {
		return "algorithm"
	}
	for _, k := range sortedKeys(schemaType(cb.Algorithm)) {
		if !bytes.Equal(ma[k], mb[k]) {
			diffs = append(diffs, k)
		}
	}
	return strings.Join(diffs, ", ")
}

// iteration runs the algorithm's iteration it, then checkpoints,
// evaluates and commits it.
func (s *Session) iteration(ctx context.Context, it int) error {
	t0 := time.Now()
	res, err := s.alg.Iterate(ctx, it)
	if err != nil {
		return err
	}
	if len(res.Cells) != len(s.alg.Columns()) {
		return fmt.Errorf("train: %s: iteration %d reported %d metrics for %d columns", s.Config.Algorithm, it, len(res.Cells), len(s.alg.Columns()))
	}
	ck := s.Checkpoint()
	ck.Meta = res.Meta
	ckpt := CheckpointPath(s.Dir, it)
	if err := nn.Save(ckpt, ck); err != nil {
		return fmt.Errorf("train: %w", err)
	}

	// Evaluation and gating.
	ev := s.newRating()
	best, bestElo, err := s.promote(ctx, it, t0, ev, ckpt)
	if err != nil {
		return err
	}

	// Commit: metrics, then state.json.
	ev.best = best
	elapsed := s.Elapsed()
	row := s.row(it, elapsed, res, ev)
	if err := writeMetrics(filepath.Join(s.Dir, metricsFile), s.header(), s.metrics, it-1, row); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	s.metrics.Rows = append(s.metrics.Rows, row)
	s.metrics.Header = s.header()
	data, err := marshalData(res.Data)
	if err != nil {
		return err
	}
	st := State{Iteration: it, ElapsedS: elapsed, Games: s.State.Games + int64(res.Games),
		Positions: s.State.Positions + int64(res.Positions), Best: best, BestElo: bestElo, Data: data}
	if err := writeState(s.Dir, st); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	s.State = st
	if err := s.alg.Committed(it); err != nil {
		return err
	}
	var pinned []int
	if k, ok := s.alg.(CheckpointKeeper); ok {
		pinned = k.KeptCheckpoints()
	}
	if err := pruneCheckpoints(s.Dir, st, s.Config.Checkpoints, pinned); err != nil {
		fmt.Fprintf(s.Log, "train: %v\n", err)
	}
	if _, err := WritePlots(s.Dir, s.metrics, s.Config.Algorithm); err != nil {
		fmt.Fprintf(s.Log, "train: %v\n", err)
	}
	fmt.Fprintln(s.Log, s.summaryLine(it, elapsed, res, ev))
	s.lastIterS = time.Since(t0).Seconds()
	return nil
}

// summaryLine is the one line printed per iteration: the algorithm's
// summary, then the evaluation's.
func (s *Session) summaryLine(it int, elapsed float64, res *Iteration, ev *rating) string {
	var b strings.Builder
	fmt.Fprintf(&b, "iter %d: %s", it, res.Summary)
	if !math.IsNaN(ev.elo) {
		fmt.Fprintf(&b, "; Elo %.0f [%.0f, %.0f]", ev.elo, ev.lo, ev.hi)
	}
	if len(ev.tablebase) == len(tbColumns) && !math.IsNaN(ev.tablebase[0]) {
		fmt.Fprintf(&b, "; tablebase best %.1f%%, %.2f seeds lost/move", 100*ev.tablebase[0], ev.tablebase[3])
	}
	fmt.Fprintf(&b, "; best %d; %.0fs", ev.best, elapsed)
	return b.String()
}

// rate evaluates iteration it's network (s.Net) into ev and returns the
// best iteration and its Elo afterwards: without gating the network just
// rated (AlphaZero plays its latest network; a single evaluation's Elo is
// too noisy to pick among networks), with gating the one that last passed
// the SPRT.
func (s *Session) rate(ctx context.Context, it int, ev *rating) (int, *float64, error) {
	res, err := s.evaluate(ctx, it, s.Net)
	if err != nil {
		return 0, nil, err
	}
	copy(ev.scores, res.scores)
	ev.elo, ev.lo, ev.hi = res.elo, res.lo, res.hi
	if s.endgames != nil {
		if ev.tablebase, err = s.tableAccuracy(ctx, it, s.Net); err != nil {
			return 0, nil, err
		}
	}
	promote := true
	if s.Config.Evaluation.Gating.Enabled {
		if promote, err = s.gate(ctx, it, s.Net); err != nil {
			return 0, nil, err
		}
	}
	if promote {
		return it, &res.elo, nil
	}
	return s.State.Best, s.State.BestElo, nil
}

// evaluateLast evaluates the last completed iteration when a time budget
// ran out before it could be marked as the last: its metrics row gets the
// scores and the Elo, and best.ckpt may change, committed again as usual.
func (s *Session) evaluateLast(ctx context.Context) error {
	it := s.State.Iteration
	n := len(s.metrics.Rows)
	if it == 0 || s.Config.Evaluation.Every == 0 || n == 0 || s.metrics.Column("elo")[n-1] == s.metrics.Column("elo")[n-1] {
		return nil // nothing to rate, or rated already
	}
	ev := s.newRating()
	best, bestElo, err := s.rate(ctx, it, ev)
	if err != nil {
		return err
	}
	row := s.metrics.Rows[n-1]
	set := func(col string, v float64) {
		for k, h := range s.metrics.Header {
			if h == col && k < len(row) {
				row[k] = cell(v)
			}
		}
	}
	for i, o := range s.Config.Evaluation.Opponents {
		set(scoreColumn(o), ev.scores[i])
	}
	set("elo", ev.elo)
	set("elo_lo95", ev.lo)
	set("elo_hi95", ev.hi)
	for i, col := range tbColumns[:len(ev.tablebase)] {
		set(col, ev.tablebase[i])
	}
	set("best", float64(best))
	if best == it {
		if err := copyFile(filepath.Join(s.Dir, ckptDir, "best.ckpt"), CheckpointPath(s.Dir, it)); err != nil {
			return fmt.Errorf("train: %w", err)
		}
	}
	if err := writeMetrics(filepath.Join(s.Dir, metricsFile), s.header(), s.metrics, it); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	st := s.State
	st.Best, st.BestElo = best, bestElo
	if err := writeState(s.Dir, st); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	s.State = st
	if _, err := WritePlots(s.Dir, s.metrics, s.Config.Algorithm); err != nil {
		fmt.Fprintf(s.Log, "train: %v\n", err)
	}
	fmt.Fprintf(s.Log, "iter %d: Elo %.0f [%.0f, %.0f]; best %d\n", it, ev.elo, ev.lo, ev.hi, best)
	return nil
}

// promote ends an iteration whose checkpoint is saved at ckpt: it rates the
// network when the evaluation schedule (or the last iteration, or the time
// budget) asks, gating it when configured, then copies the checkpoint to
// best.ckpt if it became the best and to latest.ckpt. It returns the best
// iteration and its Elo (nil when not rated).
func (s *Session) promote(ctx context.Context, it int, t0 time.Time, ev *rating, ckpt string) (best int, bestElo *float64, err error) {
	cfg := s.Config
	best, bestElo = s.State.Best, s.State.BestElo
	last := cfg.Stop.Iterations > 0 && it == cfg.Stop.Iterations
	// The next iteration is estimated to take as long as the longest of
	// this one so far and the previous one (saving and plotting included).
	if b := cfg.Stop.Time.Std().Seconds(); b > 0 && s.Elapsed()+max(time.Since(t0).Seconds(), s.lastIterS) >= b {
		last, s.final = true, true // the next iteration would not fit in the time budget
	}
	if cfg.Evaluation.Every > 0 && (it%cfg.Evaluation.Every == 0 || last) {
		if best, bestElo, err = s.rate(ctx, it, ev); err != nil {
			return 0, nil, err
		}
	} else if cfg.Evaluation.Every == 0 {
		best = it
	}
	if best == it {
		if err := copyFile(filepath.Join(s.Dir, ckptDir, "best.ckpt"), ckpt); err != nil {
			return 0, nil, fmt.Errorf("train: %w", err)
		}
	}
	if err := copyFile(filepath.Join(s.Dir, ckptDir, "latest.ckpt"), ckpt); err != nil {
		return 0, nil, fmt.Errorf("train: %w", err)
	}
	return best, bestElo, nil
}
