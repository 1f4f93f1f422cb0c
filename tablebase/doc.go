// Package tablebase solves Urim endgames by retrograde analysis: for every
// board with at most K seeds (any distribution over the 2P pits, either
// player to move) it stores bounds on the seeds, of those on the board, that
// the player to move ends with under perfect play, and a progress rank that
// lets an agent make sure of its bound.
//
// The repetition ending makes a position's value depend on the positions
// played since the last capture, so no table of positions can be exact
// everywhere. [Build] runs two coupled analyses instead, one in which a
// repetition gives every seed on the board to the player to move at the
// position the table describes and one in which it gives them all to the
// opponent; with a fresh history (right after a capture, which is how a game
// enters the table) the true value lies between them, and is exact where
// they meet. docs/tablebase.md proves it, explains the majority ending of
// oware (which makes the stores matter) and the file format.
//
// Boards are indexed by a perfect combinatorial ranking of seed
// distributions, in the mover's frame (the player to move owns pits
// 0 … P-1), so one entry serves both players. A [Table] is loaded with one
// read ([Load]), checked whole (format, rules, sizes, CRC-32C), and probed
// with env States ([Table.Probe], [Table.Moves]).
package tablebase
