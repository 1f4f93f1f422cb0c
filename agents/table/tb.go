package table

import (
	"fmt"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/tablebase"
)

func init() {
	agents.Register("tb",
		"endgame table, perfect once the board holds at most K seeds: file=FILE (from 'urim tablebase build'), "+
			"fallback=alphabeta:depth=8 (the agent for bigger boards; quote a spec with commas: fallback='mcts:sims=200,c=1')",
		func(p *agents.Params, seed uint64) (agents.Agent, error) {
			file := p.File("file", "")
			fallback := p.Spec("fallback", "alphabeta:depth=8")
			if file == "" {
				p.Fail("file", "", "the table file (file=FILE)")
			}
			if err := p.Done(); err != nil {
				return nil, err
			}
			t, err := classic.LoadTable(file)
			if err != nil {
				return nil, err
			}
			fb, err := agents.New(fallback, seed)
			if err != nil {
				return nil, fmt.Errorf("tb: fallback: %w", err)
			}
			return &TB{Table: t, Fallback: fb}, nil
		})
}

// TB plays from an endgame table once the board holds at most K seeds, and
// leaves bigger boards to its fallback. In the table it plays the move with
// the best lower bound from the position with its history, the least
// progress rank among those (which is what makes the lower bound a
// guarantee, docs/tablebase.md), then the best upper bound, then the lowest
// action (tablebase.Pick). So from every position entered by a capture
// (how a game enters the table) it ends with at least the lower bound, and
// with the exact value wherever the bounds meet.
type TB struct {
	Table    *tablebase.Table
	Fallback agents.Agent
}

// Act plays the table's move, or the fallback's.
func (a *TB) Act(s *env.State) (int, error) {
	if err := a.Table.CheckGame(s.Game()); err != nil {
		return 0, err
	}
	if s.RowSeeds(0)+s.RowSeeds(1) > a.Table.MaxSeeds() {
		return a.Fallback.Act(s)
	}
	m, ok, err := a.Table.Pick(s)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, agents.NoMove(s)
	}
	return m.Action, nil
}

// Reset resets the fallback.
func (a *TB) Reset() { agents.Reset(a.Fallback) }

// Close closes the fallback.
func (a *TB) Close() error { return agents.Close(a.Fallback) }
