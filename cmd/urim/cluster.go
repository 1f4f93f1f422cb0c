package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/urim-rl/urim/train"
	"github.com/urim-rl/urim/train/cluster"
)

func init() {
	register(&command{
		name:  "cluster",
		usage: "status --nats URL | --run DIR",
		short: "show the distributed training runs on a NATS server",
		long: `urim cluster status lists the training runs on a NATS JetStream server
(docs/distributed.md): each run's newest network version and the versions
its object store holds, the shards waiting in its stream and those the
learner holds until its iteration commits, and its workers (last seen, games
played and per second, the network version they play). Credentials come
from the environment, as for urim worker. --run DIR watches a run with
local workers (urim train --workers-local) through its embedded server:
the URL and password are read from DIR/cluster/credentials.json, which
only the run's owner may read.

Examples:
  urim cluster status --nats nats://127.0.0.1:4222
  urim cluster status --run runs/quickstart-workers`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			url := fs.String("nats", "", "the NATS server's URL")
			runDir := fs.String("run", "", "the directory of a run with local workers, whose embedded server to ask (instead of --nats)")
			return func(io *stdio, args []string) error {
				args, err := parseInterspersed(fs, args)
				if err != nil {
					return err
				}
				if len(args) != 1 || args[0] != "status" {
					return usageErrorf("want: urim cluster status --nats URL, or --run DIR")
				}
				server, creds, err := clusterServer(*url, *runDir)
				if err != nil {
					return err
				}
				return runClusterStatus(io, server, creds)
			}
		},
	})
}

// clusterServer returns the server that --nats names, with the credentials
// of the environment, or that of the run directory --run, with the run's.
func clusterServer(url, runDir string) (string, cluster.Credentials, error) {
	switch {
	case url != "" && runDir != "":
		return "", cluster.Credentials{}, usageErrorf("--nats and --run: give one (--run reads the URL from the run)")
	case runDir != "":
		return cluster.RunCredentials(runDir)
	case url == "":
		return "", cluster.Credentials{}, usageErrorf("--nats URL or --run DIR is required")
	}
	return url, cluster.CredentialsFrom(train.Cluster{}), nil
}

// runClusterStatus prints the runs on the server at url: each run's
// networks, shards and workers.
func runClusterStatus(io *stdio, url string, creds cluster.Credentials) error {
	nc, err := cluster.Connect(url, creds, "urim cluster status")
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	runs, err := cluster.Status(ctx, js)
	if err != nil {
		return err
	}
	if len(runs) == 0 {
		fmt.Fprintf(io.out, "no runs on %s\n", nc.ConnectedUrlRedacted())
	}
	for _, r := range runs {
		printRunStatus(io.out, r)
	}
	return nil
}

// printRunStatus prints one run's line, its evaluation's and a table of its
// workers.
func printRunStatus(w io.Writer, r cluster.RunStatus) {
	vs := make([]string, len(r.Versions))
	for i, v := range r.Versions {
		vs[i] = fmt.Sprint(v)
	}
	fmt.Fprintf(w, "run %s: network %d (stored: %s); %d shards waiting, %d held by the learner; %d workers\n",
		r.Run, r.Network, strings.Join(vs, " "), r.Backlog, r.Held, len(r.Workers))
	if r.Evaluation {
		fmt.Fprintf(w, "  evaluation: %d games waiting, %d being played\n", r.EvalWaiting, r.EvalPlaying)
	}
	if len(r.Workers) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "  worker\thost\tlast seen\tgames\tgames/s\teval games\tnetwork\tbuild")
	for _, wk := range r.Workers {
		fmt.Fprintf(tw, "  %s\t%s\t%s ago\t%d\t%.2f\t%d\t%d\t%s\n", wk.ID, wk.Host, time.Since(wk.Seen).Round(time.Second),
			wk.Games, wk.GamesPerS, wk.EvalGames, wk.Version, wk.Build)
	}
	tw.Flush()
}
