package main

import (
	"flag"
	"fmt"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/evaluate"
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
other. With --out DIR (or output: in the config) it also writes report.md,
results.json, games.csv (every game) and ratings.png there.

The tournament comes from a YAML config (see configs/README.md and
configs/bench-classical.yaml, whose comments explain every key) or from
--agents, a comma-separated list of specs; a part such as c=1.4 continues the
previous spec's parameters. Flags given with --config override its keys.

With --store FILE (or store: in the config) games are kept in a file: a later
run reuses every stored game it needs, so adding an agent plays only its
games. The games depend only on the seed, never on --workers. Ctrl-C stops
between games and keeps the finished ones in the store.

'urim eval sprt A B' runs a sequential probability ratio test instead; see
'urim eval sprt --help'. 'urim eval accuracy' scores an agent against an
endgame table; see 'urim eval accuracy --help'.

Agents:
` + agents.Help() + `
Examples:
  urim eval --agents random,greedy,mcts:sims=200 --games 100
  urim eval --config configs/bench-classical.yaml --out results/classical
  urim eval --agents mcts:sims=400,c=1.0,random --gauntlet --store games.jsonl
  urim eval sprt --elo1 20 mcts:sims=800 mcts:sims=400`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			m := &matchOptions{}
			m.bind(fs, true)
			config := fs.String("config", "", "tournament config (YAML)")
			list := fs.String("agents", "", "comma-separated agent specs (instead of --config)")
			gauntlet := fs.Bool("gauntlet", false, "the first agent plays each other; the others do not meet")
			anchor := fs.String("anchor", "", "agent whose rating is fixed (default: random if present, else the first)")
			anchorElo := fs.Float64("anchor-elo", 0, "the anchor's rating")
			store := fs.String("store", "", "game store file: reuse stored games and add new ones")
			out := fs.String("out", "", "directory for report.md, results.json, games.csv and ratings.png")
			asJSON := fs.Bool("json", false, "print JSON instead of Markdown")
			return func(io *stdio, args []string) error {
				if len(args) > 0 && args[0] == "accuracy" {
					if code := runCommand(accuracyCommand, "urim eval accuracy", args[1:], io); code != 0 {
						return exitCode(code)
					}
					return nil
				}
				if len(args) > 0 && args[0] == "sprt" {
					if code := runCommand(sprtCommand, "urim eval sprt", args[1:], io); code != 0 {
						return exitCode(code)
					}
					return nil
				}
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q", args)
				}
				set := map[string]bool{}
				fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
				var cfg evaluate.Config
				switch {
				case *config != "" && *list != "":
					return usageErrorf("give --config or --agents, not both")
				case *config != "":
					c, err := evaluate.LoadConfig(*config)
					if err != nil {
						return err
					}
					cfg = c
				case *list != "":
					cfg.Agents = evaluate.PlayersFromSpecs(evaluate.SplitSpecs(*list))
					set["games"], set["rules"], set["openings"], set["paired"], set["seed"] = true, true, true, true, true
				default:
					return usageErrorf("give --config FILE or --agents A,B,...")
				}
				override := map[string]func(){
					"games":     func() { cfg.Games = m.games },
					"rules":     func() { cfg.Rules = m.rules },
					"max-plies": func() { cfg.MaxPlies = m.maxPlies },
					"openings":  func() { cfg.OpeningPlies = m.openings },
					"paired":    func() { cfg.Paired = m.paired },
					"seed":      func() { cfg.Seed = m.seed },
					"workers":   func() { cfg.Workers = m.workers },
					"gauntlet": func() {
						cfg.Format = map[bool]evaluate.Format{true: evaluate.Gauntlet, false: evaluate.RoundRobin}[*gauntlet]
					},
					"anchor":     func() { cfg.Anchor = *anchor },
					"anchor-elo": func() { cfg.AnchorElo = *anchorElo },
					"store":      func() { cfg.Store = *store },
					"out":        func() { cfg.Output = *out },
				}
				for name, apply := range override {
					if set[name] {
						apply()
					}
				}
				if err := cfg.Validate(); err != nil {
					return err
				}
				if !m.quiet {
					cfg.Progress = evaluate.ProgressBar(io.err, "tournament")
				}
				ctx, stop := interruptible()
				defer stop()
				defer agents.CloseExternalEngines()
				res, err := evaluate.RunTournament(ctx, cfg)
				if err != nil {
					return err
				}
				if res.Reused > 0 {
					fmt.Fprintf(io.err, "urim eval: reused %d stored games, played %d\n", res.Reused, res.Played)
				}
				if cfg.Output != "" {
					paths, err := evaluate.WriteReports(cfg.Output, res)
					if err != nil {
						return err
					}
					for _, p := range paths {
						fmt.Fprintf(io.err, "urim eval: wrote %s\n", p)
					}
				}
				if *asJSON {
					return evaluate.WriteJSON(io.out, res)
				}
				return evaluate.WriteMarkdown(io.out, res)
			}
		},
	})
}
