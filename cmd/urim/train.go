package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/configs"
	"github.com/urim-rl/urim/internal/progress"
	"github.com/urim-rl/urim/train"
	_ "github.com/urim-rl/urim/train/all" // the algorithms
	"github.com/urim-rl/urim/train/cluster"
)

// resumeFlag is --resume (the config's output directory), --resume=DIR or
// --resume DIR (the directory then arrives as an argument).
type resumeFlag struct {
	on  bool
	dir string
}

func (r *resumeFlag) String() string {
	if r == nil || !r.on {
		return ""
	}
	return r.dir
}

// Set takes "true" for a bare --resume, or a run directory.
func (r *resumeFlag) Set(v string) error {
	r.on = true
	if v != "true" {
		r.dir = v
	}
	return nil
}

// IsBoolFlag lets --resume stand alone.
func (r *resumeFlag) IsBoolFlag() bool { return true }

func init() {
	register(&command{
		name:  "train",
		usage: "[--config FILE] [--set key=value ...] [--resume [RUN_DIR]]",
		short: "train an agent by self-play (AlphaZero or PPO) from a YAML config",
		long: `Trains a network by self-play as a YAML config says: AlphaZero by default,
PPO with algorithm: ppo (see docs/config.md; configs/quickstart.yaml runs
300 iterations, or 9 minutes of training if that comes first: about 4
minutes here; without --config, the built-in copy of
configs/quickstart.yaml is used). Everything goes to
the run directory (output: in the config): the effective config.yaml,
metrics.csv with one row per iteration, losses.png, elo.png and speed.png
(one panel per quantity), checkpoints/latest.ckpt, best.ckpt and the
iteration checkpoints that checkpoints.keep_last and keep_every keep,
AlphaZero's replay window (replay/, dataset shards), a sample of self-play
games and every evaluation game.

Each iteration plays games with the lock-step PUCT search, trains on the
replay window (replay.datasets can start it from urim selfplay's output),
saves a checkpoint and, every evaluation.every iterations, rates the network
against the configured opponents (Elo with random at 0, the scale of
configs/bench-classical.yaml). Every file is written atomically and
an iteration is committed at its end, so a run stopped by Ctrl-C (exit
status 130, with the command that continues it) or killed continues from its
last completed iteration with --resume (the config's
output directory) or --resume RUN_DIR (which reads RUN_DIR/config.yaml when
--config is not given). A resumed run must have the same config, but for
stop, checkpoints and workers, which may change.

With cluster: set (or --workers-local N) self-play runs in worker processes
joined through NATS JetStream, on this machine or others (urim worker,
docs/distributed.md), while this process trains on their games.

With algorithm: ppo the network is trained instead by PPO self-play on the
vectorized environment (docs/ppo.md; configs/ppo-quickstart.yaml runs its
150 iterations in 2 to 5 minutes here, by the machine's load, and its time
budget stops it at 8): each iteration collects a rollout from many games at
once, runs the PPO epochs on it, and saves, rates and commits as above.

--set key.path=value overrides any key (repeatable). The checkpoints play as
az:ckpt=RUN/checkpoints/best.ckpt or neural:ckpt=... in urim match and eval.
--rules, --seed, --workers and --out (or --output) are short for --set
rules=... (or rules_file=...), seed=..., workers=... and output=....

Examples:
  urim train
  urim train --config configs/quickstart.yaml
  urim train --config configs/urim.yaml --set stop.time=2h --set workers=2
  urim train --config configs/quickstart.yaml --resume
  urim train --config configs/ppo-quickstart.yaml
  urim match --games 100 az:ckpt=runs/quickstart/checkpoints/best.ckpt,sims=100 greedy`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			var sets setFlags
			var resume resumeFlag
			config := fs.String("config", "", "training config (YAML); default: the built-in configs/quickstart.yaml")
			fs.Var(&sets, "set", "override a key: key.path=value (repeatable)")
			trainShortcuts(fs, &sets)
			fs.Var(&resume, "resume", "continue the run in the output directory (or --resume RUN_DIR)")
			quiet := fs.Bool("quiet", false, "no progress bars")
			fs.Func("workers-local", "self-play in N local worker processes over an embedded NATS server; short for --set cluster.workers=N",
				func(v string) error { sets = append(sets, "cluster.workers="+v); return nil })
			return func(io *stdio, args []string) error {
				args, err := parseInterspersed(fs, args)
				if err != nil {
					return err
				}
				// --resume DIR: a bool-like flag leaves DIR as an argument.
				if resume.on && resume.dir == "" && len(args) == 1 {
					resume.dir, args = args[0], nil
				}
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q", args)
				}
				cfg, err := trainConfig(*config, resume.dir, sets)
				if err != nil {
					return err
				}
				return runTrain(io, cfg, train.Options{Resume: resume.on, Log: io.err, Progress: progress.To(io.err, *quiet)})
			}
		},
	})
}

// trainConfig reads the training config: --config's file, else the run's
// own config.yaml with --resume DIR, else the built-in quickstart.
func trainConfig(file, resumeDir string, sets []string) (cfg train.Config, err error) {
	switch {
	case file != "":
		cfg, err = train.LoadConfig(file, sets)
	case resumeDir != "":
		cfg, err = train.LoadRunConfig(resumeDir, sets)
	default:
		cfg, err = train.ParseConfig(configs.Quickstart, configs.QuickstartName, sets)
	}
	if err == nil && resumeDir != "" {
		cfg.Output = resumeDir
	}
	return cfg, err
}

// runTrain trains cfg, its self-play on local or remote workers when the
// cluster section asks for them, and prints where the best network is.
func runTrain(io *stdio, cfg train.Config, opt train.Options) error {
	ctx, stop := interruptible()
	defer stop()
	defer classic.CloseExternalEngines()
	if cfg.Cluster.Distributed() {
		if err := cfg.Validate(); err != nil {
			return err
		}
		command, err := localWorkerCommand(cfg.Cluster.WorkerThreads)
		if err != nil {
			return err
		}
		l, err := cluster.OpenLearner(ctx, &cfg, cluster.LearnerOptions{Log: io.err, WorkerCommand: command})
		if err != nil {
			return err
		}
		defer l.Close()
		opt.Remote, opt.Evaluation = l, l.Evaluation()
	}
	sum, err := train.Run(ctx, cfg, opt)
	if stoppedBy(ctx, err) {
		return trainInterrupted(io, cfg.Output, sum)
	}
	if err != nil {
		return err
	}
	best := train.CheckpointPath(sum.Dir, sum.Best)
	fmt.Fprintf(io.out, "%s: %s; best network: %s\n", sum.Dir, progress.Count(sum.Iterations, "iterations"), best)
	fmt.Fprintf(io.out, "next: %s\n", nextCommand(cfg.Algorithm, best))
	return nil
}

// localWorkerCommand returns the command line of the local workers of
// cluster.workers: this executable's "urim worker" on the embedded server.
func localWorkerCommand(threads int) (func(i int, url, run string) []string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("urim train: local workers: %w", err)
	}
	t := strconv.Itoa(threads)
	return func(i int, url, run string) []string {
		return []string{exe, "worker", "--nats", url, "--run", run, "--threads", t, "--id", fmt.Sprintf("local-%d", i), "--local"}
	}, nil
}

// trainInterrupted reports a training run stopped by Ctrl-C: its completed
// iterations are committed in the run directory, and --resume continues.
func trainInterrupted(io *stdio, dir string, sum *train.Summary) error {
	i := interruption{cmd: "urim train", resume: "continue with: urim train --resume " + shellQuote(dir)}
	switch {
	case sum == nil:
		i.where, i.saved = "while setting up the run", "nothing was trained yet (anything set up is in "+dir+")"
	case sum.Iterations == 0:
		i.where, i.saved = "during iteration 1", "no iteration was completed (the initial network is in "+dir+")"
	default:
		i.where = fmt.Sprintf("during iteration %d", sum.Iterations+1)
		i.saved = fmt.Sprintf("iterations 1 to %d are saved in %s (checkpoints, metrics.csv; best network %s)",
			sum.Iterations, dir, train.CheckpointPath(dir, sum.Best))
		if sum.Iterations == 1 {
			i.saved = fmt.Sprintf("iteration 1 is saved in %s (checkpoints, metrics.csv; best network %s)", dir, train.CheckpointPath(dir, sum.Best))
		}
	}
	return i.exit(io)
}

// nextCommand is what a finished run suggests: a match of its best network
// against greedy (urim play plays it in person).
func nextCommand(algorithm, best string) string {
	spec := "az:ckpt=" + best + ",sims=100"
	if algorithm == "ppo" {
		spec = "neural:ckpt=" + best
	}
	return fmt.Sprintf("urim match --games 100 %s greedy (or play it: urim play --opponent %s)", shellQuote(spec), shellQuote(spec))
}
