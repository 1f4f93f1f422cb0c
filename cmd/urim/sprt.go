package main

import (
	"flag"
	"fmt"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/progress"
)

// sprtCommand is run as "urim eval sprt".
var sprtCommand = &command{
	name:  "sprt",
	usage: "[flags] CANDIDATE BASELINE",
	short: "sequential probability ratio test: is the candidate stronger?",
	long: `Plays CANDIDATE against BASELINE until a sequential probability ratio test
decides between H0 "the candidate is --elo0 stronger" and H1 "it is --elo1
stronger", with error rates --alpha (accepting H1 when H0 holds) and --beta
(accepting H0 when H1 holds), as fishtest and Leela Zero do to promote an
engine or a network. The test stops as soon as the log-likelihood ratio
leaves (log(beta/(1-alpha)), log((1-beta)/alpha)); with --paired it counts
game pairs (pentanomial), otherwise single games (trinomial). Elo is logistic
Elo. After --max-games without a decision the result is "continue".

Prints the decision, the ratio and the score (JSON with --json). The exit
status is 0 whatever the decision; with --gate it is 3 unless H1 was
accepted. Flags may also follow the agents.

Examples:
  urim eval sprt mcts:sims=800 mcts:sims=400
  urim eval sprt --elo0 0 --elo1 10 --alpha 0.05 --beta 0.05 alphabeta:depth=8 alphabeta:depth=6
  urim eval sprt --gate --json candidate-spec baseline-spec`,
	setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
		m := &matchOptions{}
		m.bind(fs, false)
		a := &sprtArgs{m: m,
			elo0:     fs.Float64("elo0", 0, "Elo difference under H0"),
			elo1:     fs.Float64("elo1", 20, "Elo difference under H1"),
			alpha:    fs.Float64("alpha", 0.05, "probability of accepting H1 when H0 holds"),
			beta:     fs.Float64("beta", 0.05, "probability of accepting H0 when H1 holds"),
			maxGames: fs.Int("max-games", evaluate.DefaultSPRTMaxGames, "stop undecided after this many games (at least 1)"),
			gate:     fs.Bool("gate", false, "exit with status 3 unless H1 is accepted"),
			asJSON:   fs.Bool("json", false, "print JSON instead of text")}
		return func(io *stdio, args []string) error {
			cfg, err := a.test(args)
			if err != nil {
				return err
			}
			return runSPRT(io, cfg, a)
		}
	},
}

// sprtArgs are the flags of urim eval sprt, as bound.
type sprtArgs struct {
	m                       *matchOptions
	elo0, elo1, alpha, beta *float64
	maxGames                *int
	gate, asJSON            *bool
}

// test returns the test the flags ask for between the candidate and the
// baseline of args, checked and its rules loaded.
func (a *sprtArgs) test(args []string) (evaluate.SPRTConfig, error) {
	var cfg evaluate.SPRTConfig
	if len(args) != 2 {
		return cfg, usageErrorf("want a candidate and a baseline agent, got %d (%q)", len(args), args)
	}
	if *a.maxGames < 1 || *a.maxGames > evaluate.MaxTournamentGames {
		return cfg, usageErrorf("--max-games %d: want 1 to %d", *a.maxGames, evaluate.MaxTournamentGames)
	}
	if a.m.cfg.Paired && *a.maxGames%2 != 0 {
		return cfg, usageErrorf("--max-games %d is odd: paired openings need an even number", *a.maxGames)
	}
	players := evaluate.PlayersFromSpecs(args)
	cfg = evaluate.SPRTConfig{Setup: a.m.cfg.Setup, A: players[0], B: players[1],
		Test:     evaluate.SPRT{Elo0: *a.elo0, Elo1: *a.elo1, Alpha: *a.alpha, Beta: *a.beta},
		MaxGames: *a.maxGames}
	if err := cfg.Test.Check(); err != nil {
		return cfg, usageErrorf("%v", err)
	}
	if err := cfg.LoadRules(); err != nil {
		return cfg, usageErrorf("--%v", err)
	}
	return cfg, nil
}

// runSPRT plays the test to its decision and prints it; with --gate, a
// decision other than H1 is exit status 3.
func runSPRT(io *stdio, cfg evaluate.SPRTConfig, a *sprtArgs) error {
	bar := progress.To(io.err, a.m.quiet).Bar(cfg.MaxGames, "sprt", "games")
	cfg.Progress = func(p evaluate.SPRTProgress) {
		bar.Describe(fmt.Sprintf("sprt LLR %+.2f (%.2f, %.2f) +%d =%d -%d", p.LLR, p.Lower, p.Upper, p.Wins, p.Draws, p.Losses))
		bar.Expect(p.ExpectedLeft())
		bar.Set(p.Games)
	}
	ctx, stop := interruptible()
	defer stop()
	defer classic.CloseExternalEngines()
	res, err := evaluate.RunSPRT(ctx, cfg)
	bar.Exit()
	if stoppedBy(ctx, err) {
		return interruption{cmd: "urim eval sprt", where: "before a decision", saved: "nothing was saved (the test keeps no store)",
			resume: "run the command again to start over"}.exit(io)
	}
	if err != nil {
		return err
	}
	if *a.asJSON {
		err = evaluate.WriteJSON(io.out, res)
	} else {
		_, err = fmt.Fprintln(io.out, res)
	}
	if err == nil && *a.gate && res.Decision != evaluate.AcceptH1 {
		return exitCode(3)
	}
	return err
}
