package dataset

import (
	"context"
	"fmt"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// moveEvent is one move as the game loop's hook sees it; it mirrors
// agents.MoveEvent, which replaces this loop once the module has it.
type moveEvent struct {
	Before              *env.State
	Player, Ply, Action int
	Search              *agents.SearchInfo
}

// playGame plays from start to the end between players[0] (South) and
// players[1] (North), calling hook with each legal answer before it is
// played, and returns the final state. It has the shape of agents.PlayGame.
func playGame(ctx context.Context, start env.State, players [2]agents.Agent, hook func(moveEvent) error) (env.State, error) {
	for _, a := range players {
		agents.Reset(a)
	}
	s := start
	for !s.Terminal() {
		if err := ctx.Err(); err != nil {
			return s, err
		}
		seat := s.ToMove()
		view := s
		a, err := players[seat].Act(&view)
		if err != nil {
			return s, fmt.Errorf("dataset: seat %d at ply %d: %w", seat, s.Ply(), err)
		}
		if err := s.Check(a); err != nil {
			return s, fmt.Errorf("dataset: seat %d at ply %d (%s): illegal action %d: %w", seat, s.Ply(), s.String(), a, err)
		}
		ev := moveEvent{Before: &s, Player: seat, Ply: s.Ply(), Action: a}
		if sr, ok := players[seat].(agents.Searcher); ok {
			info := sr.LastSearch()
			ev.Search = &info
		}
		if err := hook(ev); err != nil {
			return s, err
		}
		s.Play(a)
	}
	return s, nil
}
