package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"text/tabwriter"
	"time"

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
				if code := runCommand(c, "urim tablebase "+c.name, args[1:], io); code != 0 {
					return exitCode(code)
				}
				return nil
			}
		},
	})
}

var tablebaseBuild = &command{
	name:  "build",
	usage: "--rules PRESET --max-seeds K --out FILE [flags]",
	long:  `Solves every position with at most K seeds and writes the table to FILE (atomically).`,
	setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
		rules := rulesFlag(fs)
		k := fs.Int("max-seeds", 8, "K: the most seeds on the board")
		out := fs.String("out", "", "table file to write")
		workers := fs.Int("workers", 0, "goroutines (0: every core)")
		asJSON := fs.Bool("json", false, "print the layer statistics as JSON")
		quiet := fs.Bool("quiet", false, "no progress bar")
		memory := fs.Float64("max-memory", 20, "refuse a build that needs more than this many GiB")
		bestMoves := fs.Bool("best-moves", false, "also store every position's best moves, analysed with only itself as history (read in one probe; costly: minutes at 10 seeds, docs/tablebase.md)")
		return func(std *stdio, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unexpected arguments %q", args)
			}
			if !(*memory > 0) || math.IsInf(*memory, 0) {
				return usageErrorf("--max-memory %v: want a positive number of GiB", *memory)
			}
			if *out == "" {
				return usageErrorf("--out FILE is required")
			}
			if *k < 0 {
				return usageErrorf("--max-seeds %d is negative", *k)
			}
			if *workers < 0 {
				return usageErrorf("--workers %d is negative (0: every core)", *workers)
			}
			g, err := loadGame(*rules)
			if err != nil {
				return err
			}
			if err := checkOutFile(*out); err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			sink := progress.To(std.err, *quiet)
			var bar *progress.Bar
			start := time.Now()
			t, stats, err := tablebase.Build(ctx, g.Rules(), *k, tablebase.Options{Workers: *workers,
				MemoryLimit: uint64(*memory * (1 << 30)), StoreMoves: *bestMoves,
				Progress: func(p tablebase.Progress) {
					if bar == nil || p.Moves && p.Seeds == 0 {
						if bar != nil {
							bar.Finish()
						}
						what := "positions"
						if p.Moves {
							what = "positions' best moves"
						}
						bar = sink.Bar(int(p.Total), "", what)
					}
					if p.Moves {
						bar.Describe(fmt.Sprintf("best moves, %d seeds", p.Seeds))
					} else {
						bar.Describe(fmt.Sprintf("%d seeds, round %d (%d changed)", p.Seeds, p.Round, p.Changed))
					}
					if p.LayerDone {
						bar.Set64(int64(p.Done))
					}
				}})
			if stoppedBy(ctx, err) {
				if bar != nil {
					bar.Exit()
				}
				return interruption{cmd: "urim tablebase build", where: "while solving", saved: "nothing was written (the table is written once solved)",
					resume: "run the command again to start over"}.exit(std)
			}
			if err != nil {
				return err
			}
			if bar != nil {
				bar.Finish()
			}
			solved := time.Since(start)
			if err := t.Save(*out); err != nil {
				return err
			}
			if *asJSON {
				enc := json.NewEncoder(std.out)
				enc.SetIndent("", "  ")
				return enc.Encode(map[string]any{"rules": t.Rules(), "max_seeds": t.MaxSeeds(), "file": *out,
					"bytes": t.Size(), "seconds": solved.Seconds(), "layers": stats})
			}
			fmt.Fprintf(std.out, "%s, K=%d: %d bytes of table in %s, solved in %.1fs\n\n", t.Rules().Name, t.MaxSeeds(), t.Size(), *out, solved.Seconds())
			tw := tabwriter.NewWriter(std.out, 0, 0, 2, ' ', tabwriter.AlignRight)
			head := "seeds\tpositions\texact\tshare\trounds\ttime\t"
			if *bestMoves {
				head += "best moves\t"
			}
			fmt.Fprintln(tw, head)
			for _, s := range stats {
				fmt.Fprintf(tw, "%d\t%d\t%d\t%.1f%%\t%d\t%.2fs\t", s.Seeds, s.Positions, s.Exact,
					100*float64(s.Exact)/float64(max(s.Positions, 1)), s.Rounds, s.Time.Seconds())
				if *bestMoves {
					fmt.Fprintf(tw, "%.2fs\t", s.MovesTime.Seconds())
				}
				fmt.Fprintln(tw)
			}
			return tw.Flush()
		}
	},
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
			t, err := tablebase.Load(args[0])
			if err != nil {
				return err
			}
			r, err := t.ProbePosition(args[1])
			if err != nil {
				return err
			}
			if *asJSON {
				enc := json.NewEncoder(std.out)
				enc.SetIndent("", "  ")
				return enc.Encode(r)
			}
			return r.WriteText(std.out)
		}
	},
}
