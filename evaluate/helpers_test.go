package evaluate

import (
	"errors"
	"math/rand/v2"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// Test-only agents, registered under names no real agent uses.
func init() {
	agents.Register("test-first", "test: always the lowest legal action", func(p *agents.Params, seed uint64) (agents.Agent, error) {
		return agents.Func(func(s *env.State) (int, error) { return s.Legal().Nth(0), nil }), nil
	})
	agents.Register("test-capture", "test: the move that captures most, ties random", func(p *agents.Params, seed uint64) (agents.Agent, error) {
		rng := rand.New(rand.NewPCG(seed, 1))
		return agents.Func(func(s *env.State) (int, error) { return captureMost(s, rng), nil }), nil
	})
	agents.Register("test-fail", "test: fails at ply n", func(p *agents.Params, seed uint64) (agents.Agent, error) {
		n := p.Int("n", 5, 0, 1000)
		return agents.Func(func(s *env.State) (int, error) {
			if s.Ply() >= n {
				return 0, errors.New("test-fail: giving up")
			}
			return s.Legal().Nth(0), nil
		}), nil
	})
	agents.Register("test-illegal", "test: plays an empty pit when it can", func(p *agents.Params, seed uint64) (agents.Agent, error) {
		return agents.Func(func(s *env.State) (int, error) {
			for a := 0; a < s.Game().PitsPerRow(); a++ {
				if !s.Legal().Has(a) {
					return a, nil
				}
			}
			return s.Legal().Nth(0), nil
		}), nil
	})
}

// captureMost returns the legal action whose move gains the mover most seeds
// in its store, ties broken at random.
func captureMost(s *env.State, rng *rand.Rand) int {
	me := s.ToMove()
	best, bestGain, ties := -1, -1, 0
	for _, a := range s.Legal().Actions() {
		t := *s
		t.Play(a)
		gain := t.Store(me) - s.Store(me)
		switch {
		case gain > bestGain:
			best, bestGain, ties = a, gain, 1
		case gain == bestGain:
			ties++
			if rng.IntN(ties) == 0 {
				best = a
			}
		}
	}
	return best
}
