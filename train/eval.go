package train

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/urim-rl/urim/evaluate"
)

// evalResult is one evaluation of a candidate network.
type evalResult struct {
	scores       []float64 // against each opponent, in config order
	elo, lo, hi  float64
	played, kept int
}

// candidateSpec is the agent spec of a checkpoint searching with sims
// simulations per move.
func candidateSpec(ckpt string, sims int) string {
	return fmt.Sprintf("az:ckpt=%s,sims=%d", ckpt, sims)
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
func (r *run) evaluate(ctx context.Context, it int, ckpt string) (*evalResult, error) {
	e := r.cfg.Evaluation
	name := fmt.Sprintf("iter-%04d", it)
	players := []evaluate.Player{{Name: name, Spec: candidateSpec(ckpt, r.evalSims())}}
	for _, o := range e.Opponents {
		players = append(players, evaluate.Player{Spec: o})
	}
	tc := evaluate.Config{
		Rules: r.rules.Name, MaxPlies: r.cfg.MaxPlies, Format: evaluate.RoundRobin, Agents: players,
		Games: e.Games, OpeningPlies: e.OpeningPlies, Paired: true, Seed: derive(r.cfg.Seed, 0x6576616c),
		Workers: r.cfg.Workers, Store: filepath.Join(r.dir, "eval", "games.jsonl"),
		Progress: r.progress(fmt.Sprintf("iter %d evaluation", it), "games"),
	}
	if len(players) < 2 {
		return &evalResult{}, nil
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
func (r *run) gate(ctx context.Context, it int, ckpt string) (bool, error) {
	g := r.cfg.Evaluation.Gating
	bestCkpt := CheckpointPath(r.dir, r.st.Best)
	res, err := evaluate.RunSPRT(ctx, evaluate.SPRTConfig{
		A:     evaluate.Player{Name: fmt.Sprintf("iter-%04d", it), Spec: candidateSpec(ckpt, r.evalSims())},
		B:     evaluate.Player{Name: fmt.Sprintf("iter-%04d", r.st.Best), Spec: candidateSpec(bestCkpt, r.evalSims())},
		Test:  evaluate.SPRT{Elo0: g.Elo0, Elo1: g.Elo1, Alpha: g.Alpha, Beta: g.Beta},
		Rules: r.rules.Name, MaxPlies: r.cfg.MaxPlies, OpeningPlies: r.cfg.Evaluation.OpeningPlies,
		Paired: true, MaxGames: g.MaxGames, Seed: derive(r.cfg.Seed, 0x67617465, uint64(it)), Workers: r.cfg.Workers,
	})
	if err != nil {
		return false, fmt.Errorf("train: gating of iteration %d: %w", it, err)
	}
	fmt.Fprintf(r.log, "train: gating iteration %d against %d: %s\n", it, r.st.Best, res)
	return res.Decision == evaluate.AcceptH1, nil
}
