package train

import (
	"context"
	"fmt"
	"math"
	"path/filepath"

	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/nn"
)

// evalResult is one evaluation of a candidate network.
type evalResult struct {
	scores       []float64 // against each opponent, in config order
	elo, lo, hi  float64
	played, kept int
}

// PlayerName is the evaluation name of iteration it's network. A
// candidate plays on the network held in memory under this name, so its
// games and seeds depend on the name, not on where the run lives.
func PlayerName(it int) string { return fmt.Sprintf("iter-%04d", it) }

// evalSetup returns the games' common settings: the run's rules, paired
// openings, the seed.
func (s *Session) evalSetup(seed uint64) evaluate.Setup {
	rules := s.Rules
	return evaluate.Setup{Rules: s.Rules.Name, Custom: &rules, OpeningPlies: s.Config.Evaluation.OpeningPlies,
		Paired: true, Seed: seed, Workers: s.Config.Workers}
}

// evaluate rates the checkpoint of iteration it: a round robin of the
// candidate and the opponents, on paired openings, with every game kept in
// eval/games.jsonl. The opponents' games among themselves are played once
// and reused from the store afterwards, so each later evaluation plays only
// the candidate's games; random, when listed, anchors the ratings at 0, the
// scale of configs/bench-classical.yaml.
func (s *Session) evaluate(ctx context.Context, it int, net *nn.Net) (*evalResult, error) {
	e := s.Config.Evaluation
	cand := s.alg.Player(it, net)
	name := cand.Name
	players := []evaluate.Player{cand}
	names := make([]string, 0, len(e.Opponents)) // each opponent's name in the games
	for _, o := range e.Opponents {
		if o == BestOpponent {
			p, err := s.bestPlayer(it)
			if err != nil {
				return nil, err
			}
			if p.Name != name {
				players = append(players, p)
			}
			names = append(names, p.Name)
			continue
		}
		players = append(players, evaluate.Player{Spec: o})
		names = append(names, o)
	}
	tc := evaluate.Config{
		Setup: s.evalSetup(s.Seed(0x6576616c)), Format: evaluate.RoundRobin, Agents: players,
		Games: e.Games, Store: filepath.Join(s.Dir, "eval", "games.jsonl"),
		Progress: s.Progress(s.Iter(it)+" evaluation", "games"),
		Remote:   s.evalRemote(),
	}
	if len(players) < 2 { // gating only: nothing to rate against
		return &evalResult{elo: math.NaN(), lo: math.NaN(), hi: math.NaN()}, nil
	}
	res, err := evaluate.RunTournament(ctx, tc)
	if err != nil {
		return nil, fmt.Errorf("train: evaluation of iteration %d: %w", it, err)
	}
	out := &evalResult{played: res.Played, kept: res.Reused}
	for _, o := range names {
		out.scores = append(out.scores, evaluate.Pair(name, o, res.Games).Score)
	}
	if i := res.Ratings.Index(name); i >= 0 {
		p := res.Ratings.Players[i]
		out.elo, out.lo, out.hi = p.Elo, p.Lo, p.Hi
	}
	return out, nil
}

// evalRemote is where the evaluation games are played: the run's workers
// with cluster.evaluation (Options.Evaluation), else nil, this process.
// A nil interface, not a nil pointer in one, when there are none.
func (s *Session) evalRemote() evaluate.Remote {
	if s.opt.Evaluation == nil || !s.Config.Cluster.Evaluation {
		return nil
	}
	return s.opt.Evaluation
}

// BestOpponent, listed in evaluation.opponents, is the run's best network
// so far (best.ckpt when the candidate is evaluated), playing as the
// candidate plays, under its iteration's name (iter-0007): an opponent as
// strong as the candidate's predecessor, so the rating keeps moving after
// the fixed agents are beaten every game.
const BestOpponent = "best"

// bestPlayer is the best network so far as an evaluation player.
func (s *Session) bestPlayer(it int) (evaluate.Player, error) {
	net, err := nn.LoadNet(CheckpointPath(s.Dir, s.State.Best))
	if err != nil {
		return evaluate.Player{}, fmt.Errorf("train: evaluation of iteration %d: the best network: %w", it, err)
	}
	return s.alg.Player(s.State.Best, net), nil
}

// gate runs the SPRT of the candidate against the best network so far and
// reports whether the candidate is to become best (the test accepted H1).
func (s *Session) gate(ctx context.Context, it int, net *nn.Net) (bool, error) {
	g := s.Config.Evaluation.Gating
	best, err := nn.LoadNet(CheckpointPath(s.Dir, s.State.Best))
	if err != nil {
		return false, fmt.Errorf("train: gating: %w", err)
	}
	res, err := evaluate.RunSPRT(ctx, evaluate.SPRTConfig{
		Setup:    s.evalSetup(s.Seed(0x67617465, uint64(it))),
		A:        s.alg.Player(it, net),
		B:        s.alg.Player(s.State.Best, best),
		Test:     evaluate.SPRT{Elo0: g.Elo0, Elo1: g.Elo1, Alpha: g.Alpha, Beta: g.Beta},
		MaxGames: g.MaxGames,
		Remote:   s.evalRemote(),
	})
	if err != nil {
		return false, fmt.Errorf("train: gating of iteration %d: %w", it, err)
	}
	fmt.Fprintf(s.Log, "train: gating iteration %d against %d: %s\n", it, s.State.Best, res)
	return res.Decision == evaluate.AcceptH1, nil
}
