package alphazero

import (
	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/train"
)

// newSearcher returns the lock-step self-play search of an iteration: one
// PUCT tree per parallel game, their leaves evaluated by the network in one
// batch per round. The self-play loop picks the simulations of each move
// (playout-cap randomization) and the temperature itself; the search gets
// the noise and the PUCT settings.
func newSearcher(s *train.Session, seed uint64) (searcher, error) {
	cfg := s.Config
	sc := cfg.Search
	lc := agents.LockstepConfig{
		Games:      min(cfg.SelfPlay.ParallelGames, cfg.SelfPlay.GamesPerIteration),
		Sims:       sc.Sims,
		Leaves:     sc.LeafBatch,
		C:          sc.CPuct,
		NoiseAlpha: sc.DirichletAlpha,
		NoiseFrac:  sc.DirichletFraction,
		Reward:     s.Reward,
	}
	ls, err := agents.NewLockstep(s.Net, lc, s.Threads(), seed)
	if err != nil {
		return nil, train.KeyError("search", err)
	}
	return ls, nil
}
