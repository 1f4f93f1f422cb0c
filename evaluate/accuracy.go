package evaluate

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/tablebase"
)

// AccuracyConfig sets a ground-truth evaluation of an agent against an
// endgame table.
type AccuracyConfig struct {
	// Agent is the spec of the agent under test (only its name when New
	// is set).
	Agent string
	// New, when set, builds the agent under test from a seed instead of
	// Agent: an agent that no spec names, such as a network held in
	// memory.
	New func(seed uint64) (agents.Agent, error)
	// Table is the endgame table; its rules are the game's.
	Table *tablebase.Table
	// Positions is the number of positions to score; 0 means 1000.
	Positions int
	// Source says where the positions come from: "uniform" (the default:
	// a seed count from 1 to K uniformly, then a board uniformly) or
	// "selfplay:SPEC" (every position with at most K seeds of games that
	// SPEC plays against itself from the start, after 4 random plies).
	Source string
	// MinSeeds, when above 1, scores only positions with at least this
	// many seeds: with a larger table than training used (say 16 seeds
	// against a training table of 14, MinSeeds 15), only positions that no
	// training table covered. 0 means 1.
	MinSeeds int
	// Seed seeds the sampling and the agents.
	Seed uint64
	// Progress, if set, is called after each scored position.
	Progress func(done, total int)
}

// AccuracyRow holds the figures of one seed count (or all, Seeds = 0).
type AccuracyRow struct {
	Seeds     int `json:"seeds"`
	Positions int `json:"positions"`
	// Best counts the moves that kept the best value.
	Best int `json:"best"`
	// Share is Best/Positions with its 95% Wilson interval.
	Share   float64 `json:"share"`
	ShareLo float64 `json:"share_lo"`
	ShareHi float64 `json:"share_hi"`
	// Loss is the mean of the seeds lost per move, with a 95% normal
	// interval.
	Loss   float64 `json:"loss"`
	LossLo float64 `json:"loss_lo"`
	LossHi float64 `json:"loss_hi"`

	lossSq float64
}

// AccuracyReport is the result of Accuracy.
type AccuracyReport struct {
	Agent    string `json:"agent"`
	Source   string `json:"source"`
	Rules    string `json:"rules"`
	MinSeeds int    `json:"min_seeds"`
	MaxSeeds int    `json:"max_seeds"`
	// Sampled counts the positions drawn; Skipped those left out because
	// a move's value is not exact (no ground truth) or there was no choice.
	Sampled int `json:"sampled"`
	Skipped int `json:"skipped"`
	// Undecided counts the skipped positions where the table has an exact
	// value for every move with a fresh history, but could not decide what
	// a move yields from the position with its history: the opponent may
	// steer back into a position already played (docs/tablebase.md, "Best
	// moves").
	Undecided int           `json:"undecided"`
	BySeeds   []AccuracyRow `json:"by_seeds"`
	All       AccuracyRow   `json:"all"`
}

// Accuracy scores an agent's moves against the table. A position counts
// when the player to move has at least two legal moves and the table knows
// the exact value of every one of them from the position with its history
// (the ground truth, [tablebase.Table.Moves]); the agent then keeps the
// best value when its move's value equals the best move's (the move the
// table calls best), and loses the difference in seeds otherwise. Each position is a fresh game
// for the agent (it is reset first).
func Accuracy(ctx context.Context, cfg AccuracyConfig) (*AccuracyReport, error) {
	if cfg.Table == nil {
		return nil, fmt.Errorf("evaluate: accuracy needs a table")
	}
	n := cfg.Positions
	if n == 0 {
		n = 1000
	}
	if n < 0 {
		return nil, fmt.Errorf("evaluate: positions %d is negative", n)
	}
	if cfg.Source == "" {
		cfg.Source = "uniform"
	}
	g, err := env.NewGame(cfg.Table.Rules())
	if err != nil {
		return nil, err
	}
	newAgent := cfg.New
	if newAgent == nil {
		newAgent = func(seed uint64) (agents.Agent, error) { return agents.New(cfg.Agent, seed) }
	}
	agent, err := newAgent(derive(cfg.Seed, 1))
	if err != nil {
		return nil, err
	}
	defer agents.Close(agent)
	next, err := positionSource(cfg, g)
	if err != nil {
		return nil, err
	}
	k := cfg.Table.MaxSeeds()
	rep := &AccuracyReport{Agent: cfg.Agent, Source: cfg.Source, Rules: g.Name(), MinSeeds: max(cfg.MinSeeds, 1), MaxSeeds: k,
		BySeeds: make([]AccuracyRow, k+1)}
	for done := 0; done < n; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s, err := next()
		if err != nil {
			return nil, err
		}
		rep.Sampled++
		moves, err := cfg.Table.Moves(&s)
		if err != nil {
			return nil, err
		}
		if len(moves) < 2 || !allExact(moves) {
			rep.Skipped++
			if len(moves) >= 2 && allTableExact(moves) {
				rep.Undecided++
			}
			continue
		}
		agents.Reset(agent)
		a, err := agent.Act(&s)
		if err != nil {
			return nil, fmt.Errorf("evaluate: %s at %s: %w", cfg.Agent, s.String(), err)
		}
		best, got := -1, -1
		for _, m := range moves {
			best = max(best, m.Lower)
			if m.Action == a {
				got = m.Lower
			}
		}
		if got < 0 {
			return nil, fmt.Errorf("evaluate: %s played illegal action %d at %s", cfg.Agent, a, s.String())
		}
		seeds := s.RowSeeds(0) + s.RowSeeds(1)
		for _, row := range []*AccuracyRow{&rep.BySeeds[seeds], &rep.All} {
			row.Positions++
			if got == best {
				row.Best++
			}
			loss := float64(best - got)
			row.Loss += loss
			row.lossSq += loss * loss
		}
		done++
		if cfg.Progress != nil {
			cfg.Progress(done, n)
		}
	}
	var rows []AccuracyRow
	for i := range rep.BySeeds {
		rep.BySeeds[i].Seeds = i
		if rep.BySeeds[i].Positions > 0 {
			rows = append(rows, rep.BySeeds[i].finish())
		}
	}
	rep.BySeeds = rows
	rep.All = rep.All.finish()
	return rep, nil
}

// allExact reports whether every move's value from the position with its
// history is exact.
func allExact(moves []tablebase.Move) bool {
	for _, m := range moves {
		if m.Lower != m.Upper {
			return false
		}
	}
	return true
}

// allTableExact reports whether every move's value with a fresh history is
// exact.
func allTableExact(moves []tablebase.Move) bool {
	for _, m := range moves {
		if m.TableLower != m.TableUpper {
			return false
		}
	}
	return true
}

// finish turns the sums into shares, means and intervals.
func (r AccuracyRow) finish() AccuracyRow {
	n := float64(r.Positions)
	if n == 0 {
		return r
	}
	r.Share = float64(r.Best) / n
	r.ShareLo, r.ShareHi = Wilson(r.Best, r.Positions)
	mean := r.Loss / n
	sd := 0.0
	if r.Positions > 1 {
		sd = math.Sqrt(max(0, (r.lossSq-n*mean*mean)/(n-1)))
	}
	half := z95 * sd / math.Sqrt(n)
	r.Loss, r.LossLo, r.LossHi = mean, max(0, mean-half), mean+half
	return r
}

// Wilson returns the 95% Wilson score interval of k successes in n trials.
func Wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	p, fn := float64(k)/float64(n), float64(n)
	z2 := z95 * z95
	center := (p + z2/(2*fn)) / (1 + z2/fn)
	half := z95 / (1 + z2/fn) * math.Sqrt(p*(1-p)/fn+z2/(4*fn*fn))
	return max(0, center-half), min(1, center+half)
}

// sourceOpening is the number of uniformly random plies that open each
// self-play game of a "selfplay:SPEC" source, so that a deterministic SPEC
// still gives varied games.
const sourceOpening = 4

// maxSourceGames bounds the self-play games a source plays without
// reaching the table.
const maxSourceGames = 10000

// positionSource returns a function drawing the next position to score.
func positionSource(cfg AccuracyConfig, g *env.Game) (func() (env.State, error), error) {
	rng := rand.New(rand.NewPCG(cfg.Seed, derive(cfg.Seed, 2)))
	k := cfg.Table.MaxSeeds()
	if k < 1 {
		return nil, fmt.Errorf("evaluate: the table holds no position with seeds (K=%d)", k)
	}
	least := max(cfg.MinSeeds, 1)
	if least > k {
		return nil, fmt.Errorf("evaluate: min seeds %d above the table's K=%d", cfg.MinSeeds, k)
	}
	if cfg.Source == "uniform" {
		return func() (env.State, error) {
			return cfg.Table.Sample(g, least+rng.IntN(k-least+1), rng)
		}, nil
	}
	spec, ok := strings.CutPrefix(cfg.Source, "selfplay:")
	if !ok || spec == "" {
		return nil, fmt.Errorf("evaluate: source %q: want uniform or selfplay:SPEC", cfg.Source)
	}
	player, err := agents.New(spec, derive(cfg.Seed, 3))
	if err != nil {
		return nil, fmt.Errorf("evaluate: source: %w", err)
	}
	var queue []env.State
	games := 0
	return func() (env.State, error) {
		for len(queue) == 0 {
			if games == maxSourceGames {
				return env.State{}, fmt.Errorf("evaluate: %d games of %s never reached %d to %d seeds", games, spec, least, k)
			}
			games++
			agents.Reset(player)
			s := g.Start()
			for ply := 0; !s.Terminal(); ply++ {
				if n := s.RowSeeds(0) + s.RowSeeds(1); n <= k && n >= least {
					queue = append(queue, s)
				}
				legal := s.Legal()
				a := legal.Nth(rng.IntN(legal.Count()))
				if ply >= sourceOpening {
					var err error
					if a, err = player.Act(&s); err != nil {
						return env.State{}, err
					}
					if err := s.Check(a); err != nil {
						return env.State{}, fmt.Errorf("evaluate: source %s: %w", spec, err)
					}
				}
				s.Play(a)
			}
		}
		s := queue[0]
		queue = queue[1:]
		return s, nil
	}, nil
}
