// Package table holds the tb agent, which plays from an endgame table once
// the board holds few enough seeds and leaves bigger boards to a fallback
// agent. Its kind registers with package agents on import.
package table
