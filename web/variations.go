package web

import (
	"fmt"
)

// maxVariations bounds the variations and the single analyses of a record.
const maxVariations = 1000

// SingleAnalysis is one position's analysis made on its own (the page's
// "Analyse this position"), kept in the record beside the whole-game
// analysis: Moves lead to the position from the game's start (the main
// line's or a variation's).
type SingleAnalysis struct {
	Moves    []int       `json:"moves"`
	Spec     string      `json:"spec"`
	Unit     string      `json:"unit"`
	Analysis PlyAnalysis `json:"analysis"`
}

// checkLines checks that every variation and every single analysis of a
// record replays under the game of q (the main line's rules and start).
func (s *Server) checkLines(q gameRequest, variations [][]int, singles []SingleAnalysis) error {
	if len(variations)+len(singles) > maxVariations {
		return fmt.Errorf("%w: %d variations and single analyses, at most %d", errBadGame, len(variations)+len(singles), maxVariations)
	}
	for i, v := range variations {
		q.Moves = v
		if _, _, _, err := s.replay(&q); err != nil {
			return fmt.Errorf("variation %d: %w", i, err)
		}
	}
	for i := range singles {
		q.Moves = singles[i].Moves
		if _, _, _, err := s.replay(&q); err != nil {
			return fmt.Errorf("single analysis %d: %w", i, err)
		}
	}
	return nil
}
