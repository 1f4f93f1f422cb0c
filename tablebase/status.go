package tablebase

import "fmt"

// Status says what a move is worth from a position with the history it
// has, as far as the table can tell (see [Table.Moves] and the section on
// best moves in docs/tablebase.md).
type Status uint8

const (
	// StatusUnknown: the table cannot tell whether the move keeps the
	// position's lower bound (the child's bounds straddle it).
	StatusUnknown Status = iota
	// StatusBest: the move keeps the value: from this position with this
	// history it makes sure of the most the position is worth, so no move
	// does better in the real game. Only an exact position has best moves.
	StatusBest
	// StatusKeepsBound: the position is not exact; the move makes sure of
	// its lower bound from this position with this history (the most the
	// table can promise), but whether it is best is open.
	StatusKeepsBound
	// StatusMayCycle: by the child's bounds with a fresh history the move
	// keeps the position's lower bound, but with this history the opponent
	// may steer back into a position already played and end the game by
	// repetition, and the table cannot tell whether that costs the move.
	StatusMayCycle
	// StatusWorse: the move gives up value: its upper bound is below the
	// lower bound of the position.
	StatusWorse
)

var statusNames = [...]string{"unknown", "best", "keeps-bound", "may-cycle", "worse"}

// String returns the status's name in JSON: unknown, best, keeps-bound,
// may-cycle or worse.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", s)
}

// Label returns the status as `urim tablebase probe` prints it: "best",
// "keeps the bound", "keeps the bound, may cycle", "worse", or "" for
// unknown.
func (s Status) Label() string {
	switch s {
	case StatusBest:
		return "best"
	case StatusKeepsBound:
		return "keeps the bound"
	case StatusMayCycle:
		return "keeps the bound, may cycle"
	case StatusWorse:
		return "worse"
	}
	return ""
}

// Keeps reports whether a move of this status makes sure of the position's
// lower bound from the position with its history (best or keeps-bound).
func (s Status) Keeps() bool { return s == StatusBest || s == StatusKeepsBound }

// MarshalText writes the status's name.
func (s Status) MarshalText() ([]byte, error) {
	if int(s) >= len(statusNames) {
		return nil, fmt.Errorf("tablebase: no status %d", s)
	}
	return []byte(statusNames[s]), nil
}

// UnmarshalText reads a status's name.
func (s *Status) UnmarshalText(b []byte) error {
	for i, name := range statusNames {
		if string(b) == name {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("tablebase: unknown move status %q (known: %v)", b, statusNames)
}
