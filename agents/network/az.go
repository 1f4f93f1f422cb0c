package network

import (
	"fmt"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/agents/neteval"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

func init() {
	agents.Register("az",
		"AlphaZero search, PUCT with a network's priors and values: ckpt=PATH (required), sims=200 (per move; "+
			"no limit if only time is set), time=0s (per move, 0: none), c=1.5, batch=8 (leaves evaluated together per tree, "+
			"with virtual loss), threads=1 (root-parallel trees), reuse=true (keep the subtree between moves), "+
			"tb=FILE (end simulations at positions an endgame table holds, valued from it), "+
			"root=puct (or gumbel: Gumbel AlphaZero's Sequential Halving at the root, which needs sims and one thread and searches each move afresh), "+
			"m=16 (gumbel: root actions sampled), precision=fp32 (or int8: the network's hidden layers in int8), seed (overrides the agent's seed)",
		func(p *agents.Params, seed uint64) (agents.Agent, error) {
			sp, err := parseAZ(p, seed)
			if err != nil {
				return nil, err
			}
			a, err := NewAZ(sp.net.AtPrecision(sp.prec), sp.path, sp.cfg, sp.seed)
			if err == nil && sp.tb != "" {
				a.desc += ",tb=" + sp.tb
			}
			if err == nil {
				a.desc += precisionDesc(sp.prec)
			}
			return a, err
		})
}

// azSpec is an az agent's spec read: its checkpoint and network, search,
// table file and seed.
type azSpec struct {
	path, tb string
	net      *nn.Net
	prec     nn.Precision
	cfg      classic.MCTSConfig
	seed     uint64
}

// parseAZ reads the parameters of an az spec (seed is the agent's, which a
// seed= parameter overrides), loads its network and table, and checks
// that no other parameter is given.
func parseAZ(p *agents.Params, seed uint64) (azSpec, error) {
	sp := azSpec{path: ckptParam(p)}
	sp.cfg = classic.MCTSConfig{
		Sims:    p.Budget("sims", -1, 0, agents.MaxSims), // -1: not given
		Time:    p.TimeBudget("time", 0),
		C:       p.Float("c", 1.5, 0, 100),
		Batch:   p.Int("batch", 8, 1, classic.MaxBatch),
		Threads: p.Budget("threads", 1, 1, 256),
		NoReuse: !p.Bool("reuse", true),
	}
	cfg := &sp.cfg
	sp.seed = seedParam(p, seed)
	switch {
	case cfg.Sims == 0 && cfg.Time == 0:
		p.Fail("sims", "0", "a positive count (sims=0 means no limit and needs time=..., such as time=1s)")
	case cfg.Sims < 0:
		cfg.Sims = 0 // not given: 200 below, or no limit with time
	}
	if cfg.Sims == 0 && cfg.Time == 0 {
		cfg.Sims = 200
	}
	switch root := p.String("root", "puct"); root {
	case "puct":
	case "gumbel":
		cfg.Rule = classic.Gumbel
		cfg.Gumbel.M = p.Int("m", 16, 1, 64)
		cfg.NoReuse = true
		if cfg.Sims == 0 {
			p.Fail("root", root, "a simulation budget: gumbel needs sims=N, not time alone")
		}
		if cfg.Time > 0 || cfg.Threads > 1 {
			p.Fail("root", root, "no time limit and threads=1 (Sequential Halving runs one budgeted search)")
		}
	default:
		p.Fail("root", root, "puct or gumbel")
	}
	sp.tb = p.File("tb", "")
	sp.prec = precisionParam(p)
	if err := p.Done(); err != nil { // before reading the checkpoint
		return sp, err
	}
	var err error
	if sp.net, err = loadAgentNet(sp.path); err != nil {
		return sp, err
	}
	return sp, classic.WithTable(cfg, sp.tb)
}

// AZ is AlphaZero's search: the [MCTS] with the PUCT rule and a network as
// its evaluator (priors from the softmax of the policy head over the legal
// moves, values from the value head), leaves evaluated in batches of
// cfg.Batch per tree with virtual loss, and the tree kept between moves.
// It plays the most visited move; LastSearch reports as the MCTS does.
//
// The network is shared by the search threads, each with its own
// predictor. An AZ agent plays only the rules its network was made for.
type AZ struct {
	*classic.MCTS
	games classic.GameCheck
	desc  string
}

// NewAZ returns the search of net (read from the checkpoint ckpt, named in
// messages) configured by cfg, whose rule (PUCT unless it is Gumbel),
// Reward default and evaluators it sets, seeded with seed. cfg.Table, if
// set, must be for net's rules.
func NewAZ(net nn.Model, ckpt string, cfg classic.MCTSConfig, seed uint64) (*AZ, error) {
	if err := classic.CheckTable(cfg.Table, neteval.Game(net)); err != nil {
		return nil, fmt.Errorf("az: %w", err)
	}
	if cfg.Rule != classic.Gumbel {
		cfg.Rule = classic.PUCT
	}
	batch := max(cfg.Batch, 1)
	cfg.NewEvaluator = func(uint64) classic.Evaluator { return neteval.New(net, batch) }
	m, err := classic.NewMCTS(cfg, seed)
	if err != nil {
		return nil, err
	}
	mc := m.Config()
	return &AZ{
		MCTS:  m,
		games: classic.GameCheck{Net: neteval.Game(net), What: "checkpoint " + ckpt},
		desc: fmt.Sprintf("az:ckpt=%s,sims=%d,time=%s,c=%g,batch=%d,threads=%d", ckpt, mc.Sims, mc.Time,
			mc.C, batch, mc.Threads) + classic.GumbelDesc(&mc),
	}, nil
}

// Act searches s and returns the most visited move.
func (a *AZ) Act(s *env.State) (int, error) {
	if !s.Terminal() {
		if err := a.games.Check(s); err != nil {
			return 0, err
		}
	}
	return a.MCTS.Act(s)
}

// String describes the configuration.
func (a *AZ) String() string { return a.desc }

// NewLockstep returns a lock-step self-play search on net (see
// [Lockstep]); the network's forward pass runs on threads goroutines
// (0 means 1) over batches of cfg.Games × cfg.Search.Batch positions.
func NewLockstep(net nn.Model, cfg classic.LockstepConfig, threads int, seed uint64) (*classic.Lockstep, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	g := neteval.Game(net)
	if err := classic.CheckTable(cfg.Search.Table, g); err != nil {
		return nil, fmt.Errorf("%w: %w", classic.ErrLockstepConfig, err)
	}
	return classic.NewLockstep(g, cfg, func(rows int) classic.LockstepEvaluator {
		return neteval.NewFor(net.NewInference(rows, threads), g, net.Encoding(), net.Actions(), rows)
	}, seed)
}

var (
	_ agents.Searcher        = (*AZ)(nil)
	_ agents.Resetter        = (*AZ)(nil)
	_ agents.Searcher        = (*Neural)(nil)
	_ classic.BatchEvaluator = (*neteval.Evaluator)(nil)
)
