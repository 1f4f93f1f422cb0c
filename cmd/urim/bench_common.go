package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"

	"github.com/urim-rl/urim/bench"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/progress"
)

// Helpers shared by the "urim bench" commands; the harnesses themselves are
// in package bench.

// benchGames compiles the rules of a comma-separated --rules: presets,
// rules files, or all.
func benchGames(list string) ([]*env.Game, error) {
	games, err := bench.Games(list)
	if errors.Is(err, env.ErrUnknownPreset) {
		return nil, usageErrorf("--rules: %v", err)
	}
	return games, err
}

// benchBar returns the progress of a benchmark on w over total items
// (progress.To: a bar on a terminal, plain lines otherwise, none if quiet).
func benchBar(w io.Writer, quiet bool, total int, desc, items string) *progress.Bar {
	return progress.To(w, quiet).Bar(total, desc, items)
}

// barProgress adapts a bar to the harnesses' Progress callbacks.
func barProgress(bar *progress.Bar) func(done, total int) {
	return func(done, total int) {
		bar.Set(done)
		if done >= total {
			bar.Finish()
		}
	}
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
