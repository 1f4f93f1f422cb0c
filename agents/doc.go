// Package agents holds the interface every game-playing agent implements,
// [Agent], and the registry that builds agents from spec strings such as
// "random", "greedy", "alphabeta:depth=10" or "mcts:sims=800,c=1.4". The
// same strings are used by every command and every YAML config.
//
// An agent is one method, Act; optional abilities (reporting its search,
// resetting between games, closing an external process) are separate
// interfaces found by type assertion. Every agent is seeded at construction,
// so a game between seeded agents is reproducible.
//
// The agents themselves live in packages that register their kinds on
// import: agents/classic (random, greedy, alphabeta, mcts, external),
// agents/network (neural, az) and agents/table (tb). Import agents/all for
// all of them, as a command does; a library that only builds specs it is
// given imports agents alone.
package agents
