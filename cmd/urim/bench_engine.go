package main

import (
	"flag"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/urim-rl/urim/bench"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/progress"
)

func init() {
	registerBenchmark(&command{
		name:  "engine",
		usage: "[--rules PRESET,...|all] [--duration 2s] [--threads N] [--json] [--quiet]",
		short: "random playouts: moves and games per second per core",
		long: `Plays random games from the start to the end with the allocation-free playout
loop and reports moves per second and games per second, per core. With
--threads N, N goroutines play at once and the per-core figures are the totals
divided by N. --rules takes presets, rules YAML files, or all.

Examples:
  urim bench engine
  urim bench engine --rules oware --duration 5s
  urim bench engine --rules all --json`,
	}, func(fs *flag.FlagSet) func(*stdio, *benchOutput) error {
		rules := fs.String("rules", "all", "comma-separated rules presets or files, or all")
		duration := fs.Duration("duration", 2*time.Second, "how long to play each preset")
		threads := fs.Int("threads", 1, "goroutines playing at once")
		return func(_ *stdio, out *benchOutput) error {
			if err := checkBenchWorkers("threads", *threads); err != nil {
				return err
			}
			if err := checkBenchDuration("duration", *duration); err != nil {
				return err
			}
			games, err := benchGames(*rules)
			if err != nil {
				return err
			}
			return runEngineBench(out, games, *duration, *threads)
		}
	})
}

// runEngineBench plays random games of each game for duration on threads
// goroutines and writes the rows.
func runEngineBench(out *benchOutput, games []*env.Game, duration time.Duration, threads int) error {
	var rows []bench.EngineResult
	bar := out.bar(len(games), "bench engine", "rules")
	for i, g := range games {
		bar.Describe(fmt.Sprintf("bench engine %s, %s on %s", g.Name(), duration, progress.Count(threads, "threads")))
		bar.Set(i)
		rows = append(rows, bench.Playouts(g, duration, threads))
	}
	bar.Set(len(games))
	bar.Finish()
	return out.write(rows, func(tw *tabwriter.Writer) {
		fmt.Fprintln(tw, "rules\tthreads\tmoves/s per core\tgames/s per core\tmoves/game\tns/move\t")
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.0f\t%.1f\t%.1f\t\n", r.Rules, r.Threads, r.MovesPerSecPerCore,
				r.GamesPerSecPerCore, r.MovesPerGame, 1e9/r.MovesPerSecPerCore)
		}
	})
}
