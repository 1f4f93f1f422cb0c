package evaluate

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/urim-rl/urim/env"
)

// DefaultSPRTMaxGames caps an SPRT when SPRTConfig.MaxGames is 0.
const DefaultSPRTMaxGames = 20000

// SPRTConfig sets up [RunSPRT]: a candidate A against a baseline B. Zero
// fields take the defaults of [Setup] (rules urim, one worker per core) and
// alpha = beta = 0.05.
type SPRTConfig struct {
	// Setup holds the rules, openings, seed and workers, as in a
	// tournament. With Paired each opening is played twice with the seats
	// swapped and the pairs are tested (pentanomial); otherwise single
	// games (trinomial).
	Setup
	A, B Player
	// Test holds the Elo bounds and error rates; zero Alpha or Beta mean
	// 0.05.
	Test SPRT
	// MaxGames stops an undecided test; 0 means DefaultSPRTMaxGames.
	MaxGames int
	// Progress, when set, is called after each game or pair counted.
	Progress func(p SPRTProgress)
	// Remote, when set, plays the games in other processes, sprtBatch at
	// a time; they are counted in index order as in one process, so the
	// decision is the same (both players must then travel: Player.Spec
	// or Player.Remote).
	Remote Remote
}

// sprtBatch is the games an SPRT on remote workers sends at a time:
// enough to keep many workers busy, few enough that the games played
// past the decision cost little. Even, so that pairs stay whole.
const sprtBatch = 32

// SPRTProgress is the state of a running test.
type SPRTProgress struct {
	Games, MaxGames     int
	LLR, Lower, Upper   float64
	Wins, Draws, Losses int
}

// ExpectedLeft estimates the games the test still needs: the games until
// the LLR, drifting at its average rate per game so far, reaches the bound
// it heads for, at most MaxGames minus those played; -1 before it has a
// direction. A progress report's time left comes from it, not from
// MaxGames, which a test rarely reaches.
func (p SPRTProgress) ExpectedLeft() int {
	if p.Games == 0 || p.LLR == 0 || math.IsNaN(p.LLR) {
		return -1
	}
	bound := p.Upper
	if p.LLR < 0 {
		bound = p.Lower
	}
	left := math.Ceil((bound - p.LLR) / (p.LLR / float64(p.Games)))
	return int(min(max(left, 0), float64(max(p.MaxGames-p.Games, 0))))
}

// SPRTResult is a finished test.
type SPRTResult struct {
	A string `json:"a"`
	B string `json:"b"`
	// Decision is H1 (A is stronger by about Elo1 or more), H0 (it is not
	// Elo1 stronger: at most about Elo0) or continue (MaxGames reached).
	Decision Decision `json:"decision"`
	Test     SPRT     `json:"test"`
	LLR      float64  `json:"llr"`
	Lower    float64  `json:"lower"`
	Upper    float64  `json:"upper"`
	// Pairs counts game pairs by A's points (paired tests only).
	Pairs *[5]int `json:"pairs,omitempty"`
	// Stats are A's results against B over the games counted.
	Stats PairStats `json:"stats"`
	// Games are the games counted, in order.
	Games []Record `json:"-"`
}

// RunSPRT plays A against B until the SPRT decides or MaxGames are played.
// Games run in parallel but are counted in index order, so the decision and
// the number of games depend only on the seed.
func RunSPRT(ctx context.Context, cfg SPRTConfig) (*SPRTResult, error) {
	if cfg.Test.Alpha == 0 {
		cfg.Test.Alpha = 0.05
	}
	if cfg.Test.Beta == 0 {
		cfg.Test.Beta = 0.05
	}
	if err := cfg.Test.Check(); err != nil {
		return nil, err
	}
	if cfg.MaxGames == 0 {
		cfg.MaxGames = DefaultSPRTMaxGames
	}
	if cfg.MaxGames < 0 || (cfg.Paired && cfg.MaxGames%2 != 0) {
		return nil, fmt.Errorf("evaluate: SPRT: max games %d must be positive (and even with paired openings)", cfg.MaxGames)
	}
	if cfg.A.Label() == cfg.B.Label() {
		return nil, fmt.Errorf("evaluate: SPRT: both players are called %q; name them apart", cfg.A.Label())
	}
	if err := cfg.Setup.validate(); err != nil {
		return nil, fmt.Errorf("evaluate: SPRT: %w", err)
	}
	g, err := cfg.Game()
	if err != nil {
		return nil, err
	}
	for _, p := range []Player{cfg.A, cfg.B} {
		if err := p.check(g); err != nil {
			return nil, fmt.Errorf("evaluate: SPRT: %s: %w", p.Label(), err)
		}
	}
	workers := cfg.workers()
	open := &openings{g: g, plies: cfg.OpeningPlies, seed: cfg.Seed}
	a, b := cfg.A.Label(), cfg.B.Label()
	res := &SPRTResult{A: a, B: b, Test: cfg.Test}
	res.Lower, res.Upper = cfg.Test.Bounds()
	var pairs [5]int
	var wins, draws, losses int
	pairScore := 0.0
	jobAt := func(i int) job { return pairJob(cfg.A, cfg.B, cfg.Seed, i, cfg.Paired) }
	count := func(i int, rec Record) bool {
		res.Games = append(res.Games, rec)
		s := rec.Score(rec.Seat(a))
		switch s {
		case 1:
			wins++
		case 0.5:
			draws++
		default:
			losses++
		}
		if cfg.Paired {
			pairScore += s
			if i%2 == 0 {
				return false
			}
			pairs[int(2*pairScore)]++
			pairScore = 0
			res.LLR = cfg.Test.LLRPentanomial(pairs)
		} else {
			res.LLR = cfg.Test.LLRTrinomial(wins, draws, losses)
		}
		res.Decision = cfg.Test.Decide(res.LLR)
		if cfg.Progress != nil {
			cfg.Progress(SPRTProgress{Games: len(res.Games), MaxGames: cfg.MaxGames, LLR: res.LLR,
				Lower: res.Lower, Upper: res.Upper, Wins: wins, Draws: draws, Losses: losses})
		}
		return res.Decision != Continue
	}
	if cfg.Remote != nil {
		err = sprtRemote(ctx, cfg.Remote, g, cfg.MaxGames, jobAt, open, count)
	} else {
		err = runJobs(ctx, cfg.MaxGames, workers, true,
			func(ctx context.Context, i int) (Record, error) {
				j := jobAt(i)
				return playJob(ctx, g, j, open.get(j.open))
			}, count)
	}
	if err != nil {
		return nil, err
	}
	if cfg.Paired {
		res.Pairs = &pairs
	}
	res.Stats = Pair(a, b, res.Games)
	return res, nil
}

// sprtRemote plays an SPRT's games on r, sprtBatch at a time, counting
// each batch's games in index order until count stops the test.
func sprtRemote(ctx context.Context, r Remote, g *env.Game, maxGames int, jobAt func(int) job, open *openings,
	count func(i int, rec Record) bool) error {
	for start := 0; start < maxGames; start += sprtBatch {
		todo := make([]int, min(sprtBatch, maxGames-start))
		for k := range todo {
			todo[k] = start + k
		}
		recs := make([]Record, len(todo))
		if err := playRemote(ctx, r, g, todo, jobAt, open, func(k int, rec Record) bool {
			recs[k] = rec
			return false
		}); err != nil {
			return err
		}
		for k, rec := range recs {
			if count(todo[k], rec) {
				return nil
			}
		}
	}
	return nil
}

// String summarises the result in one line.
func (r *SPRTResult) String() string {
	var b strings.Builder
	elo, _, lo, hi := r.Stats.EloDiff()
	verdict := map[Decision]string{
		AcceptH1: fmt.Sprintf("H1 accepted: %s is stronger than %s (by about %g Elo or more)", r.A, r.B, r.Test.Elo1),
		AcceptH0: fmt.Sprintf("H0 accepted: %s is not %g Elo stronger than %s", r.A, r.Test.Elo1, r.B),
		Continue: fmt.Sprintf("undecided after %d games", r.Stats.Games),
	}[r.Decision]
	fmt.Fprintf(&b, "%s\nLLR %.3f (bounds %.3f, %.3f) after %d games: +%d =%d -%d, Elo %+.1f [%+.1f, %+.1f]",
		verdict, r.LLR, r.Lower, r.Upper, r.Stats.Games, r.Stats.Wins, r.Stats.Draws, r.Stats.Losses, elo, lo, hi)
	return b.String()
}
