// Package bench holds urim's speed benchmarks as a library: random playouts
// of the engine ([Playouts]), the vectorized environment ([Env]), MCTS
// ([MCTS]) and alpha-beta ([AlphaBeta]). Each takes the compiled rules and an
// options struct, reports progress through an optional callback, and returns
// result rows whose JSON is what `urim bench … --json` prints; the command
// only parses flags into options and prints rows.
//
// Figures are rates measured in one run. On a shared machine compare ratios
// measured in the same run (the MCTS and alpha-beta rows carry a playout
// baseline for that), never absolute numbers across runs.
package bench
