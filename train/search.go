package train

import (
	"runtime"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// newSearch returns the lock-step self-play search of an iteration: one
// PUCT tree per parallel game, their leaves evaluated by the network in one
// batch per round. The self-play loop picks the simulations of each move
// (playout-cap randomization) and the temperature itself; the search gets
// the noise and the PUCT settings.
func newSearch(net *nn.Net, reward env.RewardKind, cfg *Config, seed uint64) (searcher, error) {
	s := cfg.Search
	threads := cfg.Workers
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	lc := agents.LockstepConfig{
		Games:      min(cfg.SelfPlay.ParallelGames, cfg.SelfPlay.GamesPerIteration),
		Sims:       s.Sims,
		Leaves:     s.LeafBatch,
		C:          s.CPuct,
		NoiseAlpha: s.DirichletAlpha,
		NoiseFrac:  s.DirichletFraction,
		Reward:     reward,
	}
	ls, err := agents.NewLockstep(net, lc, threads, seed)
	if err != nil {
		return nil, trainError(&ConfigError{Key: "search", Err: err})
	}
	return ls, nil
}
