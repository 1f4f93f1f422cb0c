package alphazero

import (
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/agents/network"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/tablebase"
	"github.com/urim-rl/urim/train"
)

// LockstepConfig is training's self-play search for cfg: selfplay's
// parallel games, each a PUCT (or Gumbel) tree with the search section's simulations (those of the first iteration),
// exploration constant, leaf batch and root noise, and the per-move policy
// of its playout cap, temperatures and selfplay.resign. It is what a run
// plays with and what `urim bench az` measures by default. Moves.Start is
// left nil: a run starts each game from its opening.
func LockstepConfig(cfg *train.Config, reward env.RewardKind) classic.LockstepConfig {
	return lockstepConfig(cfg, reward, 1)
}

// lockstepConfig is LockstepConfig at iteration it (search.sims may be a
// schedule).
func lockstepConfig(cfg *train.Config, reward env.RewardKind, it int) classic.LockstepConfig {
	sc, sp := SearchSection.Of(cfg), SelfPlaySection.Of(cfg)
	mc := searchConfig(cfg, reward, sc.Sims.At(it, cfg.Stop.Iterations))
	mc.Gumbel.Noise = 1 // self-play samples its moves through the Gumbel noise
	lc := classic.LockstepConfig{
		Games:      min(sp.ParallelGames, sp.GamesPerIteration),
		Search:     mc,
		NoiseAlpha: sc.DirichletAlpha,
		NoiseFrac:  sc.DirichletFraction,
		RootTemp:   sc.RootPolicyTemperature,
		ForcedK:    sc.ForcedPlayouts,
		Moves: classic.SelfPlayPolicy{Temperature: sc.Temperature, TempPlies: sc.TemperaturePlies, FinalTemp: sc.FinalTemperature,
			Resign: classic.Resign{Threshold: sp.Resign.Threshold, Consecutive: sp.Resign.Consecutive, NeverShare: sp.Resign.NeverShare}},
	}
	if b := sc.EndgameBoost; b.Sims > 0 {
		lc.Moves.BoostSims, lc.Moves.BoostMinSeeds, lc.Moves.BoostMaxSeeds = b.Sims, b.MinSeeds, b.MaxSeeds
	}
	if pc := sc.PlayoutCap; pc.Enabled {
		lc.Moves.FastSims, lc.Moves.FullProb = pc.FastSims, pc.FullShare
	}
	return lc
}

// searchConfig is the tree search of the search section with sims
// simulations: PUCT, or Gumbel without noise (the evaluation's).
func searchConfig(cfg *train.Config, reward env.RewardKind, sims int) classic.MCTSConfig {
	sc := SearchSection.Of(cfg)
	mc := classic.MCTSConfig{Sims: sims, C: sc.CPuct, Rule: classic.PUCT, Batch: sc.LeafBatch, Reward: reward}
	if sc.Root == "gumbel" {
		mc.Rule = classic.Gumbel
		mc.NoReuse = true
		mc.Gumbel = classic.GumbelConfig{M: sc.Gumbel.M, CVisit: sc.Gumbel.CVisit, CScale: sc.Gumbel.CScale}
	}
	return mc
}

// Precision is the arithmetic of cfg's self-play forward passes
// (search.precision, checked when the config was read).
func Precision(cfg *train.Config) nn.Precision {
	p, _ := nn.ParsePrecision(SearchSection.Of(cfg).Precision)
	return p
}

// newSearcher returns the lock-step self-play search of iteration it, its
// games starting from open's openings, ending its simulations at the
// positions of table (training.tablebase) when it is not nil.
func newSearcher(s *train.Session, it int, open openings, table *tablebase.Table, seed uint64) (*classic.Lockstep, error) {
	lc := lockstepConfig(s.Config, s.Reward, it)
	lc.Search.Table = table
	lc.Moves.Start = open.start
	ls, err := network.NewLockstep(s.Net.AtPrecision(Precision(s.Config)), lc, s.Threads(), seed)
	if err != nil {
		return nil, train.KeyError("search", err)
	}
	return ls, nil
}
