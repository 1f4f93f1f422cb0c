package alphazero

import (
	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/train"
)

// LockstepConfig is training's self-play search for cfg: selfplay's
// parallel games, each a PUCT tree with the search section's simulations,
// exploration constant, leaf batch and root noise, and the per-move policy
// of its playout cap, temperatures and selfplay.resign. It is what a run
// plays with and what `urim bench az` measures by default. Moves.Start is
// left nil: a run starts each game from its opening.
func LockstepConfig(cfg *train.Config, reward env.RewardKind) agents.LockstepConfig {
	sc, sp := cfg.Search, cfg.SelfPlay
	lc := agents.LockstepConfig{
		Games:      min(sp.ParallelGames, sp.GamesPerIteration),
		Search:     agents.MCTSConfig{Sims: sc.Sims, C: sc.CPuct, Rule: agents.PUCT, Batch: sc.LeafBatch, Reward: reward},
		NoiseAlpha: sc.DirichletAlpha,
		NoiseFrac:  sc.DirichletFraction,
		Moves: agents.SelfPlayPolicy{Temperature: sc.Temperature, TempPlies: sc.TemperaturePlies, FinalTemp: sc.FinalTemperature,
			Resign: agents.Resign{Threshold: sp.Resign.Threshold, Consecutive: sp.Resign.Consecutive, NeverShare: sp.Resign.NeverShare}},
	}
	if pc := sc.PlayoutCap; pc.Enabled {
		lc.Moves.FastSims, lc.Moves.FullProb = pc.FastSims, pc.FullShare
	}
	return lc
}

// newSearcher returns the lock-step self-play search of an iteration, its
// games starting from open's openings.
func newSearcher(s *train.Session, open openings, seed uint64) (*agents.Lockstep, error) {
	lc := LockstepConfig(s.Config, s.Reward)
	lc.Moves.Start = open.start
	ls, err := agents.NewLockstep(s.Net, lc, s.Threads(), seed)
	if err != nil {
		return nil, train.KeyError("search", err)
	}
	return ls, nil
}
