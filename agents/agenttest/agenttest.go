// Package agenttest is the conformance suite that every agent's tests run:
// legal moves over many random positions of every preset, an unchanged
// input position, reproducibility from the seed, whole games with Reset
// between them, a consistent search report, and independent agents running
// side by side (for the race detector).
//
// An agent's test calls [Run] with a spec cheap enough to play hundreds of
// moves in a second or two:
//
//	func TestMCTSConformance(t *testing.T) { agenttest.Run(t, "mcts:sims=50") }
package agenttest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
)

// Options sizes the suite. The zero value is the default size.
type Options struct {
	// Positions is the number of random positions per preset on which the
	// agent must play a legal move; 0 means 100 (25 under -short).
	Positions int
	// Games is the number of whole games per preset against a random
	// player; 0 means 2 (1 under -short).
	Games int
	// Presets names the rules presets to play; nil means every preset. An
	// agent tied to one ruleset (a network's) names its own.
	Presets []string
}

func (o Options) withDefaults() Options {
	if o.Positions == 0 {
		o.Positions = 100
		if testing.Short() {
			o.Positions = 25
		}
	}
	if o.Games == 0 {
		o.Games = 2
		if testing.Short() {
			o.Games = 1
		}
	}
	return o
}

// Run runs the suite on the agent built from spec by agents.New, with the
// default size.
func Run(t *testing.T, spec string) {
	t.Helper()
	RunWith(t, spec, Options{})
}

// RunWith runs the suite on the agent built from spec, sized by o.
func RunWith(t *testing.T, spec string, o Options) {
	t.Helper()
	build := func(seed uint64) agents.Agent {
		a, err := agents.New(spec, seed)
		if err != nil {
			t.Fatalf("agents.New(%q): %v", spec, err)
		}
		return a
	}
	RunBuilder(t, build, o)
}

// RunBuilder runs the suite on agents made by build, for agents outside the
// registry.
func RunBuilder(t *testing.T, build func(seed uint64) agents.Agent, o Options) {
	t.Helper()
	o = o.withDefaults()
	presets := o.Presets
	if presets == nil {
		presets = env.PresetNames()
	}
	for _, name := range presets {
		g, err := env.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			t.Run("LegalOnRandomPositions", func(t *testing.T) { legalOnRandomPositions(t, g, build, o.Positions) })
			t.Run("Reproducible", func(t *testing.T) { reproducible(t, g, build) })
			t.Run("WholeGames", func(t *testing.T) { wholeGames(t, g, build, o.Games) })
		})
	}
	t.Run("SideBySide", func(t *testing.T) { sideBySide(t, presets[0], build) })
}

// RandomPositions returns n ongoing positions of g reached by random play
// from the start (so they carry a repetition history), with game lengths
// spread over the whole game. It is deterministic in seed.
func RandomPositions(g *env.Game, n int, seed uint64) []env.State {
	rng := rand.New(rand.NewPCG(seed, 0x61676e74))
	out := make([]env.State, 0, n)
	for len(out) < n {
		s := g.Start()
		stop := rng.IntN(120) // plies before the position is kept; random games last about 100
		for ply := 0; ply < stop && !s.Terminal(); ply++ {
			m := s.Legal()
			s.Play(m.Nth(rng.IntN(m.Count())))
		}
		if !s.Terminal() {
			out = append(out, s)
		}
	}
	return out
}

// act calls [CheckAct] and fails the test on an error.
func act(t *testing.T, a agents.Agent, s *env.State) int {
	t.Helper()
	m, err := CheckAct(a, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// CheckAct calls a.Act(s) and checks the answer: no error, a legal action, s
// left as it was, and for a Searcher a report that agrees with the move (the
// principal variation starts with it and replays legally, visits fall on
// legal actions only).
func CheckAct(a agents.Agent, s *env.State) (int, error) {
	before := *s
	m, err := a.Act(s)
	if err != nil {
		return m, fmt.Errorf("Act(%v): %w", before, err)
	}
	if *s != before {
		return m, fmt.Errorf("Act changed its input position from %v to %v", before, *s)
	}
	if err := agents.CheckAction(s, m); err != nil {
		return m, err
	}
	if sr, ok := a.(agents.Searcher); ok {
		if err := checkSearch(sr.LastSearch(), s, m); err != nil {
			return m, err
		}
	}
	return m, nil
}

// checkSearch checks a search report against the position and the move.
func checkSearch(info agents.SearchInfo, s *env.State, m int) error {
	if len(info.PV) > 0 {
		if info.PV[0] != m {
			return fmt.Errorf("in %v: played %d but the principal variation starts with %d (%v)", s, m, info.PV[0], info.PV)
		}
		u := *s
		for i, a := range info.PV {
			if err := u.Check(a); err != nil {
				return fmt.Errorf("in %v: principal variation %v, move %d: %w", s, info.PV, i, err)
			}
			u.Play(a)
		}
	}
	for a, v := range info.Visits {
		if v < 0 || (v > 0 && !s.Legal().Has(a)) {
			return fmt.Errorf("in %v: %d visits for action %d (legal: %v)", s, v, a, s.Legal().Actions())
		}
	}
	if info.Nodes < 0 || info.Depth < 0 {
		return fmt.Errorf("in %v: negative nodes %d or depth %d", s, info.Nodes, info.Depth)
	}
	return nil
}

func legalOnRandomPositions(t *testing.T, g *env.Game, build func(uint64) agents.Agent, n int) {
	a := build(1)
	defer agents.Close(a)
	for _, s := range RandomPositions(g, n, 7) {
		agents.Reset(a)
		act(t, a, &s)
	}
}

// checked is an agent whose every answer goes through [CheckAct].
type checked struct{ a agents.Agent }

func (c checked) Act(s *env.State) (int, error) { return CheckAct(c.a, s) }

// play plays a whole game of x (as player xSide) against y from the start
// through agents.PlayGame and returns the actions. Every answer is checked
// by CheckAct.
func play(t *testing.T, g *env.Game, x, y agents.Agent, xSide int) []int {
	t.Helper()
	var players [2]agents.Agent
	players[xSide], players[1-xSide] = checked{x}, checked{y}
	var moves []int
	_, err := agents.PlayGame(context.Background(), g.Start(), players, func(ev agents.MoveEvent) error {
		moves = append(moves, ev.Action)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return moves
}

func reproducible(t *testing.T, g *env.Game, build func(uint64) agents.Agent) {
	var games [2][]int
	for i := range games {
		a := build(42)
		games[i] = play(t, g, a, classic.NewRandom(43), 0)
		agents.Close(a)
	}
	if fmt.Sprint(games[0]) != fmt.Sprint(games[1]) {
		t.Fatalf("two agents with seed 42 played different games against the same opponent:\n%v\n%v", games[0], games[1])
	}
}

func wholeGames(t *testing.T, g *env.Game, build func(uint64) agents.Agent, n int) {
	a := build(3)
	defer agents.Close(a)
	for i := range n {
		agents.Reset(a)
		play(t, g, a, classic.NewRandom(uint64(100+i)), i%2)
	}
}

// sideBySide runs two agents at once on their own games; under -race it
// catches state shared between agents.
func sideBySide(t *testing.T, preset string, build func(uint64) agents.Agent) {
	g, err := env.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	positions := RandomPositions(g, 10, 11)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		a := build(uint64(i))
		wg.Go(func() {
			defer agents.Close(a)
			for _, s := range positions {
				if _, err := CheckAct(a, &s); err != nil {
					errs[i] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}
