package env

// PositionRecord is the JSON form of a position, the schema of
// `urim replay` output (one object per line) and of any tool that exports
// positions: the field order is the documented one.
//
// On a terminal position the rows have been emptied into their owners'
// stores, as the rules do at the end, so Stores sums to T, and Reason,
// Winner and MatchPoints are set.
type PositionRecord struct {
	// Game is the 0-based number of the game the position belongs to.
	Game int `json:"game"`
	// Ply counts the moves played so far; Player is the player to move (0
	// South, 1 North).
	Ply    int `json:"ply"`
	Player int `json:"player"`
	// Action is the action that led here; absent at the first position.
	Action *int `json:"action,omitempty"`
	// Pits are the 2P pits in absolute order (South 0..P-1, North P..2P-1).
	Pits   []int  `json:"pits"`
	Stores [2]int `json:"stores"`
	// Legal lists the legal actions of the player to move.
	Legal    []int `json:"legal"`
	Terminal bool  `json:"terminal"`
	// Reason (an EndReason name), Winner (0, 1, or -1 for a draw) and
	// MatchPoints ([South, North]) are set on terminal positions only.
	Reason      string  `json:"reason,omitempty"`
	Winner      *int    `json:"winner,omitempty"`
	MatchPoints *[2]int `json:"match_points,omitempty"`
}

// NewPositionRecord returns the record of s, position of game number game
// reached by action (nil for the first position).
func NewPositionRecord(game int, s *State, action *int) PositionRecord {
	r := PositionRecord{Game: game, Ply: s.Ply(), Player: s.ToMove(), Action: action,
		Pits: s.Pits(), Stores: [2]int{s.Store(0), s.Store(1)}, Legal: s.Legal().Actions(), Terminal: s.Terminal()}
	if s.Terminal() {
		for i := range r.Pits {
			r.Pits[i] = 0
		}
		r.Stores = s.FinalStores()
		winner, mp := s.Winner(), s.MatchPoints()
		r.Reason, r.Winner, r.MatchPoints = s.Reason().String(), &winner, &mp
	}
	return r
}
