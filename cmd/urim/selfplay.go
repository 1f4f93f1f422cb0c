package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/evaluate"
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
the dataset does not depend on --workers. An az agent playing itself goes
through the lock-step self-play driver instead (as training does): games are
searched --games-in-lockstep at a time in fixed groups by game id, each group
seeded from --seed and its index, and the workers take whole groups, so the
dataset again depends on the config alone. Ctrl-C writes the games finished so
far; --resume continues an interrupted run (Ctrl-C or kill -9) with the same
games it would have played. The YAML form (--config FILE) takes the keys
agent, opponent, games, out, encoding, shard_size, seed, workers, openings,
rules, reward and games_in_lockstep; flags given beside it override its keys.

A progress bar is drawn on standard error unless --quiet; at the end two lines
give the positions written per second, the speed the agents alone would reach,
and how the time divided between the agents, the recording and the writer
(--json prints the same figures as JSON). An interrupted run exits with
status 130.

Agents:
` + agents.Help() + `
Examples:
  urim selfplay --agent mcts:sims=100 --games 200 --out data/mcts100
  urim selfplay --agent mcts:sims=400 --opponent greedy --games 1000 --out data/g --encoding thermometer
  urim selfplay --config selfplay.yaml --resume`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			c := dataset.DefaultConfig()
			config := fs.String("config", "", "self-play config (YAML)")
			fs.StringVar(&c.Agent, "agent", "", "spec of the agent that plays")
			fs.StringVar(&c.Opponent, "opponent", "", "spec of its opponent (default: the agent itself)")
			fs.IntVar(&c.Games, "games", c.Games, "games in the dataset")
			fs.StringVar(&c.Out, "out", "", "dataset directory")
			fs.StringVar(&c.Encoding, "encoding", c.Encoding, "observation encoding: compact or thermometer")
			fs.IntVar(&c.ShardSize, "shard-size", 0, fmt.Sprintf("positions per shard (0: %d)", dataset.DefaultShardPositions))
			fs.Uint64Var(&c.Seed, "seed", c.Seed, "seed of the openings and the agents")
			fs.IntVar(&c.Workers, "workers", 0, "games played at once (0: one per core)")
			fs.IntVar(&c.Openings, "openings", c.Openings, "random plies at the start of every game (no tensor rows)")
			fs.StringVar(&c.Rules, "rules", c.Rules, rulesUsage)
			fs.StringVar(&c.Reward, "reward", c.Reward, "outcome for the mover: match_points, win_loss or seed_margin")
			fs.IntVar(&c.GamesInLockstep, "games-in-lockstep", 0, fmt.Sprintf("games an az agent playing itself searches in lock-step (0: %d)", dataset.DefaultGamesInLockstep))
			a := &selfPlayArgs{fs: fs, flags: &c, config: config,
				resume: fs.Bool("resume", false, "continue the dataset in --out"),
				quiet:  fs.Bool("quiet", false, "no progress bar"),
				asJSON: fs.Bool("json", false, "print the run's figures as JSON")}
			return func(io *stdio, args []string) error {
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q", args)
				}
				cfg, err := a.selfPlayConfig()
				if err != nil {
					return err
				}
				return runSelfPlay(io, cfg, a)
			}
		},
	})
}

// selfPlayArgs are the flags of urim selfplay, as bound.
type selfPlayArgs struct {
	fs                    *flag.FlagSet
	flags                 *dataset.Config // the config the flags set
	config                *string
	resume, quiet, asJSON *bool
}

// selfPlayConfig returns the self-play config the flags ask for: --config's
// file with the flags given laid over it, or the flags alone.
func (a *selfPlayArgs) selfPlayConfig() (dataset.Config, error) {
	cfg := *a.flags
	if *a.config != "" {
		var err error
		if cfg, err = dataset.LoadConfig(*a.config); err != nil {
			return cfg, err
		}
		if err := overlayFlags(a.fs, &cfg, a.flags, selfPlayFlagKeys); err != nil {
			return cfg, err
		}
	}
	if cfg.Agent == "" {
		return cfg, usageErrorf("give --agent SPEC (or agent: in --config)")
	}
	if cfg.Out == "" {
		return cfg, usageErrorf("give --out DIR (or out: in --config)")
	}
	return cfg, nil
}

// runSelfPlay writes the dataset (continuing it with --resume) and prints
// the run's figures; interrupted, it says how to finish.
func runSelfPlay(io *stdio, cfg dataset.Config, a *selfPlayArgs) error {
	bar := progress.To(io.err, *a.quiet).Func("selfplay", "games")
	ctx, stop := interruptible()
	defer stop()
	defer classic.CloseExternalEngines()
	res, err := dataset.SelfPlay(ctx, cfg, *a.resume, bar)
	if res.StaleLock != "" {
		fmt.Fprintf(io.err, "urim selfplay: took over the stale lock of %s (that process is gone)\n", res.StaleLock)
	}
	for _, f := range res.Removed {
		fmt.Fprintf(io.err, "urim selfplay: removed %s, left by an interrupted run\n", f)
	}
	if stoppedBy(ctx, err) {
		res.Interrupted = true
	} else if err != nil {
		return err
	}
	if *a.asJSON {
		if err := evaluate.WriteJSON(io.out, selfPlayJSON(cfg, res)); err != nil {
			return err
		}
	} else {
		printSelfPlay(io, cfg, res)
	}
	if res.Interrupted {
		return interruption{cmd: "urim selfplay", where: fmt.Sprintf("with %d of %d games written", res.Manifest.Games, cfg.Games),
			saved:  "they are saved in " + cfg.Out,
			resume: "run the same command again with --resume to finish the dataset"}.exit(io)
	}
	return nil
}

// selfPlaySummary is what urim selfplay --json prints; times are in
// seconds, the agents' and the recording's per worker.
type selfPlaySummary struct {
	Out             string  `json:"out"`
	Games           int     `json:"games"`
	Positions       int     `json:"positions"`
	Shards          int     `json:"shards"`
	Bytes           int64   `json:"bytes"`
	Complete        bool    `json:"complete"`
	Resumed         int     `json:"resumed"`
	Played          int     `json:"played"`
	PlayedPositions int     `json:"played_positions"`
	Workers         int     `json:"workers"`
	Seconds         float64 `json:"seconds"`
	PositionsPerSec float64 `json:"positions_per_sec"`
	AgentSeconds    float64 `json:"agent_seconds"`
	RecordSeconds   float64 `json:"record_seconds"`
	WriterSeconds   float64 `json:"writer_seconds"`
	AgentPosPerSec  float64 `json:"agent_positions_per_sec"`
}

func selfPlayJSON(cfg dataset.Config, res dataset.SelfPlayResult) selfPlaySummary {
	m := res.Manifest
	perWorker := func(d time.Duration) float64 { return d.Seconds() / float64(max(res.Workers, 1)) }
	secs, agents := res.Elapsed.Seconds(), perWorker(res.AgentTime)
	return selfPlaySummary{Out: cfg.Out, Games: m.Games, Positions: m.Positions, Shards: len(m.Shards),
		Bytes: res.Bytes, Complete: m.Complete, Resumed: res.Resumed, Played: res.Played,
		PlayedPositions: res.Positions, Workers: res.Workers, Seconds: secs,
		PositionsPerSec: float64(res.Positions) / max(secs, 1e-9), AgentSeconds: agents,
		RecordSeconds: perWorker(res.RecordTime), WriterSeconds: res.WriteTime.Seconds(),
		AgentPosPerSec: float64(res.Positions) / max(agents, 1e-9)}
}

// printSelfPlay prints the run's figures.
func printSelfPlay(io *stdio, cfg dataset.Config, res dataset.SelfPlayResult) {
	sum := selfPlayJSON(cfg, res)
	fmt.Fprintf(io.out, "wrote %s: %s, %s in %s, %.1f bytes per position\n", sum.Out, progress.Count(sum.Games, "games"),
		progress.Count(sum.Positions, "positions"), progress.Count(sum.Shards, "shards"), float64(sum.Bytes)/float64(max(sum.Positions, 1)))
	if sum.Resumed > 0 {
		fmt.Fprintf(io.out, "resumed: %s already written, %d played now\n", progress.Count(sum.Resumed, "games"), sum.Played)
	}
	fmt.Fprintf(io.out, "%.0f positions/s over %.2fs with %s; the agents alone: %.0f positions/s\n",
		sum.PositionsPerSec, sum.Seconds, progress.Count(sum.Workers, "workers"), sum.AgentPosPerSec)
	fmt.Fprintf(io.out, "time: agents %.2fs and recording %.2fs per worker; the writer %.2fs (its own goroutine)\n",
		sum.AgentSeconds, sum.RecordSeconds, sum.WriterSeconds)
}

// selfPlayFlagKeys maps the flags of urim selfplay that a self-play config
// file also holds to their config keys.
var selfPlayFlagKeys = map[string]string{
	"agent": "agent", "opponent": "opponent", "games": "games", "out": "out", "encoding": "encoding",
	"shard-size": "shard_size", "seed": "seed", "workers": "workers", "openings": "openings", "rules": "rules",
	"reward": "reward", "games-in-lockstep": "games_in_lockstep",
}
