package main

import (
	"flag"

	"github.com/urim-rl/urim/train"
	"github.com/urim-rl/urim/train/cluster"
)

func init() {
	register(&command{
		name:  "worker",
		usage: "--nats URL [--run NAME] [--games-in-lockstep N] [--threads T]",
		short: "play self-play for a distributed training run (NATS JetStream)",
		long: `Joins a training run over NATS JetStream (docs/distributed.md): reads the
run's config from the run, fetches its newest network (and again whenever a
newer one is published), plays lock-step self-play with the run's search
settings and publishes each game the moment it ends as one shard in
the dataset format. Stopped at any moment (Ctrl-C, kill -9) it loses only the
games in progress; started again it rejoins.

Credentials come from the environment: URIM_NATS_USER and
URIM_NATS_PASSWORD, URIM_NATS_TOKEN, or URIM_NATS_CREDS (a .creds file), and
URIM_NATS_CA, URIM_NATS_CERT and URIM_NATS_KEY for TLS. They are never printed.

Examples:
  urim worker --nats nats://learner.example:4222 --run urim
  urim worker --nats nats://nats:4222 --threads 4 --games-in-lockstep 128`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			url := fs.String("nats", "", "the NATS server's URL (required)")
			run := fs.String("run", "", "the run to join (default: the only run on the server)")
			lockstep := fs.Int("games-in-lockstep", 0, "games searched in lock-step (default: the run's selfplay.parallel_games)")
			threads := fs.Int("threads", 0, "threads of the network (0: one per core)")
			id := fs.String("id", "", "the worker's name in the run (default: host, process id and a random suffix)")
			local := fs.Bool("local", false, "exit when the process that started it exits (the learner's local workers)")
			return func(io *stdio, args []string) error {
				args, err := parseInterspersed(fs, args)
				if err != nil {
					return err
				}
				switch {
				case len(args) > 0:
					return usageErrorf("unexpected arguments %q", args)
				case *url == "":
					return usageErrorf("--nats URL is required")
				case *lockstep < 0 || *lockstep > 4096:
					return usageErrorf("--games-in-lockstep %d: allowed 0 to 4096", *lockstep)
				case *threads < 0 || *threads > 1024:
					return usageErrorf("--threads %d: allowed 0 to 1024", *threads)
				}
				return runWorker(io, cluster.WorkerOptions{URL: *url, Run: *run, ID: *id, Lockstep: *lockstep, Threads: *threads, ExitWithParent: *local})
			}
		},
	})
}

// runWorker plays self-play for a run until interrupted, with the
// credentials of the environment, logging to standard error.
func runWorker(io *stdio, o cluster.WorkerOptions) error {
	ctx, stop := interruptible()
	defer stop()
	o.Credentials, o.Log = cluster.CredentialsFrom(train.Cluster{}), io.err
	return cluster.RunWorker(ctx, o)
}
