package main

import (
	"flag"
	"fmt"
	"text/tabwriter"

	"github.com/urim-rl/urim/bench"
	"github.com/urim-rl/urim/configs"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

func init() {
	registerBenchmark(&command{
		name:  "az",
		usage: "[--config FILE] [--set key=value] [--games N,M] [--sims N] [--leaves N] [--moves 4] [--ckpt PATH] [--rules urim] [--json]",
		short: "AlphaZero lock-step self-play: simulations per second and the share of time in the network",
		long: `Plays self-play games in lock-step as a training run does, with the same
driver (agents.SelfPlay) and the same search settings: those of a training
config, configs/urim.yaml (built in) unless --config names another, with
--set overrides (repeatable, as for urim train). Its search section (sims,
c_puct, root noise, temperatures, leaf_batch, the playout cap), its
selfplay section (parallel_games, resignation) and, without --ckpt, its
network are what is measured; --games, --sims and --leaves override
selfplay.parallel_games, search.sims and search.leaf_batch. Finished games
are replaced by new ones from the start position.

It reports simulations per second and the share of the time spent in the
network's forward pass: the rest is the search's own overhead. The share is
of the process's CPU time, which a loaded machine does not inflate; its
share of the wall time is shown beside it. One round of moves warms up
first; --moves rounds are measured, for each --games count.

Without --ckpt the network is an untrained one of the config's architecture
for --rules (its speed is that of a trained one).

Examples:
  urim bench az
  urim bench az --games 64,256 --sims 64 --json
  urim bench az --config configs/quickstart.yaml
  urim bench az --set network.kind=mlp --set network.width=256 --set network.layer_norm=false --leaves 1
  urim bench az --ckpt models/urim-az.ckpt --leaves 2 --threads 2`,
	}, func(fs *flag.FlagSet) func(*stdio, *benchOutput) error {
		f := &azBenchFlags{fs: fs}
		f.bind(fs)
		return func(_ *stdio, out *benchOutput) error {
			o, counts, err := f.options()
			if err != nil {
				return err
			}
			return runAZBench(out, o, counts)
		}
	})
}

// azBenchFlags are the flags of urim bench az before they are checked.
type azBenchFlags struct {
	fs                           *flag.FlagSet
	sets                         setFlags
	config, games, ckpt, rules   string
	sims, leaves, moves, threads int
	seed                         uint64
}

func (f *azBenchFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&f.config, "config", "", "training config (YAML) whose self-play to measure; default: the built-in configs/urim.yaml")
	fs.Var(&f.sets, "set", "override a key of the config: key.path=value (repeatable)")
	fs.StringVar(&f.games, "games", "", "comma-separated numbers of games in lock-step (default: the config's selfplay.parallel_games)")
	fs.IntVar(&f.sims, "sims", 0, "simulations per full search (default: the config's search.sims)")
	fs.IntVar(&f.leaves, "leaves", 0, "leaves per game and round, with virtual loss (default: the config's search.leaf_batch)")
	fs.IntVar(&f.moves, "moves", 4, "move rounds measured (each a move of every game)")
	fs.IntVar(&f.threads, "threads", 1, "goroutines of the network's forward pass")
	fs.StringVar(&f.ckpt, "ckpt", "", "network checkpoint (default: an untrained network of the config's architecture)")
	fs.StringVar(&f.rules, "rules", "urim", "rules preset or YAML file (with --ckpt: the checkpoint's)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the network and the games")
}

// options checks the flags and returns the harness's options, the config
// read and the network loaded, and the --games counts (0: the config's).
func (f *azBenchFlags) options() (bench.AZOptions, []int, error) {
	var o bench.AZOptions
	if f.sims < 0 || f.leaves < 0 || f.leaves > 1024 || f.moves < 1 || f.threads < 1 || f.threads > 256 {
		return o, nil, usageErrorf("--moves and --threads (up to 256) must be at least 1, --sims at least 0, --leaves 0 to 1024")
	}
	counts := []int{0} // the config's
	if f.games != "" {
		var err error
		if counts, err = benchInts("--games", f.games, 1<<16); err != nil {
			return o, nil, err
		}
	}
	var tc train.Config
	var err error
	if f.config == "" {
		tc, err = train.ParseConfig(configs.Urim, configs.UrimName, f.sets)
	} else {
		tc, err = train.LoadConfig(f.config, f.sets)
	}
	if err != nil {
		return o, nil, err
	}
	o = bench.AZOptions{Config: &tc, Sims: f.sims, Leaves: f.leaves, Moves: f.moves, Threads: f.threads, Seed: f.seed}
	if f.ckpt == "" {
		g, err := loadGame(f.rules)
		if err != nil {
			return o, nil, err
		}
		o.Rules = g.Rules()
		return o, counts, nil
	}
	if o.Net, err = nn.LoadNet(f.ckpt); err != nil {
		return o, nil, err
	}
	if flagGiven(f.fs, "rules") {
		g, err := loadGame(f.rules)
		if err != nil {
			return o, nil, err
		}
		if key, a, b := o.Net.Rules().Diff(g.Rules()); key != "" {
			return o, nil, fmt.Errorf("--rules %s: the checkpoint %s plays %s (%s: %v, not %v); leave --rules out with --ckpt",
				f.rules, f.ckpt, o.Net.Rules().Name, key, a, b)
		}
	}
	return o, counts, nil
}

// runAZBench measures lock-step self-play at each count of games in
// lock-step and writes the rows.
func runAZBench(out *benchOutput, o bench.AZOptions, counts []int) error {
	var rows []bench.AZResult
	for _, n := range counts {
		o.Games = n
		label := "az"
		if n > 0 {
			label = fmt.Sprintf("az %d games", n)
		}
		o.Progress = barProgress(out.bar(o.Moves, label, "rounds"))
		r, err := bench.AZ(o)
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	return out.write(rows, func(tw *tabwriter.Writer) {
		fmt.Fprintln(tw, "rules\tarch\tprecision\tgames\tsims/move\tleaves\tthreads\tseconds\tsims/s\tsims/CPU-s\tin network (CPU)\t(wall)\tmean batch\tnet pos/CPU-s\tallocs/sim\t")
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%.2f\t%.0f\t%.0f\t%.1f%%\t%.1f%%\t%.1f\t%.0f\t%.3f\t\n", r.Rules, r.Arch, r.Precision, r.Games,
				r.Sims, r.Leaves, r.Threads, r.Seconds, r.SimsPerSec, r.SimsPerCPUSec, 100*r.NetShare, 100*r.NetShareWall,
				r.MeanBatch, r.NetPosPerS, r.AllocsPerSim)
		}
	})
}
