package main

import (
	"errors"
	"flag"
	"io"
	"reflect"
	"testing"
	"time"

	"github.com/urim-rl/urim/bench"
	"github.com/urim-rl/urim/env"
)

// parseFlags binds with bind on a fresh flag set and parses args.
func parseFlags(t *testing.T, bind func(*flag.FlagSet), args ...string) {
	t.Helper()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	bind(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
}

// TestBenchEnvFlagsToOptions maps argument lists of urim bench env to the
// options the harness gets, and bad ones to usage errors.
func TestBenchEnvFlagsToOptions(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bench.EnvOptions
	}{
		{nil, bench.EnvOptions{N: []int{64, 1024, 4096, 16384}, Workers: []int{1, 2}, Duration: time.Second}},
		{[]string{"--n", "8, 16", "--workers", "3", "--encoding", "thermometer", "--autoreset", "same_step", "--opening", "6", "--steps", "100"},
			bench.EnvOptions{N: []int{8, 16}, Workers: []int{3}, Encoding: env.EncodingThermometer, AutoReset: env.AutoResetSameStep,
				OpeningPlies: 6, Duration: time.Second, Steps: 100}},
		{[]string{"--duration", "0s", "--steps", "5"}, bench.EnvOptions{N: []int{64, 1024, 4096, 16384}, Workers: []int{1, 2}, Steps: 5}},
	} {
		f := &envBenchFlags{}
		parseFlags(t, f.bind, c.args...)
		got, err := f.options()
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: options %+v (err %v), want %+v", c.args, got, err, c.want)
		}
	}
	for _, args := range [][]string{{"--n", "0"}, {"--n", "a"}, {"--workers", "1,-2"}, {"--encoding", "onehot"},
		{"--autoreset", "never"}, {"--duration", "0s"}, {"--steps", "-1"}, {"--opening", "-1"}} {
		f := &envBenchFlags{}
		parseFlags(t, f.bind, args...)
		if _, err := f.options(); !errors.Is(err, errUsage) {
			t.Errorf("%q: error %v, want a usage error", args, err)
		}
	}
}

func TestBenchSearchFlagsToOptions(t *testing.T) {
	m := &mctsBenchFlags{}
	parseFlags(t, m.bind, "--sims", "50", "--c", "1.5", "--threads", "2", "--moves", "9", "--baseline", "20ms", "--rules", "oware")
	o, err := m.options()
	if want := (bench.MCTSOptions{Sims: 50, C: 1.5, Threads: 2, Moves: 9}); err != nil || !reflect.DeepEqual(o, want) ||
		m.baseline != 20*time.Millisecond || m.rules != "oware" {
		t.Errorf("mcts: %+v %v %q (err %v)", o, m.baseline, m.rules, err)
	}
	m = &mctsBenchFlags{}
	parseFlags(t, m.bind)
	if o, _ := m.options(); !reflect.DeepEqual(o, bench.DefaultMCTSOptions()) {
		t.Errorf("mcts defaults %+v, want %+v", o, bench.DefaultMCTSOptions())
	}
	for _, args := range [][]string{{"--sims", "0"}, {"--threads", "0"}, {"--moves", "0"}, {"--c", "-1"}} {
		m := &mctsBenchFlags{}
		parseFlags(t, m.bind, args...)
		if _, err := m.options(); !errors.Is(err, errUsage) {
			t.Errorf("mcts %q: error %v", args, err)
		}
	}

	a := &alphaBetaBenchFlags{}
	parseFlags(t, a.bind, "--depth", "4", "--tt", "0", "--positions", "3", "--seed", "9")
	if o, err := a.options(); err != nil || !reflect.DeepEqual(o, bench.AlphaBetaOptions{Depth: 4, TTBits: 0, Positions: 3, Seed: 9}) {
		t.Errorf("alphabeta: %+v (err %v)", o, err)
	}
	for _, args := range [][]string{{"--depth", "0"}, {"--tt", "29"}, {"--positions", "0"}} {
		a := &alphaBetaBenchFlags{}
		parseFlags(t, a.bind, args...)
		if _, err := a.options(); !errors.Is(err, errUsage) {
			t.Errorf("alphabeta %q: error %v", args, err)
		}
	}
}
