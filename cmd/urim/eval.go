package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/progress"
	"github.com/urim-rl/urim/train"
	"github.com/urim-rl/urim/train/cluster"
)

func init() {
	register(&command{
		name:  "eval",
		usage: "(--config FILE | --agents A,B,...) [flags]  |  eval sprt [flags] A B",
		short: "run a tournament: Elo with intervals, match-point rates, reports; or an SPRT gate",
		long: `Runs a tournament between agents and prints a Markdown report (JSON with --json):
Elo ratings from a Bradley–Terry fit with standard errors and 95% intervals,
for each pairing the wins, draws, losses and the share of games ending +2 … −2
in match points, and the probability that each agent is stronger than each
other. With --output DIR (or output: in the config) it also writes report.md,
results.json, games.csv (every game) and ratings.png there.

The tournament comes from a YAML config (see configs/README.md and
configs/bench-classical.yaml, whose comments explain every key) or from
--agents, a comma-separated list of specs; a part such as c=1.4 continues the
previous spec's parameters. Every config key has a flag of the same name
(opening_plies is --opening-plies) with the same default, so a config and
the command line give the same tournament; flags given with --config
override its keys. --openings, --out and --gauntlet are short forms of
--opening-plies, --output and --format gauntlet. --rules takes a preset or a
YAML file of custom rules (games under custom rules are stored with them).

With --store FILE (or store: in the config) games are kept in a file: a later
run reuses every stored game it needs, so adding an agent plays only its
games. The games depend only on the seed, never on --workers. Ctrl-C stops
between games and keeps the finished ones in the store.

With --nats URL the games are played by the workers of a distributed run
(urim worker) instead of this process, with the same results; checkpoints the
specs name are sent through the run's object store. A tournament whose
workers die resumes from its --store.

'urim eval sprt A B' runs a sequential probability ratio test instead; see
'urim eval sprt --help'. 'urim eval accuracy' scores an agent against an
endgame table; see 'urim eval accuracy --help'.

Agents:
` + agents.Help() + `
Examples:
  urim eval --agents random,greedy,mcts:sims=200 --games 100
  urim eval --config configs/bench-classical.yaml --output results/classical
  urim eval --agents mcts:sims=400,c=1.0,random --gauntlet --store games.jsonl
  urim eval sprt --elo1 20 mcts:sims=800 mcts:sims=400`,
		sub: func(arg string) bool { return arg == "sprt" || arg == "accuracy" },
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			m := &matchOptions{}
			m.bind(fs, true)
			fc := &m.cfg
			config := fs.String("config", "", "tournament config (YAML)")
			list := fs.String("agents", "", "comma-separated agent specs (instead of --config)")
			fs.Var(formatFlag{&fc.Format}, "format", "tournament `format`: round_robin (every pair meets) or gauntlet (the first agent plays each other)")
			fs.Var(gauntletFlag{&fc.Format}, "gauntlet", "short for --format gauntlet")
			fs.StringVar(&fc.Anchor, "anchor", "", "agent whose rating is fixed (default: random if present, else the first)")
			fs.Float64Var(&fc.AnchorElo, "anchor-elo", 0, "the anchor's rating")
			fs.Float64Var(&fc.PriorDraws, "prior-draws", 0, "virtual draws per pairing in the Elo fit (0: 1, negative: none)")
			fs.StringVar(&fc.Store, "store", "", "game store file: reuse stored games and add new ones")
			fs.StringVar(&fc.Output, "output", "", "directory for report.md, results.json, games.csv and ratings.png")
			fs.StringVar(&fc.Output, "out", "", "short for --output")
			e := &evalArgs{fs: fs, m: m, config: config, list: list,
				asJSON:  fs.Bool("json", false, "print JSON instead of Markdown"),
				natsURL: fs.String("nats", "", "play the games on the workers of a distributed run on this NATS server (docs/distributed.md); credentials from URIM_NATS_*"),
				natsRun: fs.String("run", "", "with --nats: the run whose workers play (default: the only run on the server)")}
			return func(io *stdio, args []string) error {
				switch {
				case len(args) > 0 && args[0] == "accuracy":
					return runChild(io, "urim eval", accuracyCommand, args[1:])
				case len(args) > 0 && args[0] == "sprt":
					return runChild(io, "urim eval", sprtCommand, args[1:])
				case len(args) > 0:
					return usageErrorf("unexpected arguments %q", args)
				}
				cfg, err := e.tournament()
				if err != nil {
					return err
				}
				return runEval(io, cfg, e)
			}
		},
	})
}

// evalArgs are the flags of urim eval, as bound.
type evalArgs struct {
	fs               *flag.FlagSet
	m                *matchOptions
	config, list     *string
	asJSON           *bool
	natsURL, natsRun *string
}

// tournament returns the tournament the flags ask for, from --config (the
// flags given laid over it) or --agents, validated, its rules loaded and its
// outputs checked, before any game is played.
func (e *evalArgs) tournament() (evaluate.Config, error) {
	fs, fc := e.fs, &e.m.cfg
	if flagGiven(fs, "games") {
		// The parity is checked with the config's pairing.
		if err := checkGames(fc.Games, false); err != nil {
			return evaluate.Config{}, err
		}
	}
	var cfg evaluate.Config
	switch {
	case *e.config != "" && *e.list != "":
		return cfg, usageErrorf("give --config or --agents, not both")
	case *e.config != "":
		c, err := evaluate.LoadConfig(*e.config)
		if err != nil {
			return cfg, err
		}
		cfg = c
		// Flags given override the file's keys of the same name.
		if err := overlayFlags(fs, &cfg, fc, evalFlagKeys); err != nil {
			return cfg, err
		}
	case *e.list != "":
		cfg = *fc
		cfg.Agents = evaluate.PlayersFromSpecs(evaluate.SplitSpecs(*e.list))
	default:
		return cfg, usageErrorf("give --config FILE or --agents A,B,...")
	}
	if err := cfg.Validate(); err != nil {
		return cfg, err
	}
	if err := cfg.LoadRules(); err != nil {
		return cfg, err
	}
	if cfg.Output != "" {
		if err := evaluate.CheckWritableDir(cfg.Output); err != nil {
			return cfg, err
		}
	}
	if cfg.Store != "" {
		if err := evaluate.CheckWritableDir(filepath.Dir(cfg.Store)); err != nil {
			return cfg, err
		}
	}
	if *e.natsURL == "" && *e.natsRun != "" {
		return cfg, usageErrorf("--run is for --nats")
	}
	return cfg, nil
}

// runEval plays the tournament (here, or on a distributed run's workers
// with --nats), writes its reports to --output and prints one.
func runEval(io *stdio, cfg evaluate.Config, e *evalArgs) error {
	cfg.Progress = progress.To(io.err, e.m.quiet).Func("tournament", "games")
	ctx, stop := interruptible()
	defer stop()
	defer classic.CloseExternalEngines()
	if *e.natsURL != "" {
		er, err := cluster.OpenEval(ctx, *e.natsURL, cluster.CredentialsFrom(train.Cluster{}), *e.natsRun, 1)
		if err != nil {
			return err
		}
		defer er.Close()
		cfg.Remote = er
	}
	res, err := evaluate.RunTournament(ctx, cfg)
	if err != nil && ctx.Err() != nil {
		return interrupted(io, "urim eval", res, cfg.Store)
	}
	if err != nil {
		return err
	}
	if res.Reused > 0 {
		fmt.Fprintf(io.err, "urim eval: reused %d stored games, played %d\n", res.Reused, res.Played)
	}
	var reportErr error
	if cfg.Output != "" {
		paths, fallback, err := evaluate.SaveReports(cfg.Output, res)
		for _, p := range paths {
			fmt.Fprintf(io.err, "urim eval: wrote %s\n", p)
		}
		if err != nil && fallback != "" {
			fmt.Fprintf(io.err, "urim eval: %v\nurim eval: the results are saved in %s instead\n", err, fallback)
		} else if err != nil {
			fmt.Fprintf(io.err, "urim eval: %v\n", err)
		}
		// The report still goes to standard output, and then the command
		// fails.
		reportErr = err
	}
	if *e.asJSON {
		err = evaluate.WriteJSON(io.out, res)
	} else {
		err = evaluate.WriteMarkdown(io.out, res)
	}
	if err == nil && reportErr != nil {
		return exitCode(1)
	}
	return err
}

// evalFlagKeys maps the flags of urim eval that a tournament config file
// also holds to their config keys (the short forms to the keys they set).
var evalFlagKeys = map[string]string{
	"rules": "rules", "max-plies": "max_plies", "opening-plies": "opening_plies", "openings": "opening_plies",
	"paired": "paired", "seed": "seed", "workers": "workers", "format": "format", "gauntlet": "format",
	"games": "games", "anchor": "anchor", "anchor-elo": "anchor_elo", "prior-draws": "prior_draws",
	"store": "store", "output": "output", "out": "output",
}

// formatFlag is --format.
type formatFlag struct{ f *evaluate.Format }

func (v formatFlag) String() string {
	if v.f == nil {
		return ""
	}
	return string(*v.f)
}

func (v formatFlag) Set(s string) error {
	if f := evaluate.Format(s); f != evaluate.RoundRobin && f != evaluate.Gauntlet {
		return fmt.Errorf("%q is not %s or %s", s, evaluate.RoundRobin, evaluate.Gauntlet)
	}
	*v.f = evaluate.Format(s)
	return nil
}

// gauntletFlag is --gauntlet, short for --format gauntlet.
type gauntletFlag struct{ f *evaluate.Format }

func (v gauntletFlag) String() string   { return "false" }
func (v gauntletFlag) IsBoolFlag() bool { return true }

func (v gauntletFlag) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*v.f = map[bool]evaluate.Format{true: evaluate.Gauntlet, false: evaluate.RoundRobin}[b]
	return nil
}
