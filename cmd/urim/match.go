package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/progress"
)

func init() {
	register(&command{
		name:  "match",
		usage: "[flags] AGENT_A AGENT_B",
		short: "play two agents against each other and summarise wins, draws, losses and match points",
		long: `Plays --games games between two agents given as specs (see 'urim eval --help'
for the agents), alternating the seats, and prints A's wins, draws and losses,
its score (a draw counts half), the Elo difference that score implies with a
95% interval, the share of games ending +2 … −2 in match points (A's minus
B's), both sides' average match points and the average game length. With
--opening-plies K (or --openings K) every game starts with K random plies
(4 by default); with --paired (the default) each opening is played twice
with the seats swapped. --rules takes a preset or a YAML file of custom
rules. The games depend
only on --seed, whatever the number of --workers.

Flags may also follow the agents. A progress bar is drawn on standard error
unless --quiet.

Agents:
` + agents.Help() + `
Examples:
  urim match mcts:sims=1000 random --games 100
  urim match --json alphabeta:depth=6 mcts:sims=400
  urim match --rules oware --openings 0 --paired=false greedy random`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			m := &matchOptions{}
			m.bind(fs, true)
			asJSON := fs.Bool("json", false, "print JSON instead of a table")
			return func(io *stdio, args []string) error {
				if len(args) != 2 {
					return usageErrorf("want two agents, got %d (%q)", len(args), args)
				}
				sum, err := runMatch(io, m, args[0], args[1])
				if err != nil {
					return err
				}
				if *asJSON {
					return evaluate.WriteJSON(io.out, sum)
				}
				return sum.writeTable(io.out)
			}
		},
	})
}

// matchOptions are the flags shared by match, eval and eval sprt: the
// fields of evaluate.Setup (and --games), bound under the names of their
// config keys with the defaults of evaluate.DefaultConfig, so a config file
// and the command line describe the same tournament.
type matchOptions struct {
	cfg   evaluate.Config
	quiet bool
}

// checkGames checks --games: one meaning everywhere, a count of at least 1
// (even when paired), at most evaluate.MaxTournamentGames.
func checkGames(games int, paired bool) error {
	switch {
	case games < 1:
		return usageErrorf("--games %d: want at least 1 game per pairing", games)
	case games > evaluate.MaxTournamentGames:
		return usageErrorf("--games %d: a tournament plays at most %d games (each is kept in memory for the report); "+
			"split the run into smaller ones that share a store (urim eval --store)", games, evaluate.MaxTournamentGames)
	case paired && games%2 != 0:
		return usageErrorf("--games %d is odd: paired openings need an even number (or --paired=false)", games)
	}
	return nil
}

// bind binds the flags; --games only when the command plays a fixed number.
func (m *matchOptions) bind(fs *flag.FlagSet, games bool) {
	m.cfg = evaluate.DefaultConfig()
	s := &m.cfg.Setup
	if games {
		fs.IntVar(&m.cfg.Games, "games", m.cfg.Games, "games to play per pairing: at least 1, even when --paired")
	}
	fs.StringVar(&s.Rules, "rules", s.Rules, "rules: a preset ("+strings.Join(env.PresetNames(), ", ")+") or a YAML file of custom rules")
	fs.IntVar(&s.MaxPlies, "max-plies", s.MaxPlies, "cap every game at this many plies (0: the rules' own)")
	fs.IntVar(&s.OpeningPlies, "opening-plies", s.OpeningPlies, "random plies at the start of every game (0: the start position)")
	fs.IntVar(&s.OpeningPlies, "openings", s.OpeningPlies, "short for --opening-plies")
	fs.BoolVar(&s.Paired, "paired", s.Paired, "play each opening twice with the seats swapped")
	fs.Uint64Var(&s.Seed, "seed", s.Seed, "seed of the openings and the agents")
	fs.IntVar(&s.Workers, "workers", s.Workers, "games played at once (0: one per core)")
	fs.BoolVar(&m.quiet, "quiet", false, "no progress bar")
}

// matchSummary is what urim match prints.
type matchSummary struct {
	A        string             `json:"a"`
	B        string             `json:"b"`
	Rules    string             `json:"rules"`
	Openings int                `json:"opening_plies"`
	Paired   bool               `json:"paired"`
	Seed     uint64             `json:"seed"`
	Stats    evaluate.PairStats `json:"stats"`
	// Elo, EloSE, EloLo and EloHi are the difference the score implies;
	// at a perfect or zero score, where that is infinite, they are the
	// Bradley–Terry fit's with urim eval's virtual draw (EloFit true).
	Elo    *float64 `json:"elo_diff"`
	EloSE  *float64 `json:"elo_se"`
	EloLo  *float64 `json:"elo_lo95"`
	EloHi  *float64 `json:"elo_hi95"`
	EloFit bool     `json:"elo_from_fit,omitempty"`
}

func runMatch(io *stdio, m *matchOptions, a, b string) (*matchSummary, error) {
	if err := checkGames(m.cfg.Games, m.cfg.Paired); err != nil {
		return nil, err
	}
	players := evaluate.PlayersFromSpecs([]string{a, b})
	cfg := m.cfg
	cfg.Agents = players
	if err := cfg.LoadRules(); err != nil {
		return nil, usageErrorf("--%v", err)
	}
	cfg.Progress = progress.To(io.err, m.quiet).Func(players[0].Label()+" vs "+players[1].Label(), "games")
	ctx, stop := interruptible()
	defer stop()
	defer classic.CloseExternalEngines()
	res, err := evaluate.RunTournament(ctx, cfg)
	if err != nil && ctx.Err() != nil {
		return nil, interrupted(io, "urim match", res, "")
	}
	if err != nil {
		return nil, err
	}
	ps := res.Pairs[0]
	sum := &matchSummary{A: ps.A, B: ps.B, Rules: res.Config.Rules, Openings: cfg.OpeningPlies, Paired: cfg.Paired, Seed: cfg.Seed,
		Stats: ps}
	elo, se, lo, hi := ps.EloDiff()
	if r := res.Ratings; (math.IsInf(elo, 0) || math.IsInf(lo, 0) || math.IsInf(hi, 0)) && r != nil && len(r.Players) == 2 {
		// A perfect or zero score: the fit of urim eval, whose virtual
		// draw keeps it finite. One of the two is the anchor (SE 0), so the
		// difference's error is the other's.
		pa, pb := r.Players[0], r.Players[1]
		elo, se = pa.Elo-pb.Elo, math.Hypot(pa.SE, pb.SE)
		lo, hi = elo-1.959963984540054*se, elo+1.959963984540054*se
		sum.EloFit = true
	}
	sum.Elo, sum.EloSE, sum.EloLo, sum.EloHi = finitePtr(elo), finitePtr(se), finitePtr(lo), finitePtr(hi)
	return sum, nil
}

// orInf reads a summary's Elo figure back, nil being infinite of sign.
func orInf(x *float64, sign int) float64 {
	if x == nil {
		return math.Inf(sign)
	}
	return *x
}

// finitePtr returns nil for an infinite value, which JSON cannot hold.
func finitePtr(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

// fmtElo prints an Elo difference, infinities included.
func fmtElo(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.0f", x)
}

func (s *matchSummary) writeTable(w io.Writer) error {
	ps := s.Stats
	sign := 1
	if ps.Score < 0.5 {
		sign = -1
	}
	elo, lo, hi := orInf(s.Elo, sign), orInf(s.EloLo, -1), orInf(s.EloHi, 1)
	opening := "from the start position"
	if s.Openings > 0 {
		opening = fmt.Sprintf("openings of %d random plies", s.Openings)
		if s.Paired {
			opening += ", paired"
		}
	}
	fmt.Fprintf(w, "%s vs %s on %s: %d games, %s, seed %d\n\n", s.A, s.B, s.Rules, ps.Games, opening, s.Seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "agent\tgames\twins\tdraws\tlosses\tscore\tElo diff\t95% interval\tavg MP")
	fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.1f%%\t%s\t[%s, %s]\t%.2f\n", s.A, ps.Games, ps.Wins, ps.Draws, ps.Losses,
		100*ps.Score, fmtElo(elo), fmtElo(lo), fmtElo(hi), ps.AvgMP)
	fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.1f%%\t\t\t%.2f\n", s.B, ps.Games, ps.Losses, ps.Draws, ps.Wins, 100*(1-ps.Score), ps.AvgMPB)
	if err := tw.Flush(); err != nil {
		return err
	}
	var rates []string
	for k, r := range ps.MPRates {
		rates = append(rates, fmt.Sprintf("%s: %.1f%%", mpLabel(evaluate.MPOutcomes[k]), 100*r))
	}
	if s.EloFit {
		fmt.Fprintf(w, "(a %s score: the Elo difference is urim eval's fit, with one virtual draw)\n", map[bool]string{true: "perfect", false: "zero"}[ps.Score == 1])
	}
	fmt.Fprintf(w, "\nmatch points, %s's minus %s's: %s\n", s.A, s.B, strings.Join(rates, "  "))
	_, err := fmt.Fprintf(w, "average length %.1f plies; South (first to move) won %d, drew %d, lost %d\n",
		ps.AvgPlies, ps.SouthWins, ps.SouthDraws, ps.SouthLosses)
	return err
}

// mpLabel writes a match-point difference with its sign: +2, +1, 0, -1, -2.
func mpLabel(d int) string {
	if d == 0 {
		return "0"
	}
	return fmt.Sprintf("%+d", d)
}
