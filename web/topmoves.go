package web

import (
	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// maxRootLines bounds the top moves an analysis lists.
const maxRootLines = 8

// RootLine is one of the engine's top moves at a position: its value for
// the player to move (in the analysis' unit, and on [-1, 1] as Norm), the
// simulations through it (MCTS, AlphaZero) and the line the search expects
// after it, starting with it.
type RootLine struct {
	Action int     `json:"action"`
	Visits int     `json:"visits,omitempty"`
	Value  float64 `json:"value"`
	Norm   float64 `json:"norm"`
	PV     []int   `json:"pv"`
}

// rootLines asks the analyser's search for its root moves (nil for a
// search that does not report them).
func rootLines(an *analyser, st *env.State) ([]RootLine, error) {
	rr, ok := an.a.(agents.RootReporter)
	if !ok || st.Terminal() {
		return nil, nil
	}
	moves, err := rr.RootMoves(st)
	if err != nil {
		return nil, err
	}
	total := st.Game().Total()
	out := make([]RootLine, 0, min(len(moves), maxRootLines))
	for _, m := range moves[:min(len(moves), maxRootLines)] {
		out = append(out, RootLine{Action: m.Action, Visits: m.Visits, Value: m.Value, Norm: norm(m.Value, an.unit, total), PV: m.PV})
	}
	return out, nil
}
