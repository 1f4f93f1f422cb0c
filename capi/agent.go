package capi

import (
	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// Agent is an agent built from a spec string by the agents' registry.
type Agent struct {
	spec string
	a    agents.Agent
}

// NewAgent builds spec with seed, checked for the games of rules ("" for
// urim): a network or table made for other rules is refused here rather
// than at the first move.
func NewAgent(spec, rules string, seed uint64) (*Agent, error) {
	r, err := env.FindRules(orDefault(rules, "urim"))
	if err != nil {
		return nil, err
	}
	g, err := env.NewGame(r)
	if err != nil {
		return nil, err
	}
	if err := agents.ValidateFor(spec, g); err != nil {
		return nil, err
	}
	a, err := agents.New(spec, seed)
	if err != nil {
		return nil, err
	}
	return &Agent{spec: spec, a: a}, nil
}

// Spec returns the spec the agent was built from.
func (a *Agent) Spec() string { return a.spec }

// Act returns the agent's move in gm's position, checked legal.
func (a *Agent) Act(gm *Game) (int, error) {
	if a.a == nil {
		return 0, ErrClosedObject
	}
	s := &gm.s
	if s.Terminal() {
		return 0, Errorf(ErrArg, "capi: act: the game is over (%s)", s.Reason())
	}
	view := *s
	act, err := a.a.Act(&view)
	if err != nil {
		return 0, err
	}
	if err := agents.CheckAction(s, act); err != nil {
		return 0, err
	}
	return act, nil
}

// ActBatch writes into out[i] the agent's move in games[i], one after the
// other on the calling thread.
func (a *Agent) ActBatch(games []*Game, out []int32) error {
	if len(out) != len(games) {
		return Errorf(ErrArg, "capi: act_batch: %d outputs for %d positions", len(out), len(games))
	}
	for i, gm := range games {
		act, err := a.Act(gm)
		if err != nil {
			return Errorf(CodeOf(err), "capi: act_batch: position %d: %w", i, err)
		}
		out[i] = int32(act)
	}
	return nil
}

// Reset tells the agent a new game starts.
func (a *Agent) Reset() { agents.Reset(a.a) }

// Close releases what the agent holds (an external engine, say).
func (a *Agent) Close() error {
	if a.a == nil {
		return nil
	}
	err := agents.Close(a.a)
	a.a = nil
	return err
}

// TimeActs is the Go side of the act_batch benchmark: it builds spec with
// seed and plays it on each position, as ActBatch does, and returns the
// seconds of the process's CPU time the moves took.
func TimeActs(spec, rules string, seed uint64, positions []string) (float64, error) {
	a, err := NewAgent(spec, rules, seed)
	if err != nil {
		return 0, err
	}
	defer a.Close()
	r, _ := env.FindRules(orDefault(rules, "urim"))
	g, err := env.NewGame(r)
	if err != nil {
		return 0, err
	}
	states := make([]env.State, len(positions))
	for i, p := range positions {
		if states[i], err = g.ParsePosition(p); err != nil {
			return 0, err
		}
	}
	start := cpuSeconds()
	for i := range states {
		view := states[i]
		if _, err := a.a.Act(&view); err != nil {
			return 0, err
		}
	}
	return cpuSeconds() - start, nil
}
