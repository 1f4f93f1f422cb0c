package agents

import (
	"context"
	"errors"
	"fmt"

	"github.com/urim-rl/urim/env"
)

// ErrAgent is wrapped by every error that an agent caused during a game
// played by [PlayGame]: an error from Act, or an illegal action.
var ErrAgent = errors.New("agents: agent failed")

// IllegalActionError reports an agent that answered with an action that
// cannot be played. It wraps the position's reason ([env.ErrIllegal] or
// [env.ErrGameOver]), and its message is the one every caller prints: the
// game loop, the engine server and the conformance suite.
type IllegalActionError struct {
	Action   int    // the action the agent chose
	Position string // the position, in env notation
	Err      error  // why the action cannot be played, from env.State.Check
}

func (e *IllegalActionError) Error() string {
	return fmt.Sprintf("the agent chose illegal action %d in %s: %v", e.Action, e.Position, e.Err)
}

// Unwrap returns the reason from env.State.Check.
func (e *IllegalActionError) Unwrap() error { return e.Err }

// CheckAction returns nil if an agent may answer a in s, or an
// [*IllegalActionError] saying why not.
func CheckAction(s *env.State, a int) error {
	if err := s.Check(a); err != nil {
		return &IllegalActionError{Action: a, Position: s.String(), Err: err}
	}
	return nil
}

// MoveEvent is one move of a game played by [PlayGame], as its hook sees it.
type MoveEvent struct {
	// Before is the position before the move. It belongs to the game loop:
	// the hook may read or copy it but must not keep the pointer past the
	// call.
	Before *env.State
	// Player is the seat that moved (0 South, 1 North), Ply the position's
	// ply count before the move, Action the (legal) action played.
	Player, Ply, Action int
	// Search is the mover's report on this decision when the agent is a
	// [Searcher], nil otherwise. It is the hook's to keep.
	Search *SearchInfo
}

// PlayGame plays the game from start to its end between players[0] (South)
// and players[1] (North) and returns the final state. It is the one loop of a
// game between two agents: tournaments, the terminal game, benchmarks,
// self-play recording and the conformance suite all play through it.
// (Batched self-play, which steps many games at once, has its own: the
// lock-step self-play driver [SelfPlay], which Lockstep.Play, AlphaZero
// training and urim bench az run, and PPO's rollouts on the vectorized
// environment.)
//
// Each [Resetter] agent is reset first. Before every move ctx is checked;
// the agent to move sees a copy of the position, and its answer is checked
// with [CheckAction]. An error from Act or an illegal action stops the game
// with an error wrapping [ErrAgent] that names the seat and the ply. hook,
// when not nil, is called after each legal answer and before the move is
// made; an error from it stops the game and is returned as is. On an error
// the returned state is the position where the game stopped.
func PlayGame(ctx context.Context, start env.State, players [2]Agent, hook func(MoveEvent) error) (env.State, error) {
	for _, a := range players {
		Reset(a)
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
			return s, fmt.Errorf("%w: %s at ply %d: %w", ErrAgent, seatName(seat), s.Ply(), err)
		}
		if err := CheckAction(&s, a); err != nil {
			return s, fmt.Errorf("%w: %s at ply %d: %w", ErrAgent, seatName(seat), s.Ply(), err)
		}
		if hook != nil {
			ev := MoveEvent{Before: &s, Player: seat, Ply: s.Ply(), Action: a}
			if sr, ok := players[seat].(Searcher); ok {
				info := sr.LastSearch() // the hook may keep it
				ev.Search = &info
			}
			if err := hook(ev); err != nil {
				return s, err
			}
		}
		s.Play(a)
	}
	return s, nil
}

func seatName(p int) string { return [2]string{"South", "North"}[p&1] }

// NoMove is the error of an agent asked to move in a finished game.
func NoMove(s *env.State) error {
	return fmt.Errorf("agents: no legal move to choose: the game is over (%s) in %v", s.Reason(), *s)
}
