package classic

import (
	"errors"
	"sort"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// errNoRoot is returned by RootMoves when the last search was not of the
// position asked about.
var errNoRoot = errors.New("agents: RootMoves: the last search was not of this position")

// RootMoves reports each root move of the last search (the summed
// statistics of the threads' trees): its visits, its mean value for the
// player to move and its most visited line (in the first tree), most
// visited first.
func (m *MCTS) RootMoves(s *env.State) ([]agents.RootMove, error) {
	var visits [env.MaxActions]int
	var value [env.MaxActions]float64
	for _, t := range m.trees {
		if len(t.nodes) == 0 || !t.root.SamePosition(s) {
			return nil, errNoRoot
		}
		t.addRoot(&visits, &value)
	}
	var out []agents.RootMove
	t := m.trees[0]
	for a := range visits {
		if visits[a] == 0 {
			continue
		}
		rm := agents.RootMove{Action: a, Visits: visits[a], Value: value[a] / float64(visits[a])}
		rm.PV = t.line(t.child(0, a), []int{a})
		out = append(out, rm)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Visits > out[j].Visits })
	return out, nil
}

// RootMoves searches each legal move of s to one ply less than the depth
// the last search completed, with a full window, so that every move gets
// its exact depth-limited minimax value (the best of them is the value
// LastSearch reported) and its own principal variation. It shares the
// transposition table with Act and ignores the time limit: the depth
// bounds it. Highest value first.
func (a *AlphaBeta) RootMoves(s *env.State) ([]agents.RootMove, error) {
	if s.Terminal() {
		return nil, nil
	}
	depth := max(1, a.info.Depth)
	a.stopped, a.timed = false, false
	var out []agents.RootMove
	for m := s.Legal(); m != 0; m &= m - 1 {
		act := m.Nth(0)
		child := *s
		child.Play(act)
		v := -a.negamax(&child, depth-1, 1, -infinity, infinity)
		rm := agents.RootMove{Action: act, Value: float64(v), PV: []int{act}}
		for i := 0; i < a.pvLen[1]; i++ {
			rm.PV = append(rm.PV, int(a.pv[1][i]))
		}
		out = append(out, rm)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Value > out[j].Value })
	return out, nil
}

var (
	_ agents.RootReporter = (*MCTS)(nil)
	_ agents.RootReporter = (*AlphaBeta)(nil)
)
