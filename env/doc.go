// Package env is the Urim rules engine and, on top of it, the vectorized
// environment that learning code steps.
//
// # Rules as data
//
// A [Rules] value says which variant is played: pits per row, seeds per pit,
// pit capacity, which counts trigger a capture and which extend it, what a
// grand slam does, whether the game ends on a majority, and an optional ply
// cap. The four presets of docs/rules.md ([Urim], [Urim7], [Urim4], [Oware]) are
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
// # Many games at once
//
// [Vec] steps N games of one Game together for learning code: one Step takes
// N actions and rewrites flat, reused buffers of observations (from the
// point of view of the player to move), action masks, rewards, terminated
// and truncated flags. It auto-resets finished games (on the next step, on
// the same step, or not at all), records per-episode statistics, starts games
// after seeded random openings, splits the work over goroutines without
// allocating, and writes batches as .npy files. docs/tensors.md documents
// every column of every encoding.
//
// # Indexing
//
// Pits are numbered 0 … 2P-1 in sowing order. Player 0 (South) owns 0 … P-1,
// player 1 (North) owns P … 2P-1. An action is a relative pit index 0 … P-1:
// pit player·P + action.
//
// The rules in prose, with worked examples, are in docs/rules.md.
package env
