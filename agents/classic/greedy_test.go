package classic_test

import (
	"testing"

	"github.com/urim-rl/urim/agents/agenttest"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
)

func TestGreedyConformance(t *testing.T) { agenttest.Run(t, "greedy") }

func TestRandomConformance(t *testing.T) { agenttest.Run(t, "random") }

// TestGreedyTakesTheBiggestCapture: South can capture 2 (pit c onto North's
// 1) or 3+2 with a chain (pit f); greedy must take the chain.
func TestGreedyTakesTheBiggestCapture(t *testing.T) {
	g := env.MustGame(env.Urim)
	// South: a=0 b=0 c=1 d=0 e=0 f=2; North (pits 6..11): 1,2,1,9,...
	// f (pit 5, 2 seeds) sows pits 6 and 7: 1→2, 2→3, last in 7 holding 3,
	// chain back to 6 holding 2: captures 5. c (pit 2, 1 seed) sows pit 3,
	// its own row: nothing.
	s := mustParse(t, g, "0,0,1,0,0,2/1,2,1,9,9,9 0-2 S 10")
	for seed := range uint64(20) {
		a, err := classic.NewGreedy(seed).Act(&s)
		if err != nil || a != 5 {
			t.Fatalf("seed %d: greedy played %d (%v), want 5 (the 5-seed chain)", seed, a, err)
		}
	}
}

// TestGreedyBreaksTiesAtRandom: at the start nothing captures, so every
// legal move is a tie and all of them must turn up over a few seeds.
func TestGreedyBreaksTiesAtRandom(t *testing.T) {
	g := env.MustGame(env.Urim)
	s := g.Start()
	seen := map[int]bool{}
	for seed := range uint64(200) {
		a, err := classic.NewGreedy(seed).Act(&s)
		if err != nil {
			t.Fatal(err)
		}
		seen[a] = true
	}
	if len(seen) != g.PitsPerRow() {
		t.Fatalf("greedy chose only %v among %d tied moves over 200 seeds", seen, g.PitsPerRow())
	}
}

func mustParse(t *testing.T, g *env.Game, text string) env.State {
	t.Helper()
	s, err := g.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGreedySpecErrors(t *testing.T) {
	agenttest.SpecError(t, "greedy:depth=2", `unknown parameter depth for agent "greedy" (accepted: none)`)
	agenttest.SpecError(t, "greedyy", `unknown agent "greedyy" (known: `)
}
