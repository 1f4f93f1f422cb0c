package bench

import (
	"sync"
	"time"

	"github.com/urim-rl/urim/env"
)

// EngineResult is one row of `urim bench engine`: random playouts.
type EngineResult struct {
	Rules              string  `json:"rules"`
	Threads            int     `json:"threads"`
	Seconds            float64 `json:"seconds"`
	Moves              int64   `json:"moves"`
	Games              int64   `json:"games"`
	MovesPerSecPerCore float64 `json:"moves_per_sec_per_core"`
	GamesPerSecPerCore float64 `json:"games_per_sec_per_core"`
	MovesPerGame       float64 `json:"moves_per_game"`
}

// Playouts plays random games from the start with the engine's
// allocation-free playout loop on threads goroutines for about d. It is also
// the baseline the search benchmarks compare themselves with.
func Playouts(g *env.Game, d time.Duration, threads int) EngineResult {
	threads = max(threads, 1)
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
			// At least one round of games, even if the goroutine starts
			// after the deadline (a loaded machine, the race detector):
			// rates over zero games would be NaN or infinite.
			for first := true; first || time.Now().Before(deadline); first = false {
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
	r := EngineResult{Rules: g.Name(), Threads: threads, Seconds: secs}
	for t := range moves {
		r.Moves += moves[t]
		r.Games += games[t]
	}
	r.MovesPerSecPerCore = float64(r.Moves) / secs / float64(threads)
	r.GamesPerSecPerCore = float64(r.Games) / secs / float64(threads)
	r.MovesPerGame = float64(r.Moves) / float64(r.Games)
	return r
}
