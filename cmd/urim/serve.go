package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/urim-rl/urim/web"
)

func init() {
	register(&command{
		name:  "serve",
		usage: "[--addr 127.0.0.1:8080] [--data DIR ...] [--runs DIR ...] [--tablebase FILE] [--models DIR ...]",
		short: "a web page to play, watch, replay and analyse games and follow training runs",
		long: `Serves one page, and the JSON API it calls, from this binary (docs/web.md):
play against any agent or watch two, on any preset or rules file; analyse a
position or a whole game with an agent's search and the endgame table; keep
the analysis with the game record; replay the games of datasets, game stores
and games.csv files; follow a training run's metrics while it goes.

It binds 127.0.0.1 unless --addr says otherwise (and warns then). It reads
only the paths given: --data (directories searched for datasets, stores and
games.csv, or such files), --runs (training run directories or directories
of runs), --tablebase (an endgame table) and --models (checkpoints agents
may load). Agents from the page cannot start external engines without
--allow-external, their budgets are capped (--max-sims, --max-depth,
--max-time), and at most --max-jobs searches run at once.

Examples:
  urim serve
  urim serve --data data --runs runs --tablebase tb/urim-k16.tb --models models
  urim serve --addr :8080 --data data     # other machines can connect: read the warning`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			o := &serveOptions{}
			fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
			fs.Var(&o.cfg.Data, "data", "directory or file of games to replay (repeatable)")
			fs.Var(&o.cfg.Runs, "runs", "training run directory, or directory of runs (repeatable)")
			fs.Var(&o.cfg.Models, "models", "directory or file of checkpoints agents may load (repeatable)")
			fs.StringVar(&o.cfg.Tablebase, "tablebase", "", "endgame table file for analysis")
			fs.BoolVar(&o.cfg.AllowExternal, "allow-external", false, "let agent specs from the page start external engines")
			fs.IntVar(&o.cfg.MaxSims, "max-sims", 20000, "cap on the simulations per move of specs from the page")
			fs.IntVar(&o.cfg.MaxDepth, "max-depth", 14, "cap on alpha-beta's depth of specs from the page")
			fs.DurationVar(&o.cfg.MaxTime, "max-time", 10*time.Second, "cap on the time per move of specs from the page")
			fs.IntVar(&o.cfg.MaxJobs, "max-jobs", 2, "searches run at once")
			return func(io *stdio, args []string) error {
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q", args)
				}
				return runServe(io, o, "", nil)
			}
		},
	})
}

type serveOptions struct {
	addr string
	cfg  web.Config
}

// runServe serves until interrupted; page, when set, is the path and query
// printed for the first visit, and open (when set) is called with the URL.
func runServe(io *stdio, o *serveOptions, page string, open func(string)) error {
	o.cfg.LoopbackHosts = web.IsLoopback(o.addr)
	srv, err := web.New(o.cfg)
	if err != nil {
		return usageErrorf("%v", err)
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if !web.IsLoopback(o.addr) {
		fmt.Fprintf(io.err, "urim serve: warning: listening on %s, not only on this machine's loopback: anyone who can reach it can use the page, read the served files and run searches\n", ln.Addr())
	}
	url := "http://" + ln.Addr().String() + "/" + page
	if strings.HasPrefix(ln.Addr().String(), "[::]") || strings.HasPrefix(ln.Addr().String(), "0.0.0.0") {
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		url = "http://127.0.0.1:" + port + "/" + page
	}
	fmt.Fprintf(io.out, "urim serve: %s (Ctrl-C stops)\n", url)
	if open != nil {
		open(url)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := interruptible()
	defer stop()
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
