package main

import (
	"flag"
	"io"
	"reflect"
	"testing"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/evaluate"
)

// TestOverlayFlagsEval: the flags given replace the file's keys (short forms
// included), the others leave them alone.
func TestOverlayFlagsEval(t *testing.T) {
	file, err := evaluate.ParseConfig([]byte("agents: [random, greedy]\ngames: 4\nseed: 9\nanchor: greedy\noutput: results\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	m := &matchOptions{}
	m.bind(fs, true)
	fc := &m.cfg
	fs.Var(formatFlag{&fc.Format}, "format", "")
	fs.Var(gauntletFlag{&fc.Format}, "gauntlet", "")
	fs.StringVar(&fc.Anchor, "anchor", "", "")
	fs.Float64Var(&fc.PriorDraws, "prior-draws", 0, "")
	fs.StringVar(&fc.Output, "output", "", "")
	fs.StringVar(&fc.Output, "out", "", "")
	if err := fs.Parse([]string{"--games", "6", "--gauntlet", "--openings", "3", "--prior-draws", "0.5", "--out", "o d", "--anchor", ""}); err != nil {
		t.Fatal(err)
	}
	got := file
	if err := overlayFlags(fs, &got, fc, evalFlagKeys); err != nil {
		t.Fatal(err)
	}
	want := file
	want.Games, want.Format, want.OpeningPlies, want.PriorDraws, want.Output, want.Anchor = 6, evaluate.Gauntlet, 3, 0.5, "o d", ""
	if !reflect.DeepEqual(got, want) {
		t.Errorf("overlaid config\n  %+v\nwant\n  %+v", got, want)
	}
}

// TestOverlayFlagsSelfPlay: a spec with ':' and ',' and a number flag.
func TestOverlayFlagsSelfPlay(t *testing.T) {
	file, err := dataset.ParseConfig([]byte("agent: random\nout: d\nopenings: 2\n"), "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c := dataset.DefaultConfig()
	fs := flag.NewFlagSet("selfplay", flag.ContinueOnError)
	fs.StringVar(&c.Agent, "agent", "", "")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "")
	fs.IntVar(&c.Openings, "openings", c.Openings, "")
	if err := fs.Parse([]string{"--agent", "mcts:sims=50,c=1.2", "--seed", "18446744073709551615"}); err != nil {
		t.Fatal(err)
	}
	got := file
	if err := overlayFlags(fs, &got, &c, selfPlayFlagKeys); err != nil {
		t.Fatal(err)
	}
	want := file
	want.Agent, want.Seed = "mcts:sims=50,c=1.2", 1<<64-1
	if !reflect.DeepEqual(got, want) || got.Games != dataset.DefaultGames {
		t.Errorf("overlaid config\n  %+v\nwant\n  %+v", got, want)
	}
}
