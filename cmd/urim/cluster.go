package main

import (
	"context"
	"flag"
	"fmt"
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
				creds := cluster.CredentialsFrom(train.Cluster{})
				switch {
				case *url != "" && *runDir != "":
					return usageErrorf("--nats and --run: give one (--run reads the URL from the run)")
				case *runDir != "":
					if *url, creds, err = cluster.RunCredentials(*runDir); err != nil {
						return err
					}
				case *url == "":
					return usageErrorf("--nats URL or --run DIR is required")
				}
				nc, err := cluster.Connect(*url, creds, "urim cluster status")
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
					vs := make([]string, len(r.Versions))
					for i, v := range r.Versions {
						vs[i] = fmt.Sprint(v)
					}
					fmt.Fprintf(io.out, "run %s: network %d (stored: %s); %d shards waiting, %d held by the learner; %d workers\n",
						r.Run, r.Network, strings.Join(vs, " "), r.Backlog, r.Held, len(r.Workers))
					if r.Evaluation {
						fmt.Fprintf(io.out, "  evaluation: %d games waiting, %d being played\n", r.EvalWaiting, r.EvalPlaying)
					}
					if len(r.Workers) == 0 {
						continue
					}
					tw := tabwriter.NewWriter(io.out, 2, 8, 2, ' ', 0)
					fmt.Fprintln(tw, "  worker\thost\tlast seen\tgames\tgames/s\teval games\tnetwork\tbuild")
					for _, w := range r.Workers {
						fmt.Fprintf(tw, "  %s\t%s\t%s ago\t%d\t%.2f\t%d\t%d\t%s\n", w.ID, w.Host, time.Since(w.Seen).Round(time.Second),
							w.Games, w.GamesPerS, w.EvalGames, w.Version, w.Build)
					}
					tw.Flush()
				}
				return nil
			}
		},
	})
}
