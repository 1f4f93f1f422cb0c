package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urim-rl/urim/bench"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
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

// registerBenchmark registers the "urim bench" command c, whose setup is
// left to the one scaffold of every benchmark: bind adds the benchmark's
// own flags and returns its run; the scaffold adds --json and --quiet,
// refuses arguments, and gives the run its progress bars and its writer of
// results (JSON or the table with the footer).
func registerBenchmark(c *command, bind func(fs *flag.FlagSet) func(io *stdio, out *benchOutput) error) {
	c.setup = func(fs *flag.FlagSet) func(*stdio, []string) error {
		run := bind(fs)
		asJSON := fs.Bool("json", false, "print JSON instead of a table")
		quiet := fs.Bool("quiet", false, "no progress bar")
		return func(io *stdio, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unexpected arguments %q", args)
			}
			return run(io, &benchOutput{io: io, json: *asJSON, quiet: *quiet})
		}
	}
	registerBench(c)
}

// benchOutput is where a benchmark's run reports: its progress and its rows.
type benchOutput struct {
	io          *stdio
	json, quiet bool
}

// bar returns a progress bar over total items (progress.To: a bar on a
// terminal, plain lines otherwise, none with --quiet).
func (o *benchOutput) bar(total int, desc, items string) *progress.Bar {
	return progress.To(o.io.err, o.quiet).Bar(total, desc, items)
}

// write prints rows as JSON with --json, else as the table that table
// writes (a header line and a line per row, cells ending in tabs), right
// aligned, with the Go version and cores below.
func (o *benchOutput) write(rows any, table func(tw *tabwriter.Writer)) error {
	if o.json {
		return benchJSON(o.io.out, rows)
	}
	tw := tabwriter.NewWriter(o.io.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	table(tw)
	return flushWithFooter(tw, o.io.out)
}

// benchInts parses a flag's comma-separated list of integers from 1 to
// most.
func benchInts(flagName, list string, most int) ([]int, error) {
	var out []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, usageErrorf("%s: %q is not a positive integer", flagName, f)
		}
		if n > most {
			return nil, usageErrorf("%s: %d is more than %d", flagName, n, most)
		}
		out = append(out, n)
	}
	return out, nil
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

// benchJSON writes a benchmark's rows as the JSON of every --json; a figure
// JSON cannot hold (NaN, infinite) is the error of a run too short.
func benchJSON(w io.Writer, rows any) error {
	err := evaluate.WriteJSON(w, rows)
	var bad *json.UnsupportedValueError
	if errors.As(err, &bad) {
		return fmt.Errorf("a figure is %s: the run was too short to measure it; give it more time", bad.Str)
	}
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
