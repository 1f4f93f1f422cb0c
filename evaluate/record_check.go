package evaluate

import (
	"fmt"
	"slices"

	"github.com/urim-rl/urim/env"
)

// Check replays r under its rules and reports the first way in which the
// record disagrees with the game its moves make: an illegal move, moves after
// the end, a game that did not end, or final stores, match points, reason or
// length other than recorded. A game store runs it on every record it reads,
// so a corrupt or hand-edited file cannot slip wrong results into a rating.
func (r *Record) Check() error {
	var rules env.Rules
	if r.CustomRules != nil {
		rules = *r.CustomRules
	} else {
		p, err := env.PresetRules(r.Rules)
		if err != nil {
			return err
		}
		rules = p
	}
	rules.MaxPlies = r.MaxPlies
	g, err := env.NewGame(rules)
	if err != nil {
		return err
	}
	if len(r.Opening) > len(r.Moves) || !slices.Equal(r.Opening, r.Moves[:len(r.Opening)]) {
		return fmt.Errorf("the opening %v is not the start of the moves", r.Opening)
	}
	s := g.Start()
	for i, a := range r.Moves {
		next, err := s.Apply(a)
		if err != nil {
			return fmt.Errorf("move %d: %w", i, err)
		}
		s = next
	}
	switch {
	case !s.Terminal():
		return fmt.Errorf("the game has not ended after its %d moves", len(r.Moves))
	case r.Plies != len(r.Moves):
		return fmt.Errorf("plies %d, but %d moves", r.Plies, len(r.Moves))
	case s.FinalStores() != r.Stores:
		return fmt.Errorf("stores %v, but the moves end at %v", r.Stores, s.FinalStores())
	case s.MatchPoints() != r.MatchPoints:
		return fmt.Errorf("match points %v, but the moves give %v", r.MatchPoints, s.MatchPoints())
	case s.Reason().String() != r.Reason:
		return fmt.Errorf("reason %q, but the game ends by %s", r.Reason, s.Reason())
	}
	return nil
}
