package agents

import (
	"github.com/urim-rl/urim/env"
)

// Agent picks a move. Act is called with a position where the player to move
// has at least one legal action and must return one of them. An error means
// the agent could not answer (an external engine died, say), not that the
// position is hard.
//
// Agents keep state (search trees, random generators) and are not safe for
// concurrent use: build one per game or per goroutine with [New].
type Agent interface {
	Act(s *env.State) (int, error)
}

// Func adapts a plain function to the Agent interface.
type Func func(s *env.State) (int, error)

// Act calls f(s).
func (f Func) Act(s *env.State) (int, error) { return f(s) }

// SearchInfo is what a searching agent reports about its last decision.
type SearchInfo struct {
	// Visits counts, per action, the simulations (MCTS) or nothing (0) for
	// agents that do not visit.
	Visits [env.MaxActions]int
	// Value estimates the result for the player who moved, in [-1, 1]
	// (MCTS), or the evaluation in seeds (alpha-beta).
	Value float64
	// PV is the principal variation, starting with the chosen action.
	PV []int
	// Depth is the completed search depth (alpha-beta) or the simulations
	// run (MCTS).
	Depth int
	// Nodes counts positions searched.
	Nodes int64
}

// Searcher is an Agent that reports on its last search.
type Searcher interface {
	Agent
	LastSearch() SearchInfo
}

// Resetter is an Agent that must be told when a new game starts (to drop a
// search tree kept between moves, for instance).
type Resetter interface {
	Reset()
}

// Reset calls a.Reset if a is a Resetter.
func Reset(a Agent) {
	if r, ok := a.(Resetter); ok {
		r.Reset()
	}
}

// Close releases what an agent holds (an external process, say) if it is an
// io.Closer-like agent; other agents need nothing.
func Close(a Agent) error {
	if c, ok := a.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}
