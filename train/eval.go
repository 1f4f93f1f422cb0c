package train

import (
	"context"
	"fmt"
	"math"
	"path/filepath"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/nn"
)

// evalResult is one evaluation of a candidate network.
type evalResult struct {
	scores       []float64 // against each opponent, in config order
	elo, lo, hi  float64
	played, kept int
}

// candidate is the player of iteration it's network, searching with the
// evaluation's simulations: an az agent on the network held in memory, so
// its games and seeds depend on its name, not on where the run lives.
func (r *run) candidate(it int, net *nn.Net) evaluate.Player {
	if r.cfg.Algorithm == "ppo" {
		return ppoCandidate(it, net)
	}
	name := fmt.Sprintf("iter-%04d", it)
	cfg := agents.MCTSConfig{Sims: r.evalSims(), C: r.cfg.Search.CPuct, Batch: r.cfg.Search.LeafBatch, Reward: r.reward}
	return evaluate.Player{Name: name, New: func(seed uint64) (agents.Agent, error) {
		return agents.NewAZ(net, name, cfg, seed)
	}}
}

// setup returns the games' common settings: the run's rules, paired
// openings, the seed.
func (r *run) evalSetup(seed uint64) evaluate.Setup {
	rules := r.rules
	return evaluate.Setup{Rules: r.rules.Name, Custom: &rules, OpeningPlies: r.cfg.Evaluation.OpeningPlies,
		Paired: true, Seed: seed, Workers: r.cfg.Workers}
}

func (r *run) evalSims() int {
	if r.cfg.Evaluation.Sims > 0 {
		return r.cfg.Evaluation.Sims
	}
	return r.cfg.Search.Sims
}

// evaluate rates the checkpoint of iteration it: a round robin of the
// candidate and the opponents, on paired openings, with every game kept in
// eval/games.jsonl. The opponents' games among themselves are played once
// and reused from the store afterwards, so each later evaluation plays only
// the candidate's games; random, when listed, anchors the ratings at 0, the
// scale of configs/bench-classical.yaml.
func (r *run) evaluate(ctx context.Context, it int, net *nn.Net) (*evalResult, error) {
	e := r.cfg.Evaluation
	cand := r.candidate(it, net)
	name := cand.Name
	players := []evaluate.Player{cand}
	for _, o := range e.Opponents {
		players = append(players, evaluate.Player{Spec: o})
	}
	tc := evaluate.Config{
		Setup: r.evalSetup(derive(r.cfg.Seed, 0x6576616c)), Format: evaluate.RoundRobin, Agents: players,
		Games: e.Games, Store: filepath.Join(r.dir, "eval", "games.jsonl"),
		Progress: r.progress(fmt.Sprintf("iter %d evaluation", it), "games"),
	}
	if len(players) < 2 { // gating only: nothing to rate against
		return &evalResult{elo: math.NaN(), lo: math.NaN(), hi: math.NaN()}, nil
	}
	res, err := evaluate.RunTournament(ctx, tc)
	if err != nil {
		return nil, fmt.Errorf("train: evaluation of iteration %d: %w", it, err)
	}
	out := &evalResult{played: res.Played, kept: res.Reused}
	for _, o := range e.Opponents {
		out.scores = append(out.scores, evaluate.Pair(name, o, res.Games).Score)
	}
	if i := res.Ratings.Index(name); i >= 0 {
		p := res.Ratings.Players[i]
		out.elo, out.lo, out.hi = p.Elo, p.Lo, p.Hi
	}
	return out, nil
}

// gate runs the SPRT of the candidate against the best network so far and
// reports whether the candidate is to become best (the test accepted H1).
func (r *run) gate(ctx context.Context, it int, net *nn.Net) (bool, error) {
	g := r.cfg.Evaluation.Gating
	best, err := nn.LoadNet(CheckpointPath(r.dir, r.st.Best))
	if err != nil {
		return false, fmt.Errorf("train: gating: %w", err)
	}
	res, err := evaluate.RunSPRT(ctx, evaluate.SPRTConfig{
		Setup:    r.evalSetup(derive(r.cfg.Seed, 0x67617465, uint64(it))),
		A:        r.candidate(it, net),
		B:        r.candidate(r.st.Best, best),
		Test:     evaluate.SPRT{Elo0: g.Elo0, Elo1: g.Elo1, Alpha: g.Alpha, Beta: g.Beta},
		MaxGames: g.MaxGames,
	})
	if err != nil {
		return false, fmt.Errorf("train: gating of iteration %d: %w", it, err)
	}
	fmt.Fprintf(r.log, "train: gating iteration %d against %d: %s\n", it, r.st.Best, res)
	return res.Decision == evaluate.AcceptH1, nil
}
