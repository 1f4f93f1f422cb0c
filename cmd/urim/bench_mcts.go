package main

import (
	"flag"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/bench"
	"github.com/urim-rl/urim/env"
)

func init() {
	registerBenchmark(&command{
		name:  "mcts",
		usage: "[--rules oware,urim] [--sims 1000] [--c 2] [--threads N] [--moves 300] [--json]",
		short: "MCTS simulations per second per core, against a random-playout baseline",
		long: `Plays games between two MCTS agents (UCT, one random rollout per leaf) with
--sims simulations per move, from the start to the end and again, until --moves
moves have been searched, and reports simulations per second per core. The
defaults are the settings of OpenSpiel's MCTS speed comparison (1000
simulations per move, uct_c 2).

In the same run it plays random games from the start for --baseline, with the
engine's playout loop, and reports the ratio of simulations to playouts per
second: a simulation is a tree descent plus one playout from deeper in the
game, so the ratio shows what the tree costs on a machine whatever its load.
Allocations per simulation come from the Go runtime's counters.

Examples:
  urim bench mcts
  urim bench mcts --rules all --moves 1000 --json
  urim bench mcts --threads 2 --sims 4000`,
	}, func(fs *flag.FlagSet) func(*stdio, *benchOutput) error {
		f := &mctsBenchFlags{}
		f.bind(fs)
		return func(_ *stdio, out *benchOutput) error {
			o, err := f.options()
			if err != nil {
				return err
			}
			games, err := benchGames(f.rules)
			if err != nil {
				return err
			}
			return runMCTSBench(out, games, o, f.baseline)
		}
	})
	registerBenchmark(&command{
		name:  "alphabeta",
		usage: "[--rules oware,urim] [--depth 10] [--tt 20] [--positions 50] [--json]",
		short: "alpha-beta nodes per second, against the engine's moves per second",
		long: `Searches --positions positions of random games (the same ones for a given
--seed) to --depth with a fresh transposition table each, and reports nodes
per second, nodes per search and the time per search. In the same run it
plays random games for --baseline and reports the ratio of nodes to random
moves per second: a node is a copy of the position and a move, plus the
search's bookkeeping.

Examples:
  urim bench alphabeta
  urim bench alphabeta --rules urim --depth 12 --json`,
	}, func(fs *flag.FlagSet) func(*stdio, *benchOutput) error {
		f := &alphaBetaBenchFlags{}
		f.bind(fs)
		return func(_ *stdio, out *benchOutput) error {
			o, err := f.options()
			if err != nil {
				return err
			}
			games, err := benchGames(f.rules)
			if err != nil {
				return err
			}
			return runAlphaBetaBench(out, games, o, f.baseline)
		}
	})
}

// runMCTSBench measures the MCTS agents on each game, with the random
// playouts of baseline beside them, and writes the rows.
func runMCTSBench(out *benchOutput, games []*env.Game, o bench.MCTSOptions, baseline time.Duration) error {
	var rows []bench.MCTSResult
	for _, g := range games {
		base := bench.Playouts(g, baseline, 1)
		o.Progress = barProgress(out.bar(o.Moves, "mcts "+g.Name(), "moves"))
		r, err := bench.MCTS(g, o)
		if err != nil {
			return err
		}
		r.PlayoutsPerSec = base.GamesPerSecPerCore
		r.Ratio = r.SimsPerSecPerCore / base.GamesPerSecPerCore
		rows = append(rows, r)
	}
	return out.write(rows, func(tw *tabwriter.Writer) {
		fmt.Fprintln(tw, "rules\tsims/move\tc\tthreads\tmoves\tseconds\tsims/s per core\tplayouts/s (baseline)\tratio\tallocs/sim\t")
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%d\t%g\t%d\t%d\t%.2f\t%.0f\t%.0f\t%.2f\t%.3f\t\n", r.Rules, r.SimsPerMove, r.C, r.Threads,
				r.Moves, r.Seconds, r.SimsPerSecPerCore, r.PlayoutsPerSec, r.Ratio, r.AllocsPerSim)
		}
	})
}

// runAlphaBetaBench measures alpha-beta on each game, with the random
// moves of baseline beside it, and writes the rows.
func runAlphaBetaBench(out *benchOutput, games []*env.Game, o bench.AlphaBetaOptions, baseline time.Duration) error {
	var rows []bench.AlphaBetaResult
	for _, g := range games {
		base := bench.Playouts(g, baseline, 1)
		o.Progress = barProgress(out.bar(o.Positions, "alphabeta "+g.Name(), "positions"))
		r := bench.AlphaBeta(g, o)
		r.MovesPerSec = base.MovesPerSecPerCore
		r.Ratio = r.NodesPerSec / base.MovesPerSecPerCore
		rows = append(rows, r)
	}
	return out.write(rows, func(tw *tabwriter.Writer) {
		fmt.Fprintln(tw, "rules\tdepth\tpositions\tnodes/search\tms/search\tnodes/s\tmoves/s (baseline)\tratio\t")
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.0f\t%.2f\t%.0f\t%.0f\t%.2f\t\n", r.Rules, r.Depth, r.Positions,
				r.NodesPerSearch, r.MsPerSearch, r.NodesPerSec, r.MovesPerSec, r.Ratio)
		}
	})
}

// mctsBenchFlags are the flags of urim bench mcts before they are checked.
type mctsBenchFlags struct {
	rules    string
	opts     bench.MCTSOptions
	baseline time.Duration
}

func (f *mctsBenchFlags) bind(fs *flag.FlagSet) {
	d := bench.DefaultMCTSOptions()
	fs.StringVar(&f.rules, "rules", "oware,urim", "comma-separated rules presets or files, or all")
	fs.IntVar(&f.opts.Sims, "sims", d.Sims, "simulations per move")
	fs.Float64Var(&f.opts.C, "c", d.C, "UCT exploration constant")
	fs.IntVar(&f.opts.Threads, "threads", d.Threads, "root-parallel search threads of each agent")
	fs.IntVar(&f.opts.Moves, "moves", d.Moves, "moves searched per preset")
	fs.DurationVar(&f.baseline, "baseline", time.Second, "how long to run the random-playout baseline per preset")
}

// options checks the flags and returns the harness's options.
func (f *mctsBenchFlags) options() (bench.MCTSOptions, error) {
	o := f.opts
	if o.Sims < 1 || o.Threads < 1 || o.Moves < 1 || o.C < 0 {
		return o, usageErrorf("--sims, --threads and --moves must be at least 1, --c at least 0")
	}
	if err := checkBenchWorkers("threads", o.Threads); err != nil {
		return o, err
	}
	if err := checkBenchDuration("baseline", f.baseline); err != nil {
		return o, err
	}
	return o, nil
}

// alphaBetaBenchFlags are the flags of urim bench alphabeta before they are
// checked.
type alphaBetaBenchFlags struct {
	rules    string
	opts     bench.AlphaBetaOptions
	baseline time.Duration
}

func (f *alphaBetaBenchFlags) bind(fs *flag.FlagSet) {
	d := bench.DefaultAlphaBetaOptions()
	fs.StringVar(&f.rules, "rules", "oware,urim", "comma-separated rules presets or files, or all")
	fs.IntVar(&f.opts.Depth, "depth", d.Depth, "search depth in plies")
	fs.IntVar(&f.opts.TTBits, "tt", d.TTBits, "log2 of the transposition-table entries")
	fs.IntVar(&f.opts.Positions, "positions", d.Positions, "positions searched per preset")
	fs.Uint64Var(&f.opts.Seed, "seed", d.Seed, "seed of the random games the positions come from")
	fs.DurationVar(&f.baseline, "baseline", time.Second, "how long to run the random-playout baseline per preset")
}

// options checks the flags and returns the harness's options.
func (f *alphaBetaBenchFlags) options() (bench.AlphaBetaOptions, error) {
	o := f.opts
	if o.Depth < 1 || o.Depth > classic.MaxAlphaBetaDepth || o.TTBits < 0 || o.TTBits > 28 || o.Positions < 1 {
		return o, usageErrorf("--depth must be 1 to %d, --tt 0 to 28, --positions at least 1", classic.MaxAlphaBetaDepth)
	}
	if err := checkBenchDuration("baseline", f.baseline); err != nil {
		return o, err
	}
	return o, nil
}
