package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/internal/progress"
	"github.com/urim-rl/urim/train/experiment"
)

// gridFlags is --grid, repeatable: key=v1,v2,...
type gridFlags []experiment.Axis

func (g *gridFlags) String() string { return fmt.Sprint(*g) }

func (g *gridFlags) Set(v string) error {
	a, err := experiment.ParseAxis(v)
	if err != nil {
		return err
	}
	*g = append(*g, a)
	return nil
}

// recipeFlags is --recipe, repeatable: name:key=value;key=value
type recipeFlags []experiment.Recipe

func (r *recipeFlags) String() string { return fmt.Sprint(*r) }

func (r *recipeFlags) Set(v string) error {
	rc, err := experiment.ParseRecipe(v)
	if err != nil {
		return err
	}
	*r = append(*r, rc)
	return nil
}

func init() {
	register(&command{
		name:  "sweep",
		usage: "--config BASE.yaml [--grid key=v1,v2 ...] [--recipe name:k=v;k=v ...] [--seeds N] [--budget 20m] --out DIR",
		short: "compare training recipes: a grid of runs, rated together, summarised",
		long: `Runs every combination of the --grid values (each a config key and its
values, as --set takes them) with --seeds seeds each (seed=1, 2, ...), each a
normal training run directory in DIR/runs/CELL/seed-K trained for --budget
(stop.time, no iteration limit: equal training time per cell; 0 keeps the
config's stop). Then every run's final network (checkpoints/latest.ckpt) is
rated as az:ckpt=...,sims=--rate-sims in a round robin with the fixed
--panel (random anchored at 0 Elo), all games in one store
(DIR/ratings/games.jsonl), and the summary is written: DIR/summary.csv (one
row per run), DIR/report.md (the mean Elo and a 95% interval per cell) and
DIR/elo.png (the in-run Elo against training time per cell, mean over the
seeds with their range as a band).

--recipe name:key=value;key=value (repeatable) makes a named cell of several
overrides at once, to compare whole recipes against a base: 'base:' (no
sets) is the base config itself. Recipes cross with the --grid axes when
both are given; the recipe's name names its cells.

A panel saturates once every network beats all of it; so the final networks
are also rated head to head: one round robin of every run's network
(az:ckpt=...,sims=--h2h-sims) against every other and the panel, --h2h-games
per pairing, in DIR/ratings/h2h.jsonl. A cell's head-to-head rating pools its
seeds (their mean in the one fit, with the mean's 95% interval); report.md
gives it per cell, summary.csv per run (h2h_elo, h2h_lo95, h2h_hi95).

The plan is fixed in DIR/sweep.json. Stopped by Ctrl-C or killed, the same
command continues: finished runs are skipped, an interrupted run resumes
from its last iteration, and rating games are reused from the store.
--parallel N trains N runs at once (each with workers = cores / N).
docs/config.md documents the keys; docs/bench/ holds the commands of the
comparisons made with it.

Examples:
  urim sweep --config configs/urim.yaml --grid 'search.root=puct,gumbel' --grid 'search.sims=16,32,64' --seeds 3 --budget 20m --out sweeps/gumbel
  urim sweep --config configs/urim.yaml --recipe base: --recipe 'big:network.width=256;network.depth=6;search.precision=int8' --seeds 2 --budget 10m --out sweeps/big
  urim sweep --config configs/tiny.yaml --grid 'search.root=puct,gumbel' --panel random,greedy --games 4 --rate-sims 8 --out sweeps/tiny`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			var grid gridFlags
			var recipes recipeFlags
			var sets setFlags
			config := fs.String("config", "", "the base training config (YAML), required")
			fs.Var(&grid, "grid", "a grid axis: key=value1,value2 (repeatable)")
			fs.Var(&recipes, "recipe", "a named cell of overrides: name:key=value;key=value (repeatable; 'base:' is the base config)")
			fs.Var(&sets, "set", "override a key in every run: key.path=value (repeatable)")
			seeds := fs.Int("seeds", 1, "runs per cell, seeded 1, 2, ...")
			budget := fs.Duration("budget", 0, "training time of every run (stop.time); 0: the config's stop")
			out := fs.String("out", "", "the sweep's directory, required")
			panel := fs.String("panel", strings.Join(experiment.DefaultPanel, ","), "agent specs the final networks are rated against, comma-separated")
			games := fs.Int("games", 40, "rating games per pairing (even: paired openings)")
			rateSims := fs.Int("rate-sims", 100, "the final networks' simulations per move when rated")
			h2hSims := fs.Int("h2h-sims", 0, "simulations per move in the head-to-head round robin of the final networks (0: --rate-sims)")
			h2hGames := fs.Int("h2h-games", 0, "games per pairing in the head-to-head round robin (0: --games)")
			parallel := fs.Int("parallel", 1, "runs trained at once")
			quiet := fs.Bool("quiet", false, "no progress bars")
			return func(io *stdio, args []string) error {
				args, err := parseInterspersed(fs, args)
				if err != nil {
					return err
				}
				switch {
				case len(args) > 0:
					return usageErrorf("unexpected arguments %q", args)
				case *config == "":
					return usageErrorf("--config BASE.yaml is required")
				case *out == "":
					return usageErrorf("--out DIR is required")
				case *parallel < 1:
					return usageErrorf("--parallel %d: want at least 1", *parallel)
				}
				var specs []string
				for _, s := range strings.Split(*panel, ",") {
					if s = strings.TrimSpace(s); s != "" {
						specs = append(specs, s)
					}
				}
				return runSweep(io, experiment.Config{Base: *config, Sets: sets, Recipes: recipes, Grid: grid, Seeds: *seeds, Budget: *budget, Out: *out,
					Panel: specs, Games: *games, RateSims: *rateSims, H2HSims: *h2hSims, H2HGames: *h2hGames, Parallel: *parallel, Log: io.err,
					Progress: progress.To(io.err, *quiet)})
			}
		},
	})
}

// runSweep trains and rates the sweep's runs (continuing where a stopped
// sweep left off) and prints where its report is.
func runSweep(io *stdio, cfg experiment.Config) error {
	ctx, stop := interruptible()
	defer stop()
	defer classic.CloseExternalEngines()
	_, err := experiment.Run(ctx, cfg)
	if stoppedBy(ctx, err) {
		return interruption{cmd: "urim sweep", where: "", saved: "finished runs, the interrupted run's completed iterations and the rating games are kept in " + cfg.Out,
			resume: "continue with the same command"}.exit(io)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(io.out, "%s: report %s, summary %s, plot %s\n", cfg.Out, filepath.Join(cfg.Out, "report.md"),
		filepath.Join(cfg.Out, "summary.csv"), filepath.Join(cfg.Out, "elo.png"))
	return nil
}
