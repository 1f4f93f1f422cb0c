package main

import (
	"flag"
	"fmt"
	"math"
	"text/tabwriter"
	"time"

	"github.com/urim-rl/urim/bench"
	"github.com/urim-rl/urim/env"
)

func init() {
	registerBenchmark(&command{
		name:  "env",
		usage: "[--rules urim] [--n 64,1024,4096,16384] [--workers 1,2] [--encoding compact] [--duration 1s | --steps K] [--json]",
		short: "vectorized environment: game steps per second for batch sizes and worker counts",
		long: `Steps an env.Vec of N games with random legal actions (drawn by
env.RandomActions, a few nanoseconds per game) for every N in --n and every
worker count in --workers, writing observations and masks every step, and
reports game steps per second (in all and per worker), the speed-up over one
worker at the same N, allocations per batch step and heap bytes per game.

On a shared machine the worker scaling is only as good as the cores the
others leave free, so after each run on W workers the command times pure
arithmetic on 1 and on W goroutines: the cpu scaling column is that ratio,
the ceiling for the speed-up measured next to it.

Examples:
  urim bench env
  urim bench env --n 4096 --workers 1,2 --duration 3s
  urim bench env --encoding thermometer --autoreset same_step --opening 8
  urim bench env --rules oware --steps 10000000 --json`,
	}, func(fs *flag.FlagSet) func(*stdio, *benchOutput) error {
		f := &envBenchFlags{}
		f.bind(fs)
		return func(_ *stdio, out *benchOutput) error {
			o, err := f.options()
			if err != nil {
				return err
			}
			g, err := loadGame(f.rules)
			if err != nil {
				return err
			}
			for _, n := range o.N { // before the first run, not after
				if err := env.CheckVecMemory(g, n, env.VecOptions{Encoding: o.Encoding, AutoReset: o.AutoReset}); err != nil {
					return usageErrorf("--n %d: %v", n, err)
				}
			}
			return runEnvBench(out, g, o)
		}
	})
}

// runEnvBench steps g's vectorized environment at every batch size and
// worker count and writes the rows.
func runEnvBench(out *benchOutput, g *env.Game, o bench.EnvOptions) error {
	o.Progress = barProgress(out.bar(len(o.N)*len(o.Workers), "bench env", "runs"))
	rows, err := bench.Env(g, o)
	if err != nil {
		return err
	}
	return out.write(rows, func(tw *tabwriter.Writer) { envTable(tw, rows) })
}

// envBenchFlags are the flags of urim bench env before they are checked.
type envBenchFlags struct {
	rules, ns, workers, encoding, autoReset string
	opening                                 int
	duration                                time.Duration
	steps                                   int64
}

func (f *envBenchFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&f.rules, "rules", "urim", rulesUsage)
	fs.StringVar(&f.ns, "n", "64,1024,4096,16384", "comma-separated batch sizes N")
	fs.StringVar(&f.workers, "workers", "1,2", "comma-separated worker counts")
	fs.StringVar(&f.encoding, "encoding", "compact", "observation encoding: compact or thermometer")
	fs.StringVar(&f.autoReset, "autoreset", "next_step", "auto-reset mode: next_step, same_step or disabled")
	fs.IntVar(&f.opening, "opening", 0, "random opening plies at the start of every game")
	fs.DurationVar(&f.duration, "duration", time.Second, "how long to step each (N, workers) pair")
	fs.Int64Var(&f.steps, "steps", 0, "game steps per pair instead of --duration (rounded up to whole batch steps)")
}

// options checks the flags and maps them to the harness's options.
func (f *envBenchFlags) options() (bench.EnvOptions, error) {
	var o bench.EnvOptions
	var err error
	if o.N, err = benchInts("--n", f.ns, math.MaxInt); err != nil {
		return o, err
	}
	if o.Workers, err = benchInts("--workers", f.workers, math.MaxInt); err != nil {
		return o, err
	}
	if o.Encoding, err = env.ParseEncoding(f.encoding); err != nil {
		return o, usageErrorf("--encoding: %v", err)
	}
	if o.AutoReset, err = env.ParseAutoReset(f.autoReset); err != nil {
		return o, usageErrorf("--autoreset: %v", err)
	}
	for _, w := range o.Workers {
		if err := checkBenchWorkers("workers", w); err != nil {
			return o, err
		}
	}
	if f.steps == 0 {
		if err := checkBenchDuration("duration", f.duration); err != nil {
			return o, err
		}
	}
	if f.steps < 0 || f.opening < 0 {
		return o, usageErrorf("--steps and --opening must not be negative")
	}
	o.OpeningPlies, o.Duration, o.Steps = f.opening, f.duration, f.steps
	return o, nil
}

// envTable writes rows as a table.
func envTable(tw *tabwriter.Writer, rows []bench.EnvResult) {
	fmt.Fprintln(tw, "rules\tencoding\tN\tworkers\tsteps/s\tsteps/s per worker\tns/step\tspeed-up\tcpu scaling\tallocs/batch step\tbytes/game\t")
	for _, r := range rows {
		speedup := "-"
		if r.Speedup > 0 {
			speedup = fmt.Sprintf("%.2fx", r.Speedup)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.3gM\t%.3gM\t%.1f\t%s\t%.2fx\t%.2f\t%.0f\t\n", r.Rules, r.Encoding, r.N, r.Workers,
			r.StepsPerSec/1e6, r.StepsPerSecWorker/1e6, r.NsPerStep, speedup, r.CPUScaling, r.AllocsPerBatch, r.BytesPerGame)
	}
}
