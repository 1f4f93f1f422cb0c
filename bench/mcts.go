package bench

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
)

// MCTSOptions sizes [MCTS]. Zero Sims, Threads and Moves mean 1000, 1 and
// 300; [DefaultMCTSOptions] adds c = 2, the settings of OpenSpiel's MCTS
// speed comparison.
type MCTSOptions struct {
	Sims    int     // simulations per move
	C       float64 // UCT exploration constant, used as given
	Threads int     // root-parallel search threads of each agent
	Moves   int     // moves searched in all
	// Progress, when set, is called every few moves with the moves searched
	// and Moves.
	Progress func(done, total int)
}

// MCTSResult is one row of `urim bench mcts`. PlayoutsPerSec and Ratio are
// filled by the caller from a [Playouts] baseline run beside it.
type MCTSResult struct {
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

// DefaultMCTSOptions returns the options of OpenSpiel's MCTS speed
// comparison: 1000 simulations per move, c = 2, one thread, 300 moves.
func DefaultMCTSOptions() MCTSOptions { return MCTSOptions{Sims: 1000, C: 2, Threads: 1, Moves: 300} }

func (o MCTSOptions) withDefaults() MCTSOptions {
	if o.Sims == 0 {
		o.Sims = 1000
	}
	o.Threads = max(o.Threads, 1)
	if o.Moves == 0 {
		o.Moves = 300
	}
	return o
}

// errDone stops a benchmark's game loop once its moves are searched.
var errDone = errors.New("bench: done")

// MCTS plays MCTS against MCTS (UCT, one random rollout per leaf) through
// agents.PlayGame, game after game, until o.Moves moves have been searched,
// and reports simulations per second per core and allocations per
// simulation.
func MCTS(g *env.Game, o MCTSOptions) (MCTSResult, error) {
	o = o.withDefaults()
	r := MCTSResult{Rules: g.Name(), SimsPerMove: o.Sims, C: o.C, Threads: o.Threads, Moves: o.Moves}
	var players [2]agents.Agent
	for i := range players {
		m, err := classic.NewMCTS(classic.MCTSConfig{Sims: o.Sims, C: o.C, Threads: o.Threads}, uint64(i+1))
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
		if o.Progress != nil && searched%16 == 0 {
			o.Progress(searched, o.Moves)
		}
		if searched == o.Moves {
			return errDone
		}
		return nil
	}
	for {
		_, err := agents.PlayGame(context.Background(), g.Start(), players, hook)
		if err == errDone {
			break
		}
		if err != nil {
			return r, err
		}
		r.Games++
	}
	r.Seconds = time.Since(start).Seconds()
	runtime.ReadMemStats(&after)
	if o.Progress != nil {
		o.Progress(o.Moves, o.Moves)
	}
	r.Sims = int64(o.Moves) * int64(o.Sims)
	r.SimsPerSecPerCore = float64(r.Sims) / r.Seconds / float64(o.Threads)
	r.AllocsPerSim = float64(after.Mallocs-before.Mallocs) / float64(r.Sims)
	return r, nil
}

// AlphaBetaOptions sizes [AlphaBeta]; zero Depth and Positions mean 10 and
// 50. [DefaultAlphaBetaOptions] adds a table of 2^20 entries.
type AlphaBetaOptions struct {
	Depth     int    // search depth in plies
	TTBits    int    // log2 of the transposition-table entries; 0: no table
	Positions int    // positions searched
	Seed      uint64 // seed of the random games the positions come from
	// Progress, when set, is called after each position with the positions
	// done and Positions.
	Progress func(done, total int)
}

// AlphaBetaResult is one row of `urim bench alphabeta`. MovesPerSec and
// Ratio are filled by the caller from a [Playouts] baseline.
type AlphaBetaResult struct {
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

// DefaultAlphaBetaOptions returns depth 10, 2^20 table entries, 50
// positions from seed 1.
func DefaultAlphaBetaOptions() AlphaBetaOptions {
	return AlphaBetaOptions{Depth: 10, TTBits: 20, Positions: 50, Seed: 1}
}

// AlphaBeta searches positions of random games (the same ones for a given
// seed) with a fresh transposition table each and reports nodes per second;
// only the searches are timed.
func AlphaBeta(g *env.Game, o AlphaBetaOptions) AlphaBetaResult {
	if o.Depth == 0 {
		o.Depth = 10
	}
	if o.Positions == 0 {
		o.Positions = 50
	}
	r := AlphaBetaResult{Rules: g.Name(), Depth: o.Depth, Positions: o.Positions}
	ab := classic.NewAlphaBeta(classic.AlphaBetaConfig{Depth: o.Depth, TTBits: o.TTBits})
	rng := rand.New(rand.NewPCG(o.Seed, 0xab))
	var elapsed time.Duration
	for i := 0; i < o.Positions; {
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
		if o.Progress != nil {
			o.Progress(i, o.Positions)
		}
	}
	r.Seconds = elapsed.Seconds()
	r.NodesPerSearch = float64(r.Nodes) / float64(o.Positions)
	r.MsPerSearch = 1000 * r.Seconds / float64(o.Positions)
	r.NodesPerSec = float64(r.Nodes) / r.Seconds
	return r
}
