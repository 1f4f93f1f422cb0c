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
		var sets setFlags
		config := fs.String("config", "", "training config (YAML) whose self-play to measure; default: the built-in configs/urim.yaml")
		fs.Var(&sets, "set", "override a key of the config: key.path=value (repeatable)")
		games := fs.String("games", "", "comma-separated numbers of games in lock-step (default: the config's selfplay.parallel_games)")
		sims := fs.Int("sims", 0, "simulations per full search (default: the config's search.sims)")
		leaves := fs.Int("leaves", 0, "leaves per game and round, with virtual loss (default: the config's search.leaf_batch)")
		moves := fs.Int("moves", 4, "move rounds measured (each a move of every game)")
		threads := fs.Int("threads", 1, "goroutines of the network's forward pass")
		ckpt := fs.String("ckpt", "", "network checkpoint (default: an untrained network of the config's architecture)")
		rules := fs.String("rules", "urim", "rules preset or YAML file (with --ckpt: the checkpoint's)")
		seed := fs.Uint64("seed", 1, "seed of the network and the games")
		return func(io *stdio, out *benchOutput) error {
			if *sims < 0 || *leaves < 0 || *leaves > 1024 || *moves < 1 || *threads < 1 || *threads > 256 {
				return usageErrorf("--moves and --threads (up to 256) must be at least 1, --sims at least 0, --leaves 0 to 1024")
			}
			counts := []int{0} // the config's
			if *games != "" {
				var err error
				if counts, err = benchInts("--games", *games, 1<<16); err != nil {
					return err
				}
			}
			var tc train.Config
			var err error
			if *config == "" {
				tc, err = train.ParseConfig(configs.Urim, configs.UrimName, sets)
			} else {
				tc, err = train.LoadConfig(*config, sets)
			}
			if err != nil {
				return err
			}
			cfg := bench.AZOptions{Config: &tc, Sims: *sims, Leaves: *leaves, Moves: *moves, Threads: *threads, Seed: *seed}
			if *ckpt != "" {
				if cfg.Net, err = nn.LoadNet(*ckpt); err != nil {
					return err
				}
				rulesSet := false
				fs.Visit(func(f *flag.Flag) { rulesSet = rulesSet || f.Name == "rules" })
				if rulesSet {
					g, err := loadGame(*rules)
					if err != nil {
						return err
					}
					if key, a, b := cfg.Net.Rules().Diff(g.Rules()); key != "" {
						return fmt.Errorf("--rules %s: the checkpoint %s plays %s (%s: %v, not %v); leave --rules out with --ckpt",
							*rules, *ckpt, cfg.Net.Rules().Name, key, a, b)
					}
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
				label := "az"
				if n > 0 {
					label = fmt.Sprintf("az %d games", n)
				}
				cfg.Progress = barProgress(out.bar(*moves, label, "rounds"))
				r, err := bench.AZ(cfg)
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
	})
}
