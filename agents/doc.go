// Package agents holds the game-playing agents behind one interface, [Agent],
// and the registry that builds them from spec strings such as "random",
// "greedy", "alphabeta:depth=10" or "mcts:sims=800,c=1.4". The same strings
// are used by every command and every YAML config.
//
// An agent is one method, Act; optional abilities (reporting its search,
// resetting between games, closing an external process) are separate
// interfaces found by type assertion. Every agent is seeded at construction,
// so a game between seeded agents is reproducible.
package agents
