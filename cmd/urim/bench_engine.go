package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"runtime"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/urim-rl/urim/env"
)

func init() {
	registerBench(&command{
		name:  "engine",
		usage: "[--rules PRESET|all] [--duration 2s] [--threads N] [--json]",
		short: "random playouts: moves and games per second per core",
		long: `Plays random games from the start to the end with the allocation-free playout
loop and reports moves per second and games per second, per core. With
--threads N, N goroutines play at once and the per-core figures are the totals
divided by N.

Examples:
  urim bench engine
  urim bench engine --rules oware --duration 5s
  urim bench engine --rules all --json`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			rules := fs.String("rules", "all", "rules preset, or all")
			duration := fs.Duration("duration", 2*time.Second, "how long to play each preset")
			threads := fs.Int("threads", 1, "goroutines playing at once")
			asJSON := fs.Bool("json", false, "print JSON instead of a table")
			return func(io *stdio, args []string) error {
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q", args)
				}
				if *threads < 1 {
					return usageErrorf("--threads must be at least 1")
				}
				names := env.PresetNames()
				if *rules != "all" {
					names = []string{*rules}
				}
				var rows []engineBench
				for _, n := range names {
					g, err := loadGame(n)
					if err != nil {
						return err
					}
					fmt.Fprintf(io.err, "bench engine: %s for %s on %d thread(s)...\n", n, *duration, *threads)
					rows = append(rows, benchPlayouts(g, *duration, *threads))
				}
				if *asJSON {
					enc := json.NewEncoder(io.out)
					enc.SetIndent("", "  ")
					return enc.Encode(rows)
				}
				tw := tabwriter.NewWriter(io.out, 0, 0, 2, ' ', tabwriter.AlignRight)
				fmt.Fprintln(tw, "rules\tthreads\tmoves/s per core\tgames/s per core\tmoves/game\tns/move\t")
				for _, r := range rows {
					fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.0f\t%.1f\t%.1f\t\n", r.Rules, r.Threads, r.MovesPerSecPerCore,
						r.GamesPerSecPerCore, r.MovesPerGame, 1e9/r.MovesPerSecPerCore)
				}
				if err := tw.Flush(); err != nil {
					return err
				}
				_, err := fmt.Fprintf(io.out, "\n%s %s/%s, GOMAXPROCS %d\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0))
				return err
			}
		},
	})
}

// engineBench is one row of "urim bench engine".
type engineBench struct {
	Rules              string  `json:"rules"`
	Threads            int     `json:"threads"`
	Seconds            float64 `json:"seconds"`
	Moves              int64   `json:"moves"`
	Games              int64   `json:"games"`
	MovesPerSecPerCore float64 `json:"moves_per_sec_per_core"`
	GamesPerSecPerCore float64 `json:"games_per_sec_per_core"`
	MovesPerGame       float64 `json:"moves_per_game"`
}

// benchPlayouts plays random games on threads goroutines for about d.
func benchPlayouts(g *env.Game, d time.Duration, threads int) engineBench {
	var wg sync.WaitGroup
	moves := make([]int64, threads)
	games := make([]int64, threads)
	start := time.Now()
	deadline := start.Add(d)
	for t := 0; t < threads; t++ {
		wg.Add(1)
		go func(t int) {
			defer wg.Done()
			rng := uint64(0x9E3779B97F4A7C15) + uint64(t)*0xBF58476D1CE4E5B9
			for time.Now().Before(deadline) {
				// Check the clock every 64 games only: it costs more than a move.
				for range 64 {
					s := g.Start()
					moves[t] += int64(env.Playout(&s, &rng))
					games[t]++
				}
			}
		}(t)
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	r := engineBench{Rules: g.Name(), Threads: threads, Seconds: secs}
	for t := range moves {
		r.Moves += moves[t]
		r.Games += games[t]
	}
	r.MovesPerSecPerCore = float64(r.Moves) / secs / float64(threads)
	r.GamesPerSecPerCore = float64(r.Games) / secs / float64(threads)
	r.MovesPerGame = float64(r.Moves) / float64(r.Games)
	return r
}
