package classic

import (
	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

func init() {
	agents.Register("greedy", "most seeds captured this move, ties at random (no parameters)",
		func(p *agents.Params, seed uint64) (agents.Agent, error) { return NewGreedy(seed), nil })
}

// Greedy plays the move that captures the most seeds now, looking no further:
// it applies each legal move and compares the mover's store. Ties (most often
// between moves that capture nothing) are broken uniformly at random by its
// seeded generator.
type Greedy struct{ rng Xorshift }

// NewGreedy returns a Greedy agent seeded with seed.
func NewGreedy(seed uint64) *Greedy { return &Greedy{rng: NewXorshift(seed)} }

// Act returns a legal action that captures the most seeds.
func (g *Greedy) Act(s *env.State) (int, error) {
	me := s.ToMove()
	best, bestGain, ties := -1, -1, 0
	for m := s.Legal(); m != 0; m &= m - 1 {
		a := m.Nth(0)
		t := *s
		t.Play(a)
		gain := t.Store(me) - s.Store(me)
		switch {
		case gain > bestGain:
			best, bestGain, ties = a, gain, 1
		case gain == bestGain:
			// Reservoir sampling: the k-th tied move replaces the choice
			// with probability 1/k, so every tied move is equally likely.
			ties++
			if g.rng.intn(ties) == 0 {
				best = a
			}
		}
	}
	if best < 0 {
		return 0, agents.NoMove(s)
	}
	return best, nil
}
