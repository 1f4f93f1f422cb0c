package agents_test

import (
	"fmt"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)

// An agent is built from a spec string and a seed, then asked for moves.
func ExampleNew() {
	g := env.MustGame(env.Urim)
	// South's f (action 5) sows into North's first two pits, making 2 and
	// 3, and captures both.
	s, _ := g.ParsePosition("0,0,1,0,0,2/1,2,1,9,9,9 0-2 S 10")
	a, err := agents.New("greedy", 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	move, _ := a.Act(&s)
	fmt.Println("greedy plays", move)
	// Output: greedy plays 5
}

// A bad spec is an error that says what is accepted.
func ExampleNew_badSpec() {
	_, err := agents.New("alphabeta:depth=10,width=3", 1)
	fmt.Println(err)
	// Output: agents: bad spec "alphabeta:depth=10,width=3": unknown parameter width for agent "alphabeta" (accepted: depth, tb, time, tt)
}

// Alpha-beta reports its value (in seeds, or WinScore plus the margin for a
// forced win), its principal variation and its depth.
func ExampleAlphaBeta() {
	g := env.MustGame(env.Urim)
	// South is behind 13-17, but f takes North's last two seeds: North
	// cannot move, the game ends and South counts its row, 19-17.
	s, _ := g.ParsePosition("1,1,1,1,0,1/1,0,0,0,0,0 13-17 S 20")
	ab := classic.NewAlphaBeta(classic.AlphaBetaConfig{Depth: 6, TTBits: 16})
	move, _ := ab.Act(&s)
	info := ab.LastSearch()
	fmt.Println("move", move, "value", info.Value, "pv", info.PV, "depth", info.Depth)
	// Output: move 5 value 1002 pv [5] depth 6
}

// MCTS with a simulation budget is reproducible from its seed; the report
// holds the visits of each action and the value of the chosen one for the
// player to move, in [-1, 1].
func ExampleMCTS() {
	g := env.MustGame(env.Urim)
	s, _ := g.ParsePosition("1,1,1,1,0,1/1,0,0,0,0,0 13-17 S 20")
	m, _ := classic.NewMCTS(classic.MCTSConfig{Sims: 2000, C: 1.4}, 7)
	move, _ := m.Act(&s)
	info := m.LastSearch()
	fmt.Printf("move %d, value %.1f, most visits: %v\n", move, info.Value, info.Visits[move] > info.Depth/2)
	// Output: move 5, value 0.5, most visits: true
}

// storeDiff is an evaluator without rollouts: the store difference as a
// value and a uniform prior. A neural network plugs in the same way.
type storeDiff struct{}

func (storeDiff) Evaluate(s *env.State, prior []float32) float32 {
	for m := s.Legal(); m != 0; m &= m - 1 {
		prior[m.Nth(0)] = 1 / float32(s.Legal().Count())
	}
	me := s.ToMove()
	return float32(s.Store(me)-s.Store(1-me)) / float32(s.Game().Total())
}

// MCTS takes any Evaluator; with priors, the PUCT rule is AlphaZero's.
func ExampleEvaluator() {
	g := env.MustGame(env.Urim)
	s, _ := g.ParsePosition("0,0,1,0,0,2/1,2,1,9,9,9 0-2 S 10")
	m, _ := classic.NewMCTS(classic.MCTSConfig{
		Sims: 400, C: 1.5, Rule: classic.PUCT,
		NewEvaluator: func(seed uint64) classic.Evaluator { return storeDiff{} },
	}, 1)
	move, _ := m.Act(&s)
	fmt.Println("plays", move)
	// Output: plays 5
}
