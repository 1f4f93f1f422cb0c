package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/urim-rl/urim/env"
)

// Helpers shared by the "urim bench" commands.

// benchGames compiles the presets named by a comma-separated --rules.
func benchGames(list string) ([]*env.Game, error) {
	names := strings.Split(list, ",")
	if list == "all" {
		names = env.PresetNames()
	}
	var games []*env.Game
	for _, n := range names {
		g, err := loadGame(strings.TrimSpace(n))
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	return games, nil
}

// benchBar returns a progress bar on w over total items, or a silent one.
func benchBar(w io.Writer, quiet bool, total int, desc, items string) *progressbar.ProgressBar {
	if quiet {
		w = io.Discard
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString(items),
		progressbar.OptionShowIts(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { _, _ = io.WriteString(w, "\n") }),
	)
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

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	var bad *json.UnsupportedValueError
	if errors.As(err, &bad) {
		return fmt.Errorf("a figure is %s: the run was too short to measure it; give it more time", bad.Str)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// flushWithFooter flushes a table and notes the Go version and cores.
func flushWithFooter(tw *tabwriter.Writer, w io.Writer) error {
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s %s/%s, GOMAXPROCS %d\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0))
	return err
}
