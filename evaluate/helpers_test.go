package evaluate

import (
	"errors"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// Test-only agents, registered under names no real agent uses.
func init() {
	agents.Register("test-first", "test: always the lowest legal action", func(p *agents.Params, seed uint64) (agents.Agent, error) {
		return agents.Func(func(s *env.State) (int, error) { return s.Legal().Nth(0), nil }), nil
	})
	agents.Register("test-capture", "test: greedy under a name of its own", func(p *agents.Params, seed uint64) (agents.Agent, error) {
		return agents.NewGreedy(seed), nil
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
