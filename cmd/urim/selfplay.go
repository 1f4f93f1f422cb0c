package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/internal/progress"
)

func init() {
	register(&command{
		name:  "selfplay",
		usage: "(--agent SPEC | --config FILE) --games N --out DIR [flags]",
		short: "play games between agents and write them as a dataset (npz tensors, JSON Lines games)",
		long: `Plays --games games between --agent and --opponent (the agent itself by default),
the agent taking South in even-numbered games and North in odd ones, and
writes a dataset directory: training tensors as .npz shards (observations,
masks, the search's visit distribution and value where the agent searches,
the outcome for the mover, ply, game id), the games as gzip JSON Lines, and
manifest.json with a SHA-256 of every shard (docs/dataset.md).

Games are played --workers at a time; game i depends only on --seed and i, so
the dataset does not depend on --workers. Ctrl-C writes the games finished so
far; --resume continues an interrupted run (Ctrl-C or kill -9) with the same
games it would have played. The YAML form (--config FILE) takes the keys
agent, opponent, games, out, encoding, shard_size, seed, workers, openings,
rules and reward; flags given beside it override its keys.

A progress bar is drawn on standard error unless --quiet; at the end two lines
give the positions written per second, the speed the agents alone would reach,
and how the time divided between the agents, the recording and the writer.
An interrupted run exits with status 130.

Agents:
` + agents.Help() + `
Examples:
  urim selfplay --agent mcts:sims=100 --games 200 --out data/mcts100
  urim selfplay --agent mcts:sims=400 --opponent greedy --games 1000 --out data/g --encoding thermometer
  urim selfplay --config selfplay.yaml --resume`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			var c dataset.Config
			config := fs.String("config", "", "self-play config (YAML)")
			fs.StringVar(&c.Agent, "agent", "", "spec of the agent that plays")
			fs.StringVar(&c.Opponent, "opponent", "", "spec of its opponent (default: the agent itself)")
			fs.IntVar(&c.Games, "games", 100, "games in the dataset")
			fs.StringVar(&c.Out, "out", "", "dataset directory")
			fs.StringVar(&c.Encoding, "encoding", "compact", "observation encoding: compact or thermometer")
			fs.IntVar(&c.ShardSize, "shard-size", 0, fmt.Sprintf("positions per shard (0: %d)", dataset.DefaultShardPositions))
			fs.Uint64Var(&c.Seed, "seed", 1, "seed of the openings and the agents")
			fs.IntVar(&c.Workers, "workers", 0, "games played at once (0: one per core)")
			fs.IntVar(&c.Openings, "openings", 4, "random plies at the start of every game (no tensor rows)")
			fs.StringVar(&c.Rules, "rules", "urim", "rules: a preset or a YAML file of custom rules")
			fs.StringVar(&c.Reward, "reward", "match_points", "outcome for the mover: match_points, win_loss or seed_margin")
			resume := fs.Bool("resume", false, "continue the dataset in --out")
			quiet := fs.Bool("quiet", false, "no progress bar")
			return func(io *stdio, args []string) error {
				var err error
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q", args)
				}
				cfg := c
				if *config != "" {
					if cfg, err = dataset.LoadConfig(*config); err != nil {
						return err
					}
					if cfg.Games == 0 {
						cfg.Games = 100
					}
					fs.Visit(func(f *flag.Flag) {
						switch f.Name {
						case "agent":
							cfg.Agent = c.Agent
						case "opponent":
							cfg.Opponent = c.Opponent
						case "games":
							cfg.Games = c.Games
						case "out":
							cfg.Out = c.Out
						case "encoding":
							cfg.Encoding = c.Encoding
						case "shard-size":
							cfg.ShardSize = c.ShardSize
						case "seed":
							cfg.Seed = c.Seed
						case "workers":
							cfg.Workers = c.Workers
						case "openings":
							cfg.Openings = c.Openings
						case "rules":
							cfg.Rules = c.Rules
						case "reward":
							cfg.Reward = c.Reward
						}
					})
				}
				if cfg.Agent == "" {
					return usageErrorf("give --agent SPEC (or agent: in --config)")
				}
				if cfg.Out == "" {
					return usageErrorf("give --out DIR (or out: in --config)")
				}
				var bar func(done, total int)
				if !*quiet {
					bar = progress.Func(io.err, "selfplay", "games")
				}
				ctx, stop := interruptible()
				defer stop()
				defer agents.CloseExternalEngines()
				res, err := dataset.SelfPlay(ctx, cfg, *resume, bar)
				for _, f := range res.Removed {
					fmt.Fprintf(io.err, "urim selfplay: removed %s, left by an interrupted run\n", f)
				}
				if err != nil {
					return err
				}
				printSelfPlay(io, cfg, res)
				if res.Interrupted {
					fmt.Fprintf(io.err, "urim selfplay: interrupted with %d of %d games written; run again with --resume to finish\n", res.Manifest.Games, cfg.Games)
					return exitCode(130)
				}
				return nil
			}
		},
	})
}

// printSelfPlay prints the run's figures.
func printSelfPlay(io *stdio, cfg dataset.Config, res dataset.SelfPlayResult) {
	m := res.Manifest
	secs := res.Elapsed.Seconds()
	fmt.Fprintf(io.out, "wrote %s: %d games, %d positions in %d shards, %.1f bytes per position\n",
		cfg.Out, m.Games, m.Positions, len(m.Shards), float64(res.Bytes)/float64(max(m.Positions, 1)))
	if res.Resumed > 0 {
		fmt.Fprintf(io.out, "resumed: %d games were already written, %d played now\n", res.Resumed, res.Played)
	}
	perWorker := func(d time.Duration) float64 { return d.Seconds() / float64(max(res.Workers, 1)) }
	agents := perWorker(res.AgentTime)
	fmt.Fprintf(io.out, "%.0f positions/s over %.2fs with %d workers; the agents alone: %.0f positions/s\n",
		float64(res.Positions)/max(secs, 1e-9), secs, res.Workers, float64(res.Positions)/max(agents, 1e-9))
	fmt.Fprintf(io.out, "time: agents %.2fs and recording %.2fs per worker; the writer %.2fs (its own goroutine)\n",
		agents, perWorker(res.RecordTime), res.WriteTime.Seconds())
}
