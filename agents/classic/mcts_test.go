package classic_test

import (
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/agenttest"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
)

func TestMCTSConformance(t *testing.T) { agenttest.Run(t, "mcts:sims=60") }

func TestMCTSVariantsConformance(t *testing.T) {
	o := agenttest.Options{Positions: 20, Games: 1}
	for _, spec := range []string{
		"mcts:sims=60,threads=3",
		"mcts:sims=40,cutoff=10,rollouts=2,reward=seed_margin",
		"mcts:sims=40,reuse=false,reward=win_loss",
	} {
		t.Run(spec, func(t *testing.T) { agenttest.RunWith(t, spec, o) })
	}
}

// tactics are positions with one winning capture, found by exhaustive
// search and explained in the comments.
var tactics = []struct {
	text string
	win  int
	why  string
}{
	// South is behind 13-17; f takes North's last two seeds, North cannot
	// move, the game ends and South counts its four row seeds: 19-17.
	{"1,1,1,1,0,1/1,0,0,0,0,0 13-17 S 20", 5, "capture that ends the game 19-17"},
	// f sows 1, 3, 2 into North's first three pits and captures the last
	// two (5 seeds): 20 of 36 is already a majority. Playing e instead lets
	// North's seeds sit and South loses the race.
	{"0,0,0,0,1,3/0,2,1,0,0,0 15-14 S 20", 5, "chain capture to a majority"},
	// North to move: its f (pit 11, 2 seeds) sows South's a (2 → 3) and
	// b (1 → 2), captures b and, by the chain, a: 5 seeds, 20 of 36.
	{"2,1,0,2,0,0/0,0,1,0,0,2 13-15 N 21", 5, "North's chain capture to a majority"},
}

// TestMCTSFindsWinningCaptures: with a large budget, UCT with random
// rollouts must find the one winning capture.
func TestMCTSFindsWinningCaptures(t *testing.T) {
	g := env.MustGame(env.Urim)
	sims := 20000 // large next to the few moves here; 2000 already suffices in practice
	if testing.Short() {
		sims = 4000
	}
	for _, c := range tactics {
		s := mustParse(t, g, c.text)
		checkUniqueWin(t, &s, c.win)
		for seed := range uint64(3) {
			m, err := classic.NewMCTS(classic.MCTSConfig{Sims: sims, C: 1.4}, seed)
			if err != nil {
				t.Fatal(err)
			}
			a, err := m.Act(&s)
			if err != nil || a != c.win {
				t.Fatalf("%s (%s), seed %d: played %d (%v), want %d; search %+v", c.text, c.why, seed, a, err, c.win, m.LastSearch())
			}
		}
	}
}

// checkUniqueWin checks with minimax that win is the only move that wins by
// force within 8 plies, so the position tests what it claims.
func checkUniqueWin(t *testing.T, s *env.State, win int) {
	t.Helper()
	for _, a := range s.Legal().Actions() {
		u := *s
		u.Play(a)
		v := -minimax(&u, 7)
		if (a == win) != (v > classic.WinScore) {
			t.Fatalf("%v: move %d is worth %d by minimax; want only %d to win", s, a, v, win)
		}
	}
}

// TestMCTSReusesTheTree: after the agent's move and the opponent's reply
// the next search starts from the kept subtree, so the root has more visits
// than the new simulations; with reuse=false it has exactly those.
func TestMCTSReusesTheTree(t *testing.T) {
	g := env.MustGame(env.Urim)
	for _, reuse := range []bool{true, false} {
		m, err := classic.NewMCTS(classic.MCTSConfig{Sims: 2000, C: 1.4, NoReuse: !reuse}, 1)
		if err != nil {
			t.Fatal(err)
		}
		s := g.Start()
		a, _ := m.Act(&s)
		s.Play(a)
		s.Play(s.Legal().Nth(0)) // the opponent's reply
		if _, err := m.Act(&s); err != nil {
			t.Fatal(err)
		}
		got := m.LastSearch().Depth // simulations through the root
		if reuse && got <= 2000 {
			t.Errorf("with reuse the root has %d visits, want more than the 2000 new ones", got)
		}
		if !reuse && got != 2000 {
			t.Errorf("without reuse the root has %d visits, want 2000", got)
		}
		// Reset drops the tree.
		m.Reset()
		if _, err := m.Act(&s); err != nil {
			t.Fatal(err)
		}
		if got := m.LastSearch().Depth; got != 2000 {
			t.Errorf("after Reset the root has %d visits, want 2000", got)
		}
	}
}

// TestMCTSReusesTheTreeInSelfPlay: an agent playing both sides is next
// asked about a child of its root, which it keeps too.
func TestMCTSReusesTheTreeInSelfPlay(t *testing.T) {
	g := env.MustGame(env.Oware)
	m, err := classic.NewMCTS(classic.MCTSConfig{Sims: 1000, C: 1.4}, 2)
	if err != nil {
		t.Fatal(err)
	}
	s := g.Start()
	for range 3 {
		a, err := m.Act(&s)
		if err != nil {
			t.Fatal(err)
		}
		s.Play(a)
	}
	if got := m.LastSearch().Depth; got <= 1000 {
		t.Fatalf("root visits %d after self-play moves, want more than the 1000 new ones", got)
	}
}

// TestMCTSThreadsSplitTheBudget: root-parallel trees share the simulation
// budget and the report sums their visits.
func TestMCTSThreadsSplitTheBudget(t *testing.T) {
	g := env.MustGame(env.Oware)
	s := g.Start()
	m, err := agents.New("mcts:sims=1001,threads=4,reuse=false", 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Act(&s); err != nil {
		t.Fatal(err)
	}
	info := m.(agents.Searcher).LastSearch()
	sum := 0
	for _, v := range info.Visits {
		sum += v
	}
	// Each root's first simulation evaluates the root itself, so the
	// children hold one visit per thread fewer than the simulations.
	if info.Depth != 1001 || sum != 1001-4 {
		t.Fatalf("root visits %d, children %d; want 1001 and 997", info.Depth, sum)
	}
}

// marginEvaluator values a position by the store difference and gives a
// uniform prior: no rollouts, so a search with it allocates nothing.
type marginEvaluator struct{}

func (marginEvaluator) Evaluate(s *env.State, prior []float32) float32 {
	for m := s.Legal(); m != 0; m &= m - 1 {
		prior[m.Nth(0)] = 1
	}
	me := s.ToMove()
	return float32(s.Store(me)-s.Store(1-me)) / float32(s.Game().Total())
}

// TestMCTSCustomEvaluatorPUCT drives the search with another evaluator and
// the PUCT rule, as AlphaZero will: it must take the free capture and agree
// with the conformance suite.
func TestMCTSCustomEvaluatorPUCT(t *testing.T) {
	cfg := classic.MCTSConfig{Sims: 200, C: 1.5, Rule: classic.PUCT,
		NewEvaluator: func(uint64) classic.Evaluator { return marginEvaluator{} }}
	build := func(seed uint64) agents.Agent {
		m, err := classic.NewMCTS(cfg, seed)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	agenttest.RunBuilder(t, build, agenttest.Options{Positions: 20, Games: 1})
	g := env.MustGame(env.Urim)
	// f captures 5 (see TestGreedyTakesTheBiggestCapture).
	s := mustParse(t, g, "0,0,1,0,0,2/1,2,1,9,9,9 0-2 S 10")
	if a, err := build(1).Act(&s); err != nil || a != 5 {
		t.Fatalf("played %d (%v), want the capture 5", a, err)
	}
}

// TestMCTSAllocatesNothingPerSimulation: once the arenas have grown, a
// search allocates nothing, with a plain evaluator and with random rollouts.
func TestMCTSAllocatesNothingPerSimulation(t *testing.T) {
	g := env.MustGame(env.Urim)
	s := g.Start()
	for name, eval := range map[string]func(uint64) classic.Evaluator{
		"margin":   func(uint64) classic.Evaluator { return marginEvaluator{} },
		"rollouts": nil, // the default: one random rollout per leaf
	} {
		m, err := classic.NewMCTS(classic.MCTSConfig{Sims: 500, C: 1.4, NoReuse: true, NewEvaluator: eval}, 1)
		if err != nil {
			t.Fatal(err)
		}
		m.Act(&s) // grow the arenas
		if allocs := testing.AllocsPerRun(10, func() { m.Act(&s) }); allocs > 0 {
			t.Errorf("%s: %v allocations per search of 500 simulations, want 0", name, allocs)
		}
	}
}

func TestMCTSSpecErrors(t *testing.T) {
	for spec, want := range map[string]string{
		"mcts:sims=-1":       `sims="-1": want an integer from 0 to`,
		"mcts:sims=0":        `sims="0": want a positive count (sims=0 means no limit and needs time=`,
		"mcts:c=NaN":         `c="NaN": want a number from 0 to 100`,
		"mcts:c=-2":          `c="-2": want a number from 0 to 100`,
		"mcts:reward=points": `reward="points": want match_points, win_loss or seed_margin`,
		"mcts:threads=0":     `threads="0": want an integer from 1 to 256`,
		"mcts:reuse=maybe":   `reuse="maybe": want true or false`,
		"mcts:time=1":        `time="1": want a duration`,
		"mcts:simulations=9": `unknown parameter simulations for agent "mcts" (accepted: c, cutoff, reuse, reward, rollouts, sims, tb, threads, time)`,
	} {
		agenttest.SpecError(t, spec, want)
	}
}

func TestMCTSTimeBudget(t *testing.T) {
	g := env.MustGame(env.Urim)
	s := g.Start()
	m, err := agents.New("mcts:time=30ms", 1)
	if err != nil {
		t.Fatal(err)
	}
	a, err := m.Act(&s)
	if err != nil || !s.Legal().Has(a) {
		t.Fatalf("Act = %d, %v", a, err)
	}
	if sims := m.(agents.Searcher).LastSearch().Depth; sims < 16 {
		t.Fatalf("%d simulations in 30ms, want at least a few dozen", sims)
	}
}

// TestMCTSSimsZero: sims=0 has one meaning, no limit, and so needs a time.
func TestMCTSSimsZero(t *testing.T) {
	for _, spec := range []string{"mcts:sims=0,time=5ms", "mcts:time=5ms"} {
		a, err := agents.New(spec, 1)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		agents.Close(a)
	}
}
