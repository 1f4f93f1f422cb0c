// Package env is the Urim rules engine and, on top of it, the vectorized
// environment that learning code steps.
//
// # Rules as data
//
// A [Rules] value says which variant is played: pits per row, seeds per pit,
// pit capacity, which counts trigger a capture and which extend it, what a
// grand slam does, whether the game ends on a majority, and an optional ply
// cap. The four presets of RULES.md ([Urim], [Urim7], [Urim4], [Oware]) are
// package-level values found by name with [PresetRules]. [NewGame] validates a
// Rules value and compiles it into a [Game], which is immutable and safe to
// share between goroutines.
//
// # States are values
//
// A [State] is a plain value: assigning it is the clone. It holds the pits,
// the stores, the player to move, the ply count, whether the game has ended
// and why, and the positions seen since the last capture, which the
// repetition rule needs. [State.Play] changes a state in place and allocates
// nothing (the hot path of playouts and search); [State.Apply] returns the
// next state and reports an illegal action as an error (the path for input
// read from outside).
//
// A finished state keeps its board as it was when the game ended;
// [State.FinalStores] adds the seeds left in each row to its owner's store, as
// the rules do at the end of a game, and the result ([State.Winner],
// [State.MatchPoints], [State.Rewards]) is computed from the final stores.
//
// # Indexing
//
// Pits are numbered 0 … 2P-1 in sowing order. Player 0 (South) owns 0 … P-1,
// player 1 (North) owns P … 2P-1. An action is a relative pit index 0 … P-1:
// pit player·P + action.
//
// The rules in prose, with worked examples, are in docs/rules.md.
package env
