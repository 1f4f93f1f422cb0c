package alphazero

import (
	"fmt"
	"strconv"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/network"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

// NetworkAgent names, in an evaluation player's Remote spec, a network
// of the run as the run's evaluation plays it:
// run-network:ckpt=FILE,iter=N,sims=S. Only a worker of the run builds
// it ([EvalPlayer], with the run's search settings); it is no agent of
// the registry.
const NetworkAgent = "run-network"

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

// NetworkSpec is the Remote spec of iteration it's network, saved at
// path, searching with sims simulations.
func NetworkSpec(path string, it, sims int) string {
	return agents.Spec{Name: NetworkAgent, Params: map[string]string{"ckpt": path, "iter": strconv.Itoa(it), "sims": strconv.Itoa(sims)}}.Canonical()
}

// NetworkOf is what a NetworkSpec names.
type NetworkOf struct {
	Path       string
	Iter, Sims int
}

// ParseNetworkSpec returns what a NetworkSpec names; ok is false for
// another agent's spec.
func ParseNetworkSpec(spec string) (n NetworkOf, ok bool, err error) {
	sp, err := agents.ParseSpec(spec)
	if err != nil || sp.Name != NetworkAgent {
		return n, false, nil
	}
	n.Path = sp.Params["ckpt"]
	var eIt, eSims error
	n.Iter, eIt = strconv.Atoi(sp.Params["iter"])
	n.Sims, eSims = strconv.Atoi(sp.Params["sims"])
	if eIt != nil || eSims != nil || n.Iter < 0 || n.Sims < 1 || n.Path == "" || len(sp.Params) != 3 {
		return n, true, fmt.Errorf("alphazero: %q is not a network of the run (%s:ckpt=FILE,iter=N,sims=S)", spec, NetworkAgent)
	}
	return n, true, nil
}
