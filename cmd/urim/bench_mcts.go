package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

func init() {
	registerBench(&command{
		name:  "mcts",
		usage: "[--rules oware,urim] [--sims 1000] [--c 2] [--threads N] [--moves 300] [--json]",
		short: "MCTS simulations per second per core, against a random-playout baseline",
		long: `Plays games between two MCTS agents (UCT, one random rollout per leaf) with
--sims simulations per move, from the start to the end and again, until --moves
moves have been searched, and reports simulations per second per core. The
defaults are the settings of OpenSpiel's MCTS speed comparison (1000
simulations per move, uct_c 2).

In the same run it plays random games from the start for --baseline, with the
engine's playout loop, and reports the ratio of simulations to playouts per
second: a simulation is a tree descent plus one playout from deeper in the
game, so the ratio shows what the tree costs on a machine whatever its load.
Allocations per simulation come from the Go runtime's counters.

Examples:
  urim bench mcts
  urim bench mcts --rules all --moves 1000 --json
  urim bench mcts --threads 2 --sims 4000`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			rules := fs.String("rules", "oware,urim", "comma-separated rules presets, or all")
			sims := fs.Int("sims", 1000, "simulations per move")
			c := fs.Float64("c", 2, "UCT exploration constant")
			threads := fs.Int("threads", 1, "root-parallel search threads of each agent")
			moves := fs.Int("moves", 300, "moves searched per preset")
			baseline := fs.Duration("baseline", time.Second, "how long to run the random-playout baseline per preset")
			asJSON := fs.Bool("json", false, "print JSON instead of a table")
			quiet := fs.Bool("quiet", false, "no progress bar")
			return func(io *stdio, args []string) error {
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q", args)
				}
				if *sims < 1 || *threads < 1 || *moves < 1 || *c < 0 {
					return usageErrorf("--sims, --threads and --moves must be at least 1, --c at least 0")
				}
				games, err := benchGames(*rules)
				if err != nil {
					return err
				}
				var rows []mctsBench
				for _, g := range games {
					base := benchPlayouts(g, *baseline, 1)
					bar := benchBar(io.err, *quiet, *moves, "mcts "+g.Name(), "moves")
					r, err := benchMCTS(g, *sims, *c, *threads, *moves, bar)
					if err != nil {
						return err
					}
					r.PlayoutsPerSec = base.GamesPerSecPerCore
					r.Ratio = r.SimsPerSecPerCore / base.GamesPerSecPerCore
					rows = append(rows, r)
				}
				if *asJSON {
					return writeJSON(io.out, rows)
				}
				tw := tabwriter.NewWriter(io.out, 0, 0, 2, ' ', tabwriter.AlignRight)
				fmt.Fprintln(tw, "rules\tsims/move\tc\tthreads\tmoves\tseconds\tsims/s per core\tplayouts/s (baseline)\tratio\tallocs/sim\t")
				for _, r := range rows {
					fmt.Fprintf(tw, "%s\t%d\t%g\t%d\t%d\t%.2f\t%.0f\t%.0f\t%.2f\t%.3f\t\n", r.Rules, r.SimsPerMove, r.C, r.Threads,
						r.Moves, r.Seconds, r.SimsPerSecPerCore, r.PlayoutsPerSec, r.Ratio, r.AllocsPerSim)
				}
				return flushWithFooter(tw, io.out)
			}
		},
	})
	registerBench(&command{
		name:  "alphabeta",
		usage: "[--rules oware,urim] [--depth 10] [--tt 20] [--positions 50] [--json]",
		short: "alpha-beta nodes per second, against the engine's moves per second",
		long: `Searches --positions positions of random games (the same ones for a given
--seed) to --depth with a fresh transposition table each, and reports nodes
per second, nodes per search and the time per search. In the same run it
plays random games for --baseline and reports the ratio of nodes to random
moves per second: a node is a copy of the position and a move, plus the
search's bookkeeping.

Examples:
  urim bench alphabeta
  urim bench alphabeta --rules urim --depth 12 --json`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			rules := fs.String("rules", "oware,urim", "comma-separated rules presets, or all")
			depth := fs.Int("depth", 10, "search depth in plies")
			tt := fs.Int("tt", 20, "log2 of the transposition-table entries")
			positions := fs.Int("positions", 50, "positions searched per preset")
			seed := fs.Uint64("seed", 1, "seed of the random games the positions come from")
			baseline := fs.Duration("baseline", time.Second, "how long to run the random-playout baseline per preset")
			asJSON := fs.Bool("json", false, "print JSON instead of a table")
			quiet := fs.Bool("quiet", false, "no progress bar")
			return func(io *stdio, args []string) error {
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q", args)
				}
				if *depth < 1 || *depth > agents.MaxAlphaBetaDepth || *tt < 0 || *tt > 28 || *positions < 1 {
					return usageErrorf("--depth must be 1 to %d, --tt 0 to 28, --positions at least 1", agents.MaxAlphaBetaDepth)
				}
				games, err := benchGames(*rules)
				if err != nil {
					return err
				}
				var rows []alphaBetaBench
				for _, g := range games {
					base := benchPlayouts(g, *baseline, 1)
					bar := benchBar(io.err, *quiet, *positions, "alphabeta "+g.Name(), "positions")
					r := benchAlphaBeta(g, *depth, *tt, *positions, *seed, bar)
					r.MovesPerSec = base.MovesPerSecPerCore
					r.Ratio = r.NodesPerSec / base.MovesPerSecPerCore
					rows = append(rows, r)
				}
				if *asJSON {
					return writeJSON(io.out, rows)
				}
				tw := tabwriter.NewWriter(io.out, 0, 0, 2, ' ', tabwriter.AlignRight)
				fmt.Fprintln(tw, "rules\tdepth\tpositions\tnodes/search\tms/search\tnodes/s\tmoves/s (baseline)\tratio\t")
				for _, r := range rows {
					fmt.Fprintf(tw, "%s\t%d\t%d\t%.0f\t%.2f\t%.0f\t%.0f\t%.2f\t\n", r.Rules, r.Depth, r.Positions,
						r.NodesPerSearch, r.MsPerSearch, r.NodesPerSec, r.MovesPerSec, r.Ratio)
				}
				return flushWithFooter(tw, io.out)
			}
		},
	})
}

// mctsBench is one row of urim bench mcts.
type mctsBench struct {
	Rules             string  `json:"rules"`
	SimsPerMove       int     `json:"sims_per_move"`
	C                 float64 `json:"c"`
	Threads           int     `json:"threads"`
	Moves             int     `json:"moves"`
	Games             int     `json:"games_finished"`
	Sims              int64   `json:"sims"`
	Seconds           float64 `json:"seconds"`
	SimsPerSecPerCore float64 `json:"sims_per_sec_per_core"`
	PlayoutsPerSec    float64 `json:"baseline_playouts_per_sec"`
	Ratio             float64 `json:"ratio_to_baseline"`
	AllocsPerSim      float64 `json:"allocs_per_sim"`
}

// alphaBetaBench is one row of urim bench alphabeta.
type alphaBetaBench struct {
	Rules          string  `json:"rules"`
	Depth          int     `json:"depth"`
	Positions      int     `json:"positions"`
	Nodes          int64   `json:"nodes"`
	Seconds        float64 `json:"seconds"`
	NodesPerSearch float64 `json:"nodes_per_search"`
	MsPerSearch    float64 `json:"ms_per_search"`
	NodesPerSec    float64 `json:"nodes_per_sec"`
	MovesPerSec    float64 `json:"baseline_moves_per_sec"`
	Ratio          float64 `json:"ratio_to_baseline"`
}

// errBenchDone stops a benchmark's game loop once its moves are searched.
var errBenchDone = errors.New("benchmark done")

// benchMCTS plays MCTS against MCTS until moves moves have been searched.
func benchMCTS(g *env.Game, sims int, c float64, threads, moves int, bar *progressbar.ProgressBar) (mctsBench, error) {
	r := mctsBench{Rules: g.Name(), SimsPerMove: sims, C: c, Threads: threads, Moves: moves}
	var players [2]*agents.MCTS
	for i := range players {
		m, err := agents.NewMCTS(agents.MCTSConfig{Sims: sims, C: c, Threads: threads}, uint64(i+1))
		if err != nil {
			return r, err
		}
		players[i] = m
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	searched := 0
	hook := func(agents.MoveEvent) error {
		searched++
		if searched%16 == 0 {
			_ = bar.Set(searched)
		}
		if searched == moves {
			return errBenchDone
		}
		return nil
	}
	for {
		_, err := agents.PlayGame(context.Background(), g.Start(), [2]agents.Agent{players[0], players[1]}, hook)
		if err == errBenchDone {
			break
		}
		if err != nil {
			return r, err
		}
		r.Games++
	}
	r.Seconds = time.Since(start).Seconds()
	runtime.ReadMemStats(&after)
	_ = bar.Finish()
	r.Sims = int64(moves) * int64(sims)
	r.SimsPerSecPerCore = float64(r.Sims) / r.Seconds / float64(threads)
	r.AllocsPerSim = float64(after.Mallocs-before.Mallocs) / float64(r.Sims)
	return r, nil
}

// benchAlphaBeta searches positions of random games with a fresh table each.
func benchAlphaBeta(g *env.Game, depth, tt, positions int, seed uint64, bar *progressbar.ProgressBar) alphaBetaBench {
	r := alphaBetaBench{Rules: g.Name(), Depth: depth, Positions: positions}
	ab := agents.NewAlphaBeta(agents.AlphaBetaConfig{Depth: depth, TTBits: tt})
	rng := rand.New(rand.NewPCG(seed, 0xab))
	var elapsed time.Duration
	for i := 0; i < positions; {
		s := g.Start()
		for n := rng.IntN(80); n > 0 && !s.Terminal(); n-- {
			m := s.Legal()
			s.Play(m.Nth(rng.IntN(m.Count())))
		}
		if s.Terminal() {
			continue
		}
		ab.Reset() // not timed: clearing the table is not searching
		start := time.Now()
		if _, err := ab.Act(&s); err != nil {
			panic(err) // s is ongoing: Act cannot fail
		}
		elapsed += time.Since(start)
		r.Nodes += ab.LastSearch().Nodes
		i++
		_ = bar.Set(i)
	}
	_ = bar.Finish()
	r.Seconds = elapsed.Seconds()
	r.NodesPerSearch = float64(r.Nodes) / float64(positions)
	r.MsPerSearch = 1000 * r.Seconds / float64(positions)
	r.NodesPerSec = float64(r.Nodes) / r.Seconds
	return r
}
