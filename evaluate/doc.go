// Package evaluate plays agents against each other and measures them: single
// games, tournaments (round robin and gauntlet), Elo ratings with confidence
// intervals, match-point rates, reports, and an SPRT gate.
//
// It is a library first: training calls [RunTournament] or [RunSPRT] every
// few iterations, and the urim command only adds flags and output. Agents are
// named by spec strings ("random", "mcts:sims=800") and built through
// [agents.New]; nothing here knows which agents exist.
//
// # Games and seeds
//
// [Play] plays one game between two agents from an opening and returns a
// [Record]: the agents by seat, the opening, every move, the final stores, the
// match points and why the game ended. A tournament derives every game's seed
// from the tournament seed, the two agents' specs and the game's index
// ([GameSeed]), and every opening from the tournament seed and the opening's
// index, so the games do not depend on the number of workers, on scheduling
// or on which other agents take part. With paired openings each random opening
// is played twice with the seats swapped, which cancels most of the advantage
// an opening gives one side.
//
// # Ratings
//
// [FitElo] is a Bradley–Terry maximum-likelihood fit on the 400-point Elo
// scale: the expected score of i against j is 1/(1+10^((Rj−Ri)/400)), a draw
// counts half a win. One agent is anchored at a chosen rating (random = 0 by
// default); the standard errors come from the inverse of the Fisher
// information with the anchor held fixed, so they are errors relative to the
// anchor. [Ratings.Superiority] gives, for each pair, the probability that one
// is stronger than the other under the fit's normal approximation.
//
// # Match points
//
// Urim scores a game with match points: 2 for a big win, 1 for a win, 0 for a
// draw or a loss. [PairStats] counts, for each pairing, the share of games
// that end +2, +1, 0, −1 and −2 in match-point difference for the row agent,
// its average match points, its wins, draws and losses, and the average game
// length.
//
// # Storing and appending
//
// A [Store] is a file of game records. A tournament with a store plays only
// the games it does not find there, so a later run that adds an agent reuses
// every game of the earlier runs; the file is replaced atomically (a
// temporary file, then a rename) so an interrupted run never leaves it torn.
//
// # SPRT
//
// [SPRT] is the sequential probability ratio test fishtest and Leela Zero use
// to promote an engine or a network: the generalized log-likelihood ratio of
// "A is elo1 stronger than B" against "A is elo0 stronger", computed from the
// trinomial (win, draw, loss) or, with paired openings, the pentanomial counts
// of game pairs; the test stops as soon as the ratio leaves the bounds set by
// the error rates alpha and beta.
package evaluate
