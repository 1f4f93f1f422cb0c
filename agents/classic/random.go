package classic

import (
	"math/rand/v2"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

func init() {
	agents.Register("random", "uniform over the legal moves (no parameters)", func(p *agents.Params, seed uint64) (agents.Agent, error) {
		return NewRandom(seed), nil
	})
}

// Random plays a uniformly random legal move.
type Random struct{ rng *rand.Rand }

// NewRandom returns a Random agent seeded with seed.
func NewRandom(seed uint64) *Random {
	return &Random{rng: rand.New(rand.NewPCG(seed, 0x72616e646f6d))}
}

// Act returns a random legal action.
func (r *Random) Act(s *env.State) (int, error) {
	m := s.Legal()
	return m.Nth(r.rng.IntN(m.Count())), nil
}
