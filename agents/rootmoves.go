package agents

import "github.com/urim-rl/urim/env"

// RootMove is one move at the root of a search with the search's own
// figures for it: what an analysis board lists as the engine's top moves,
// each with its value and its line.
type RootMove struct {
	Action int `json:"action"`
	// Visits counts the simulations through the move (MCTS, AlphaZero); 0
	// for a search that does not visit (alpha-beta).
	Visits int `json:"visits"`
	// Value is the move's value for the player to move at the root, in
	// the unit of SearchInfo.Value (a result in [-1, 1], or alpha-beta's
	// seeds).
	Value float64 `json:"value"`
	// PV is the line the search expects after the move, starting with it.
	PV []int `json:"pv"`
}

// RootReporter is a Searcher that reports every move of its last search's
// root. s is the position that search was asked about; RootMoves may search
// further (alpha-beta searches each move to the depth it completed).
// Moves the search never tried are left out; the rest come best first
// (most visited, or highest value).
type RootReporter interface {
	Searcher
	RootMoves(s *env.State) ([]RootMove, error)
}
