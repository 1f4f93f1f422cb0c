package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/urim-rl/urim/internal/atomicfile"
	"github.com/urim-rl/urim/internal/inputfile"
	"github.com/urim-rl/urim/internal/progress"
	"github.com/urim-rl/urim/train"
)

// DefaultPanel is the fixed panel final networks are rated against: random
// anchors the scale at 0, the others span a trained network's strength.
var DefaultPanel = []string{"random", "greedy", "alphabeta:depth=8", "mcts:sims=1000"}

// Config is one sweep.
type Config struct {
	// Base is the training config file every run starts from.
	Base string
	// Sets are overrides (key=value) applied to every run, before the
	// grid's.
	Sets []string
	// Recipes are named sets of overrides, each a cell (crossed with the
	// grid's axes when both are given).
	Recipes []Recipe
	// Grid holds the axes: every combination of their values is a cell.
	Grid []Axis
	// Seeds is the number of runs per cell, seeded 1, 2, …; at least 1.
	Seeds int
	// Budget is every run's training time (stop.time, with no iteration
	// limit, so the cells get equal time); 0 keeps the base's stop.
	Budget time.Duration
	// Out is the sweep's directory.
	Out string
	// Panel are the agent specs the final networks are rated against; nil
	// means DefaultPanel. random, if listed, anchors the ratings at 0.
	Panel []string
	// Games is the number of rating games per pairing (even; 0 means 40),
	// and RateSims the final networks' simulations per move when rated
	// (0 means 100): every network is rated with the same search,
	// az:ckpt=…,sims=RateSims.
	Games, RateSims int
	// H2HSims and H2HGames set the head-to-head round robin of every
	// run's final network among themselves and with the panel (0 means
	// RateSims and Games): az:ckpt=…,sims=H2HSims, H2HGames per pairing.
	H2HSims, H2HGames int
	// Parallel is the number of runs trained at once (0 means 1); each
	// then gets workers = cores / Parallel unless the config sets workers.
	Parallel int
	// Runner trains the runs; nil means Local.
	Runner Runner
	// Log receives a line per run and notes; nil discards.
	Log io.Writer
	// Progress is where the rating games report progress.
	Progress progress.Sink
}

// Runner trains one run of a sweep. [Local] is the one here. The
// distributed workers (issue 19) join in one of two ways: a base config
// with the cluster section sends each run's self-play to the workers from
// inside train.Run, so Local needs no change; or a Runner that places whole
// runs on other machines implements this method, leaving each run directory
// in cfg.Output when it returns (the sweep reads state.json, metrics.csv
// and checkpoints/latest.ckpt from it). Run may be called from several
// goroutines at once (Config.Parallel).
type Runner interface {
	// Run trains cfg's run to its stop; with resume it continues the run
	// already in cfg.Output.
	Run(ctx context.Context, cfg train.Config, resume bool) error
}

// Local trains runs in this process.
type Local struct {
	// Log receives the runs' own log lines; nil discards them.
	Log io.Writer
}

// Run trains cfg with train.Run.
func (l Local) Run(ctx context.Context, cfg train.Config, resume bool) error {
	_, err := train.Run(ctx, cfg, train.Options{Resume: resume, Log: l.Log})
	return err
}

// RunSpec is one run of the plan.
type RunSpec struct {
	Cell string `json:"cell"`
	Seed int    `json:"seed"`
	// Dir is the run directory, relative to the sweep's.
	Dir string `json:"dir"`
}

// Plan is what sweep.json records: the sweep's settings and its runs, fixed
// when it starts, so that a resumed sweep is the same sweep.
type Plan struct {
	Base string   `json:"base"`
	Sets []string `json:"sets"`
	// Recipes is omitted when empty, so that a plan written before recipes
	// existed still resumes.
	Recipes  []Recipe `json:"recipes,omitempty"`
	Grid     []Axis   `json:"grid"`
	Cells    []Cell   `json:"cells"`
	Seeds    int      `json:"seeds"`
	Budget   string   `json:"budget"`
	Panel    []string `json:"panel"`
	Games    int      `json:"games"`
	RateSims int      `json:"rate_sims"`
	// H2HSims and H2HGames are 0 for RateSims and Games (so that a plan
	// written before the head to head existed still resumes).
	H2HSims  int       `json:"h2h_sims,omitempty"`
	H2HGames int       `json:"h2h_games,omitempty"`
	Runs     []RunSpec `json:"runs"`
}

const (
	planFile = "sweep.json"
	doneFile = "sweep-done" // in a run directory: the run finished
)

// plan returns the plan of c, with its defaults.
func (c *Config) plan() (*Plan, error) {
	if c.Seeds < 1 || c.Seeds > 1000 {
		return nil, fmt.Errorf("experiment: seeds %d: want 1 to 1000", c.Seeds)
	}
	if c.Out == "" {
		return nil, errors.New("experiment: no output directory")
	}
	if c.Budget < 0 {
		return nil, fmt.Errorf("experiment: budget %s: want 0 (the base's stop) or more", c.Budget)
	}
	games := c.Games
	if games == 0 {
		games = 40
	}
	if games < 2 || games%2 != 0 {
		return nil, fmt.Errorf("experiment: games %d: want an even number, at least 2 (paired openings)", games)
	}
	sims := c.RateSims
	if sims == 0 {
		sims = 100
	}
	if sims < 1 {
		return nil, fmt.Errorf("experiment: rating simulations %d: want at least 1", sims)
	}
	h2hSims, h2hGames := c.H2HSims, c.H2HGames
	if h2hSims < 0 {
		return nil, fmt.Errorf("experiment: head-to-head simulations %d: want at least 1", h2hSims)
	}
	if h2hGames != 0 && (h2hGames < 2 || h2hGames%2 != 0) {
		return nil, fmt.Errorf("experiment: head-to-head games %d: want an even number, at least 2 (paired openings)", h2hGames)
	}
	panel := c.Panel
	if panel == nil {
		panel = DefaultPanel
	}
	if len(panel) == 0 {
		return nil, errors.New("experiment: an empty panel: the final networks need opponents")
	}
	cells, err := Cells(c.Recipes, c.Grid)
	if err != nil {
		return nil, err
	}
	p := &Plan{Base: c.Base, Sets: append([]string{}, c.Sets...), Recipes: c.Recipes, Grid: c.Grid, Cells: cells, Seeds: c.Seeds,
		Budget: c.Budget.String(), Panel: panel, Games: games, RateSims: sims, H2HSims: h2hSims, H2HGames: h2hGames}
	for _, cell := range cells {
		for seed := 1; seed <= c.Seeds; seed++ {
			p.Runs = append(p.Runs, RunSpec{Cell: cell.Name, Seed: seed, Dir: filepath.Join("runs", cell.Name, "seed-"+strconv.Itoa(seed))})
		}
	}
	return p, nil
}

// runConfig is the training config of run r: the base, the sweep's sets,
// the cell's, the seed, the output directory and the budget.
func (c *Config) runConfig(p *Plan, r RunSpec) (train.Config, error) {
	sets := append([]string{}, p.Sets...)
	for _, cell := range p.Cells {
		if cell.Name == r.Cell {
			sets = append(sets, cell.Sets...)
		}
	}
	sets = append(sets, "seed="+strconv.Itoa(r.Seed), "output="+filepath.Join(c.Out, r.Dir))
	if c.Budget > 0 {
		sets = append(sets, "stop.time="+c.Budget.String(), "stop.iterations=0")
	}
	if par := max(c.Parallel, 1); par > 1 {
		base, err := train.LoadConfig(c.Base, nil)
		if err == nil && base.Workers == 0 {
			sets = append(sets, "workers="+strconv.Itoa(max(1, runtime.NumCPU()/par)))
		}
	}
	cfg, err := train.LoadConfig(c.Base, sets)
	if err != nil {
		return cfg, fmt.Errorf("experiment: run %s: %w", r.Dir, err)
	}
	return cfg, nil
}

// Run runs the sweep: it writes (or, resuming, checks) sweep.json, trains
// every run not done yet, rates every final network against the panel,
// and writes the summary. It returns the summary's rows. A cancelled
// context stops it; run it again with the same settings to continue.
func Run(ctx context.Context, c Config) ([]Row, error) {
	if c.Log != nil {
		c.Log = &lockedWriter{w: c.Log} // runs log from their goroutines
	}
	p, err := c.plan()
	if err != nil {
		return nil, err
	}
	// Every run's config first: a bad key stops the sweep before any run.
	cfgs := make([]train.Config, len(p.Runs))
	for i, r := range p.Runs {
		if cfgs[i], err = c.runConfig(p, r); err != nil {
			return nil, err
		}
	}
	if err := c.fixPlan(p); err != nil {
		return nil, err
	}
	if err := c.train(ctx, p, cfgs); err != nil {
		return nil, err
	}
	rows, err := c.rate(ctx, p)
	if err != nil {
		return nil, err
	}
	h2h, err := c.headToHead(ctx, p, rows)
	if err != nil {
		return nil, err
	}
	if err := writeSummary(c.Out, p, rows, h2h); err != nil {
		return nil, err
	}
	return rows, nil
}

// fixPlan writes sweep.json, or checks that the one in Out is p.
func (c *Config) fixPlan(p *Plan) error {
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	path := filepath.Join(c.Out, planFile)
	// The plan on disk must equal this one byte for byte, so no more than
	// its length is read (inputfile: a regular file only).
	old, err := inputfile.ReadFile(path, int64(len(data)), "a sweep plan")
	switch {
	case errors.Is(err, inputfile.ErrTooLarge) || err == nil && !bytes.Equal(old, data):
		return fmt.Errorf("experiment: %s holds another sweep (its %s differs: other base, sets, recipes, grid, seeds, budget or panel); resume it with its own settings or choose another --out", c.Out, planFile)
	case err == nil:
		return nil
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("experiment: %w", err)
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return fmt.Errorf("experiment: %w", err)
	}
	return atomicfile.WriteFile(path, data)
}

// train trains the runs not done yet, Parallel at a time.
func (c *Config) train(ctx context.Context, p *Plan, cfgs []train.Config) error {
	runner := c.Runner
	if runner == nil {
		runner = Local{}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
	)
	sem := make(chan struct{}, max(c.Parallel, 1))
	for i, r := range p.Runs {
		dir := filepath.Join(c.Out, r.Dir)
		if _, err := os.Stat(filepath.Join(dir, doneFile)); err == nil {
			c.logf("sweep: %s: done\n", r.Dir)
			continue
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func(i int, r RunSpec, dir string) {
			defer wg.Done()
			defer func() { <-sem }()
			_, resume, err := train.ReadState(dir)
			if err == nil {
				how := "starting"
				if resume {
					how = "resuming"
				}
				c.logf("sweep: %s: %s\n", r.Dir, how)
				start := time.Now()
				stopWatch := c.watch(r.Dir, dir, cfgs[i])
				err = runner.Run(ctx, cfgs[i], resume)
				stopWatch(err == nil && ctx.Err() == nil)
				if err == nil && ctx.Err() == nil {
					err = atomicfile.WriteFile(filepath.Join(dir, doneFile), []byte(time.Now().UTC().Format(time.RFC3339)+"\n"))
					c.logf("sweep: %s: finished in %s\n", r.Dir, time.Since(start).Round(time.Second))
				}
			}
			if err != nil {
				mu.Lock()
				if first == nil {
					first = fmt.Errorf("experiment: run %s: %w", r.Dir, err)
				}
				mu.Unlock()
				cancel()
			}
		}(i, r, dir)
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// watchEvery is how often a run's progress is read from its state.json.
const watchEvery = time.Second

// watch reports the progress of the run training in dir, read from its
// committed state every watchEvery: its training time against its
// stop.time, or its iterations against stop.iterations. The returned
// function stops it, the bar finished when the run did. With several runs
// at once, plain lines: bars would overwrite each other.
func (c *Config) watch(name, dir string, cfg train.Config) func(finished bool) {
	sink := c.Progress
	if c.Parallel > 1 {
		sink = sink.Plain()
	}
	total, unit := int(cfg.Stop.Time.Std().Seconds()), "s of training"
	if total == 0 {
		total, unit = cfg.Stop.Iterations, "iterations"
	}
	if !sink.Enabled() || total <= 0 {
		return func(bool) {}
	}
	bar := sink.Bar(total, "sweep "+name, unit)
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(watchEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				done = nil // one last read: the run's end
			case <-t.C:
			}
			if st, ok, err := train.ReadState(dir); err == nil && ok {
				bar.Describe(fmt.Sprintf("sweep %s iter %d", name, st.Iteration))
				if unit == "iterations" {
					bar.Set(st.Iteration)
				} else {
					bar.Set(min(int(st.ElapsedS), total))
				}
			}
			if done == nil {
				return
			}
		}
	}()
	return func(finished bool) {
		close(done)
		<-stopped
		if finished {
			bar.Finish()
		} else {
			bar.Exit()
		}
	}
}

func (c *Config) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, format, args...)
	}
}

// lockedWriter serialises the writes of concurrent runs.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
