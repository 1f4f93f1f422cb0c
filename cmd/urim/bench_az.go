package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urim-rl/urim/bench"
	"github.com/urim-rl/urim/nn"
)

func init() {
	registerBench(&command{
		name:  "az",
		usage: "[--games 64,256] [--sims 64] [--leaves 1] [--moves 4] [--ckpt PATH] [--rules urim] [--json]",
		short: "AlphaZero lock-step self-play: simulations per second and the share of time in the network",
		long: `Plays self-play games in lock-step (every game its own tree, one forward pass
per round over a leaf of every game; root noise, temperature 1 for 30 plies,
finished games replaced) with --sims simulations per move, and reports
simulations per second and the share of the time spent in the network's
forward pass: the rest is the search's own overhead. The share is of the
process's CPU time, which a loaded machine does not inflate; its share of the
wall time is shown beside it. One round of moves warms
up first; --moves rounds are measured, for each --games count.

Without --ckpt the network is an untrained one of the default architecture for
--rules (its speed is that of a trained one).

Examples:
  urim bench az
  urim bench az --games 256 --sims 128 --json
  urim bench az --ckpt run/net.ckpt --leaves 2 --threads 2`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			games := fs.String("games", "64,256", "comma-separated numbers of games in lock-step")
			sims := fs.Int("sims", 64, "simulations per move")
			leaves := fs.Int("leaves", 1, "leaves per game and round, with virtual loss")
			moves := fs.Int("moves", 4, "move rounds measured (each a move of every game)")
			threads := fs.Int("threads", 1, "goroutines of the network's forward pass")
			ckpt := fs.String("ckpt", "", "network checkpoint (default: an untrained default network)")
			rules := fs.String("rules", "urim", "rules preset or YAML file, without --ckpt")
			seed := fs.Uint64("seed", 1, "seed of the network and the games")
			asJSON := fs.Bool("json", false, "print JSON instead of a table")
			quiet := fs.Bool("quiet", false, "no progress bar")
			return func(io *stdio, args []string) error {
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q", args)
				}
				if *sims < 1 || *leaves < 1 || *leaves > 1024 || *moves < 1 || *threads < 1 || *threads > 256 {
					return usageErrorf("--sims, --moves and --threads (up to 256) must be at least 1, --leaves 1 to 1024")
				}
				counts, err := parseCounts(*games)
				if err != nil {
					return err
				}
				cfg := bench.AZOptions{Sims: *sims, Leaves: *leaves, Moves: *moves, Threads: *threads, Seed: *seed}
				if *ckpt != "" {
					if cfg.Net, err = nn.LoadNet(*ckpt); err != nil {
						return err
					}
				} else {
					g, err := loadGame(*rules)
					if err != nil {
						return err
					}
					cfg.Rules = g.Rules()
				}
				var rows []bench.AZResult
				for _, n := range counts {
					cfg.Games = n
					cfg.Progress = barProgress(benchBar(io.err, *quiet, *moves, fmt.Sprintf("az %d games", n), "rounds"))
					r, err := bench.AZ(cfg)
					if err != nil {
						return err
					}
					rows = append(rows, r)
				}
				if *asJSON {
					return writeJSON(io.out, rows)
				}
				tw := tabwriter.NewWriter(io.out, 0, 0, 2, ' ', tabwriter.AlignRight)
				fmt.Fprintln(tw, "rules\tarch\tgames\tsims/move\tleaves\tthreads\tseconds\tsims/s\tsims/CPU-s\tin network (CPU)\t(wall)\tmean batch\tnet pos/CPU-s\tallocs/sim\t")
				for _, r := range rows {
					fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%.2f\t%.0f\t%.0f\t%.1f%%\t%.1f%%\t%.1f\t%.0f\t%.3f\t\n", r.Rules, r.Arch, r.Games,
						r.Sims, r.Leaves, r.Threads, r.Seconds, r.SimsPerSec, r.SimsPerCPUSec, 100*r.NetShare, 100*r.NetShareWall,
						r.MeanBatch, r.NetPosPerS, r.AllocsPerSim)
				}
				return flushWithFooter(tw, io.out)
			}
		},
	})
}

// parseCounts reads a comma-separated list of positive integers.
func parseCounts(list string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 1<<16 {
			return nil, usageErrorf("--games %q: want positive numbers up to 65536, separated by commas", list)
		}
		out = append(out, n)
	}
	return out, nil
}
