package alphazero

import (
	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/network"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

// EvalSims is the simulations of the evaluation's search at iteration
// it: evaluation.sims, else the self-play schedule's.
func EvalSims(cfg *train.Config, it int) int {
	if cfg.Evaluation.Sims != 0 {
		return cfg.Evaluation.Sims
	}
	return SearchSection.Of(cfg).Sims.At(it, cfg.Stop.Iterations)
}

// EvalPlayer is iteration it's network as the in-run rating and gating
// play it: an az agent named train.PlayerName(it), searching with sims
// simulations and the run's search settings.
func EvalPlayer(cfg *train.Config, reward env.RewardKind, it, sims int, net *nn.Net) evaluate.Player {
	name := train.PlayerName(it)
	mc := searchConfig(cfg, reward, sims)
	return evaluate.Player{Name: name, New: func(seed uint64) (agents.Agent, error) {
		return network.NewAZ(net, name, mc, seed)
	}}
}
