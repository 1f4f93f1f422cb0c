package evaluate

import (
	"errors"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
)

// Test-only agents are players with a factory ([Player.New]), never entries
// in the global agent registry. Their spec strings only name them (and key
// their seeds and stored games):
//
//	test-first      always the lowest legal action
//	test-capture    greedy under a name of its own
//	test-fail:n=5   fails at ply n
//	test-illegal    plays an empty pit when it can
func fake(spec string) (func(seed uint64) (agents.Agent, error), bool) {
	sp, err := agents.ParseSpec(spec)
	if err != nil {
		return nil, false
	}
	switch sp.Name {
	case "test-first":
		return func(uint64) (agents.Agent, error) {
			return agents.Func(func(s *env.State) (int, error) { return s.Legal().Nth(0), nil }), nil
		}, true
	case "test-capture":
		return func(seed uint64) (agents.Agent, error) { return classic.NewGreedy(seed), nil }, true
	case "test-fail":
		n := 5
		if v, ok := sp.Params["n"]; ok {
			n = atoi(v)
		}
		return func(uint64) (agents.Agent, error) {
			return agents.Func(func(s *env.State) (int, error) {
				if s.Ply() >= n {
					return 0, errors.New("test-fail: giving up")
				}
				return s.Legal().Nth(0), nil
			}), nil
		}, true
	case "test-illegal":
		return func(uint64) (agents.Agent, error) {
			return agents.Func(func(s *env.State) (int, error) {
				for a := 0; a < s.Game().PitsPerRow(); a++ {
					if !s.Legal().Has(a) {
						return a, nil
					}
				}
				return s.Legal().Nth(0), nil
			}), nil
		}, true
	}
	return nil, false
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = 10*n + int(c-'0')
	}
	return n
}

// players returns one player per spec, as PlayersFromSpecs does, with a
// factory for the test agents above.
func players(specs ...string) []Player {
	ps := PlayersFromSpecs(specs)
	for i := range ps {
		if build, ok := fake(ps[i].Spec); ok {
			ps[i].New = build
		}
	}
	return ps
}

// player is players for one spec.
func player(spec string) Player { return players(spec)[0] }

// newAgent builds the agent of a spec, test agents included.
func newAgent(spec string, seed uint64) (agents.Agent, error) { return player(spec).build(seed) }
