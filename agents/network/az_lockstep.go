package network

import (
	"fmt"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
)

// AZLockstep reads spec as an az agent that plays itself and returns the
// lock-step search ([Lockstep], for the self-play driver) of games games
// that searches as that agent does: its network, sims, c, batch (the
// leaves each tree selects per round), reuse, tb, root, m and precision, no root
// Dirichlet noise, and the move played as the agent plays it (the zero
// [SelfPlayPolicy]: the most visited, or the Gumbel search's own). The search is
// seeded with seed, or with the spec's seed= when given, and runs the
// network on one goroutine.
//
// ok is false, with no error, when spec is not an az agent or when it sets
// what the lock-step search has not: a time limit (time=) or root-parallel
// trees (threads= above 1). A bad az spec is an error, as for [New].
func AZLockstep(spec string, games int, seed uint64) (l *classic.Lockstep, ok bool, err error) {
	sp, err := agents.ParseSpec(spec)
	if err != nil {
		return nil, false, err
	}
	if sp.Name != "az" {
		return nil, false, nil
	}
	p := agents.NewParams(sp)
	az, err := parseAZ(p, seed)
	if err != nil {
		return nil, false, err
	}
	if az.cfg.Time > 0 || az.cfg.Threads > 1 {
		return nil, false, nil
	}
	cfg := classic.LockstepConfig{Games: games, Search: az.cfg}
	if cfg.Search.Rule != classic.Gumbel {
		cfg.Search.Rule = classic.PUCT
	}
	cfg.Search.Time, cfg.Search.Threads = 0, 0
	l, err = NewLockstep(az.net.AtPrecision(az.prec), cfg, 1, az.seed)
	if err != nil {
		return nil, false, fmt.Errorf("%w %q: %w", agents.ErrSpec, spec, err)
	}
	return l, true, nil
}
