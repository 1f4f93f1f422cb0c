package main

import (
	"flag"
	"fmt"
	"io"
	"sync/atomic"
	"text/tabwriter"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/progress"
)

var accuracyCommand = &command{
	name:  "accuracy",
	usage: "--agent SPEC --tablebase FILE [--positions N] [--source uniform|selfplay:SPEC] [--min-seeds N] [--seed S] [--json]",
	long: `Scores an agent's moves against an endgame table (urim tablebase build): on
positions with at most K seeds, the share of moves that keep the best value and
the seeds lost per move, by seed count, with 95% intervals (Wilson for shares).
Only positions where every legal move's value is exact count (ground truth),
each move valued from the position with its history: a move keeps the best
value only if the table calls it best there. The report says how many were
skipped, and how many of those had a move the table could not decide (exact
with a fresh history, but the opponent may steer back into the history).

Examples:
  urim eval accuracy --agent greedy --tablebase urim12.tb
  urim eval accuracy --agent mcts:sims=200 --tablebase urim12.tb --source selfplay:random --positions 500
  urim eval accuracy --agent az:ckpt=models/urim-az.ckpt,sims=200 --tablebase urim16.tb --min-seeds 15
                     (positions a 14-seed training table never covered)`,
	setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
		cfg := evaluate.AccuracyConfig{}
		fs.StringVar(&cfg.Agent, "agent", "", "spec of the agent under test")
		file := fs.String("tablebase", "", "endgame table file")
		fs.IntVar(&cfg.Positions, "positions", 1000, "positions to score")
		fs.StringVar(&cfg.Source, "source", "uniform", "positions: uniform, or selfplay:SPEC (games SPEC plays against itself)")
		fs.Uint64Var(&cfg.Seed, "seed", 1, "seed for the sampling and the agents")
		fs.IntVar(&cfg.MinSeeds, "min-seeds", 1, "score only positions with at least this many seeds (say K+1 of a training table of K)")
		asJSON := fs.Bool("json", false, "print JSON")
		quiet := fs.Bool("quiet", false, "no progress bar")
		return func(std *stdio, args []string) error {
			switch {
			case len(args) > 0:
				return usageErrorf("unexpected arguments %q", args)
			case cfg.Agent == "" || *file == "":
				return usageErrorf("--agent SPEC and --tablebase FILE are required")
			case cfg.Positions <= 0:
				return usageErrorf("--positions %d: want at least 1", cfg.Positions)
			case cfg.MinSeeds < 1:
				return usageErrorf("--min-seeds %d: want at least 1", cfg.MinSeeds)
			}
			if err := agents.Validate(cfg.Agent); err != nil {
				return err
			}
			t, err := classic.LoadTable(*file)
			if err != nil {
				return err
			}
			c := cfg
			c.Table = t
			return runAccuracy(std, c, *asJSON, *quiet)
		}
	},
}

// runAccuracy scores the agent's moves against the table and prints the
// report.
func runAccuracy(std *stdio, cfg evaluate.AccuracyConfig, asJSON, quiet bool) error {
	ctx, stop := interruptible()
	defer stop()
	defer classic.CloseExternalEngines()
	bar := progress.To(std.err, quiet).Func("accuracy", "positions")
	var scored atomic.Int64
	cfg.Progress = func(done, total int) {
		scored.Store(int64(done))
		bar(done, total)
	}
	rep, err := evaluate.Accuracy(ctx, cfg)
	if stoppedBy(ctx, err) {
		return interruption{cmd: "urim eval accuracy", where: fmt.Sprintf("after %d of %d positions", scored.Load(), cfg.Positions),
			saved: "nothing was saved (the score is reported at the end)", resume: "run the command again to start over"}.exit(std)
	}
	if err != nil {
		return err
	}
	if asJSON {
		return evaluate.WriteJSON(std.out, rep)
	}
	return printAccuracy(std.out, rep)
}

// printAccuracy writes the report as text: the counts, then a table by
// seed count.
func printAccuracy(w io.Writer, rep *evaluate.AccuracyReport) error {
	seeds := fmt.Sprintf("K=%d", rep.MaxSeeds)
	if rep.MinSeeds > 1 {
		seeds = fmt.Sprintf("K=%d, positions of %d to %d seeds", rep.MaxSeeds, rep.MinSeeds, rep.MaxSeeds)
	}
	fmt.Fprintf(w, "%s on %s (%s), positions from %s: %d scored, %d skipped (a move without an exact value, or no choice)\n",
		rep.Agent, rep.Rules, seeds, rep.Source, rep.All.Positions, rep.Skipped)
	fmt.Fprintf(w, "%d of the skipped had a move the table could not decide from the position with its history (exact with a fresh history, but the opponent may steer back into a position already played)\n\n", rep.Undecided)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "seeds\tpositions\tbest move\t95% interval\tseeds lost per move\t95% interval\t")
	row := func(label string, r evaluate.AccuracyRow) {
		fmt.Fprintf(tw, "%s\t%d\t%.1f%%\t%.1f–%.1f%%\t%.3f\t%.3f–%.3f\t\n", label, r.Positions,
			100*r.Share, 100*r.ShareLo, 100*r.ShareHi, r.Loss, r.LossLo, r.LossHi)
	}
	for _, r := range rep.BySeeds {
		row(fmt.Sprint(r.Seeds), r)
	}
	row("all", rep.All)
	return tw.Flush()
}
