package main

import (
	"flag"
	"fmt"
	"math"
	"text/tabwriter"
	"time"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/progress"
	"github.com/urim-rl/urim/tablebase"
)

func init() {
	register(&command{
		name:  "tablebase",
		usage: "build --rules PRESET --max-seeds K --out FILE  |  tablebase probe [--json] FILE POSITION",
		short: "endgame tablebase: solve every board with at most K seeds; probe a position",
		long: `'build' solves, by retrograde analysis, every position with at most K seeds on
the board (either player to move) and writes the table to FILE: for each
position a lower and an upper bound on the seeds, of those on the board, that
the player to move ends with under perfect play (exact where they meet; see
docs/tablebase.md). It uses every core and prints the share of exact positions
by seed count.

'probe' prints a position's bounds and each legal move's, from the position with
its history, and labels each move: best (keeps the value), keeps the bound (where
the position is not exact), keeps the bound but may cycle (the table cannot tell
whether the opponent can steer back into the history), or worse.

Examples:
  urim tablebase build --rules urim --max-seeds 12 --out urim12.tb
  urim tablebase probe urim12.tb "1,0,1,0,0,2/0,1,0,0,4,0 13-14 S 40"
  urim tablebase probe --json urim12.tb "1,0,1,0,0,2/0,1,0,0,4,0 13-14 S 40"`,
		sub: func(string) bool { return true },
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			return func(io *stdio, args []string) error {
				if len(args) == 0 {
					return usageErrorf("name a subcommand: build or probe")
				}
				var c *command
				switch args[0] {
				case "build":
					c = tablebaseBuild
				case "probe":
					c = tablebaseProbe
				default:
					return usageErrorf("unknown subcommand %q (known: build, probe)", args[0])
				}
				return runChild(io, "urim tablebase", c, args[1:])
			}
		},
	})
}

var tablebaseBuild = &command{
	name:  "build",
	usage: "--rules PRESET --max-seeds K --out FILE [flags]",
	long:  `Solves every position with at most K seeds and writes the table to FILE (atomically).`,
	setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
		a := &tablebaseBuildArgs{rules: rulesFlag(fs)}
		fs.IntVar(&a.k, "max-seeds", 8, "K: the most seeds on the board")
		fs.StringVar(&a.out, "out", "", "table file to write")
		fs.IntVar(&a.workers, "workers", 0, "goroutines (0: every core)")
		fs.BoolVar(&a.asJSON, "json", false, "print the layer statistics as JSON")
		fs.BoolVar(&a.quiet, "quiet", false, "no progress bar")
		fs.Float64Var(&a.memory, "max-memory", 20, "refuse a build that needs more than this many GiB")
		fs.BoolVar(&a.bestMoves, "best-moves", false, "also store every position's best moves, analysed with only itself as history (read in one probe; costly: minutes at 10 seeds, docs/tablebase.md)")
		return func(std *stdio, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unexpected arguments %q", args)
			}
			g, err := a.game()
			if err != nil {
				return err
			}
			return runTablebaseBuild(std, g, a)
		}
	},
}

// tablebaseBuildArgs are the flags of urim tablebase build.
type tablebaseBuildArgs struct {
	rules                    *string
	k, workers               int
	out                      string
	asJSON, quiet, bestMoves bool
	memory                   float64 // GiB
}

// game checks the flags and returns the game of --rules, once --out is
// known to be writable.
func (a *tablebaseBuildArgs) game() (*env.Game, error) {
	switch {
	case !(a.memory > 0) || math.IsInf(a.memory, 0):
		return nil, usageErrorf("--max-memory %v: want a positive number of GiB", a.memory)
	case a.out == "":
		return nil, usageErrorf("--out FILE is required")
	case a.k < 0:
		return nil, usageErrorf("--max-seeds %d is negative", a.k)
	case a.workers < 0:
		return nil, usageErrorf("--workers %d is negative (0: every core)", a.workers)
	}
	g, err := loadGame(*a.rules)
	if err != nil {
		return nil, err
	}
	if err := checkOutFile(a.out); err != nil {
		return nil, err
	}
	return g, nil
}

// runTablebaseBuild solves the table of g, writes it to --out and prints
// its layers' statistics.
func runTablebaseBuild(std *stdio, g *env.Game, a *tablebaseBuildArgs) error {
	ctx, stop := interruptible()
	defer stop()
	bars := &buildBars{sink: progress.To(std.err, a.quiet)}
	start := time.Now()
	t, stats, err := tablebase.Build(ctx, g.Rules(), a.k, tablebase.Options{Workers: a.workers,
		MemoryLimit: uint64(a.memory * (1 << 30)), StoreMoves: a.bestMoves, Progress: bars.update})
	if stoppedBy(ctx, err) {
		if bars.bar != nil {
			bars.bar.Exit()
		}
		return interruption{cmd: "urim tablebase build", where: "while solving", saved: "nothing was written (the table is written once solved)",
			resume: "run the command again to start over"}.exit(std)
	}
	if err != nil {
		return err
	}
	if bars.bar != nil {
		bars.bar.Finish()
	}
	solved := time.Since(start)
	if err := t.Save(a.out); err != nil {
		return err
	}
	if a.asJSON {
		return evaluate.WriteJSON(std.out, map[string]any{"rules": t.Rules(), "max_seeds": t.MaxSeeds(), "file": a.out,
			"bytes": t.Size(), "seconds": solved.Seconds(), "layers": stats})
	}
	fmt.Fprintf(std.out, "%s, K=%d: %d bytes of table in %s, solved in %.1fs\n\n", t.Rules().Name, t.MaxSeeds(), t.Size(), a.out, solved.Seconds())
	tw := tabwriter.NewWriter(std.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "seeds\tpositions\texact\tshare\trounds\ttime\t"
	if a.bestMoves {
		head += "best moves\t"
	}
	fmt.Fprintln(tw, head)
	for _, s := range stats {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%.1f%%\t%d\t%.2fs\t", s.Seeds, s.Positions, s.Exact,
			100*float64(s.Exact)/float64(max(s.Positions, 1)), s.Rounds, s.Time.Seconds())
		if a.bestMoves {
			fmt.Fprintf(tw, "%.2fs\t", s.MovesTime.Seconds())
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// buildBars draws a build's progress: a bar over the positions, then one
// over their best moves.
type buildBars struct {
	sink progress.Sink
	bar  *progress.Bar
}

func (b *buildBars) update(p tablebase.Progress) {
	if b.bar == nil || p.Moves && p.Seeds == 0 {
		if b.bar != nil {
			b.bar.Finish()
		}
		what := "positions"
		if p.Moves {
			what = "positions' best moves"
		}
		b.bar = b.sink.Bar(int(p.Total), "", what)
	}
	if p.Moves {
		b.bar.Describe(fmt.Sprintf("best moves, %d seeds", p.Seeds))
	} else {
		b.bar.Describe(fmt.Sprintf("%d seeds, round %d (%d changed)", p.Seeds, p.Round, p.Changed))
	}
	if p.LayerDone {
		b.bar.Set64(int64(p.Done))
	}
}

var tablebaseProbe = &command{
	name:  "probe",
	usage: "[--json] FILE POSITION",
	long:  `Prints the bounds of a position (in urim's notation, quoted) and the value of each legal move.`,
	setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
		asJSON := fs.Bool("json", false, "print JSON")
		return func(std *stdio, args []string) error {
			if len(args) != 2 {
				return usageErrorf("want FILE and POSITION (quoted), got %d arguments", len(args))
			}
			return runTablebaseProbe(std, args[0], args[1], *asJSON)
		}
	},
}

// runTablebaseProbe prints the bounds of the position in the table file
// and its moves'.
func runTablebaseProbe(std *stdio, file, position string, asJSON bool) error {
	t, err := tablebase.Load(file)
	if err != nil {
		return err
	}
	r, err := t.ProbePosition(position)
	if err != nil {
		return err
	}
	if asJSON {
		return evaluate.WriteJSON(std.out, r)
	}
	return r.WriteText(std.out)
}
