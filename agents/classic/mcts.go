package classic

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/tablebase"
)

func init() {
	agents.Register("mcts",
		"UCT with random rollouts: sims=1000 (per move; 0: no limit, which needs time; 0 is the default when only time is set), "+
			"time=0s (per move, 0: none), "+
			"c=1.4, rollouts=1 (per leaf), cutoff=0 (plies per rollout, 0: to the end), threads=1 (root-parallel trees), "+
			"reward=match_points (or win_loss, seed_margin), reuse=true (keep the subtree between moves), tb=FILE (value leaves from an endgame table)",
		func(p *agents.Params, seed uint64) (agents.Agent, error) {
			cfg := MCTSConfig{
				Sims:    p.Budget("sims", -1, 0, agents.MaxSims), // -1: not given
				Time:    p.TimeBudget("time", 0),
				C:       p.Float("c", 1.4, 0, 100),
				Threads: p.Budget("threads", 1, 1, 256),
				NoReuse: !p.Bool("reuse", true),
			}
			rollouts := p.Budget("rollouts", 1, 1, 1000)
			cutoff := p.Int("cutoff", 0, 0, 100000)
			reward := p.String("reward", env.RewardMatchPoints.String())
			kind, err := env.ParseRewardKind(reward)
			if err != nil {
				p.Fail("reward", reward, "match_points, win_loss or seed_margin")
			}
			switch {
			case cfg.Sims < 0 && cfg.Time == 0:
				cfg.Sims = 1000
			case cfg.Sims < 0:
				cfg.Sims = 0
			case cfg.Sims == 0 && cfg.Time == 0:
				p.Fail("sims", "0", "a positive count (sims=0 means no limit and needs time=..., such as time=1s)")
			}
			cfg.Reward = kind
			cfg.NewEvaluator = func(seed uint64) Evaluator {
				return NewRolloutEvaluator(rollouts, cutoff, kind, seed)
			}
			tb := p.File("tb", "")
			if err := p.Done(); err != nil { // before allocating the trees
				return nil, err
			}
			if err := WithTable(&cfg, tb); err != nil {
				return nil, err
			}
			m, err := NewMCTS(cfg, seed)
			if err == nil && tb != "" {
				m.rulesOf, _ = LoadTable(tb) // loaded once: withTable's
			}
			return m, err
		})
}

// MCTSConfig sets an MCTS search.
type MCTSConfig struct {
	// Sims is the number of simulations per move, over all threads; 0 means
	// no limit, and then Time must be set.
	Sims int
	// Time stops the search after this long per move; 0 means no limit.
	Time time.Duration
	// C is the exploration constant of the selection rule.
	C float64
	// Threads is the number of independent trees searched in parallel, one
	// goroutine each, whose root visit counts are summed (root
	// parallelism); 0 means 1.
	Threads int
	// Reward scores finished games inside the tree.
	Reward env.RewardKind
	// Rule is the selection rule: UCT (the zero value), PUCT with the
	// evaluator's priors (AlphaZero), or Gumbel (Gumbel AlphaZero, whose
	// constants are Gumbel's). Gumbel needs a Sims budget, one thread, and
	// searches every move from an empty tree (its Sequential Halving counts
	// the visits of this search only).
	Rule Rule
	// Gumbel holds the Gumbel rule's constants (zero: the paper's).
	Gumbel GumbelConfig
	// NoReuse starts every move with an empty tree instead of keeping the
	// subtree of the moves actually played.
	NoReuse bool
	// Batch, when above 1, selects up to Batch leaves per tree with virtual
	// loss and evaluates them in one call (mcts_batch.go); it needs the PUCT rule
	// and evaluators that are BatchEvaluators. 0 and 1 evaluate each leaf
	// as it is reached.
	Batch int
	// NewEvaluator returns the evaluator of one search thread, seeded with
	// that thread's seed. Nil means one random rollout to the end, scored by
	// Reward.
	NewEvaluator func(seed uint64) Evaluator
	// Table, when set, ends every simulation that reaches a position the
	// endgame table holds, below the root, as a finished game is ended:
	// valued by Reward at the table's bounds (averaged), not expanded, not
	// evaluated (tb=FILE; see tableReward in tb.go). Batched search backs
	// such a leaf up at once, as it does a finished game.
	Table *tablebase.Table
}

// MCTS is Monte Carlo tree search: UCT over a tree whose leaves are valued
// by an [Evaluator] (random rollouts by default).
//
// Each simulation descends from the root by the selection rule, replaying
// the moves on a copy of the root's state; at a leaf it asks the evaluator
// for a value, and a leaf visited before gets one child per legal move (in
// random order, so ties among unvisited moves are broken at random; with
// PUCT, children are added at the first visit, with the evaluator's priors);
// then it adds the value to every node on the path. A node holds values for the player who
// moved into it. A finished game in the tree is valued by Reward. The move
// played is the most visited one; the visit counts, the value of that move
// for the player to move, and the most-visited line are reported by
// LastSearch (Depth holds the number of simulations, Nodes the tree size).
//
// After a move the subtree under the position actually reached (the agent's
// move and the opponent's reply, recognised with env.State.SamePosition) is
// kept for the next search; Reset drops it.
//
// With Threads > 1 each thread grows its own tree with its own generator and
// evaluator, and the visit counts of the root's children are summed (root
// parallelism). Sims is split between the threads.
//
// # Reproducibility
//
// With a Sims budget the search is reproducible: the same seed and the same
// positions give the same moves, for any number of threads, because each
// thread runs a fixed share of the simulations from its own seed. A Time
// budget makes the number of simulations depend on the machine and its load,
// so moves under a time limit are not reproducible.
//
// # Cost
//
// Simulations allocate nothing in the steady state: nodes are values in a
// slice that grows rarely, and positions are copied by value.
type MCTS struct {
	cfg   MCTSConfig
	trees []*tree
	info  agents.SearchInfo
	// rulesOf, when set, is the endgame table of tb=FILE: Act refuses a
	// position of other rules than the table's.
	rulesOf *tablebase.Table
}

// ErrMCTSConfig is wrapped by the error for an invalid MCTSConfig.
var ErrMCTSConfig = errors.New("agents: bad MCTS config")

// Config returns the search's configuration, its defaults filled in.
func (m *MCTS) Config() MCTSConfig { return m.cfg }

// NewMCTS returns an MCTS agent seeded with seed.
func NewMCTS(cfg MCTSConfig, seed uint64) (*MCTS, error) {
	if cfg.Sims < 0 || cfg.Time < 0 || cfg.C < 0 || cfg.Threads < 0 {
		return nil, fmt.Errorf("%w: negative sims, time, c or threads in %+v", ErrMCTSConfig, cfg)
	}
	if cfg.Sims == 0 && cfg.Time == 0 {
		return nil, fmt.Errorf("%w: no budget: set Sims or Time", ErrMCTSConfig)
	}
	if cfg.Sims > agents.MaxSims {
		return nil, fmt.Errorf("%w: sims %d is over the limit of %d (MaxSims: the tree stays in memory)", ErrMCTSConfig, cfg.Sims, agents.MaxSims)
	}
	if err := checkBatch(&cfg); err != nil {
		return nil, err
	}
	if err := checkGumbel(&cfg); err != nil {
		return nil, err
	}
	cfg.Threads = max(cfg.Threads, 1)
	if cfg.Sims > 0 && cfg.Threads > cfg.Sims {
		cfg.Threads = cfg.Sims
	}
	if cfg.NewEvaluator == nil {
		kind := cfg.Reward
		cfg.NewEvaluator = func(seed uint64) Evaluator { return NewRolloutEvaluator(1, 0, kind, seed) }
	}
	m := &MCTS{cfg: cfg}
	for i := range cfg.Threads {
		m.trees = append(m.trees, newTree(&cfg, splitSeed(seed, 100+i)))
	}
	if err := checkBatchEvaluators(m.trees); err != nil {
		return nil, err
	}
	return m, nil
}

// Reset drops the search trees.
func (m *MCTS) Reset() {
	for _, t := range m.trees {
		t.nodes = t.nodes[:0]
	}
}

// LastSearch reports the last decision.
func (m *MCTS) LastSearch() agents.SearchInfo {
	info := m.info
	info.PV = append([]int(nil), m.info.PV...)
	return info
}

// Act searches s and returns the most visited move.
func (m *MCTS) Act(s *env.State) (int, error) {
	if s.Terminal() {
		return 0, agents.NoMove(s)
	}
	if m.rulesOf != nil {
		if err := m.rulesOf.CheckGame(s.Game()); err != nil {
			return 0, err
		}
	}
	var deadline time.Time
	if m.cfg.Time > 0 {
		deadline = time.Now().Add(m.cfg.Time)
	}
	if len(m.trees) == 1 {
		m.trees[0].search(s, m.cfg.Sims, deadline, m.cfg.NoReuse)
		if m.cfg.Rule == Gumbel {
			return m.decideGumbel(s), nil
		}
	} else {
		var wg sync.WaitGroup
		for i, t := range m.trees {
			sims := 0
			if m.cfg.Sims > 0 {
				sims = m.cfg.Sims / len(m.trees)
				if i < m.cfg.Sims%len(m.trees) {
					sims++
				}
			}
			// Arguments, not captures: a captured deadline would move to
			// the heap at every move, threads or not.
			wg.Add(1)
			go func(t *tree, sims int, deadline time.Time) {
				defer wg.Done()
				t.search(s, sims, deadline, m.cfg.NoReuse)
			}(t, sims, deadline)
		}
		wg.Wait()
	}
	return m.decide(s), nil
}

// search runs sims simulations (0: no limit) or until the deadline (zero: none)
// from s.
func (t *tree) search(s *env.State, sims int, deadline time.Time, noReuse bool) {
	if t.batch > 1 {
		t.searchBatched(s, sims, deadline, noReuse)
		return
	}
	if noReuse {
		t.reset(s)
	} else {
		t.advance(s)
	}
	if t.rule == Gumbel {
		t.beginGumbel(sims)
	}
	timed := !deadline.IsZero()
	for i := 0; (sims == 0 || i < sims) && len(t.nodes) < maxTreeNodes; i++ {
		// Reading the clock costs about as much as a short rollout, so it
		// is read every 16 simulations.
		if timed && i > 0 && i&15 == 0 && time.Now().After(deadline) {
			break
		}
		t.simulate()
	}
}

// decide sums the root statistics of the trees, records them in m.info and
// returns the most visited action (the lowest on a tie).
func (m *MCTS) decide(s *env.State) int {
	var visits [env.MaxActions]int
	var value [env.MaxActions]float64
	info := agents.SearchInfo{}
	for _, t := range m.trees {
		r := &t.nodes[0]
		info.Depth += int(r.visits)
		info.Nodes += int64(t.size())
		t.addRoot(&visits, &value)
	}
	best := s.Legal().Nth(0)
	for a := range visits {
		if visits[a] > visits[best] {
			best = a
		}
	}
	info.Visits = visits
	if visits[best] > 0 {
		info.Value = value[best] / float64(visits[best])
	}
	// The line below the chosen move follows the first tree's most visited
	// children.
	t := m.trees[0]
	info.PV = t.line(t.child(0, best), append(m.info.PV[:0], best))
	m.info = info
	return best
}

// String describes the configuration.
func (m *MCTS) String() string {
	return fmt.Sprintf("mcts:sims=%d,time=%s,c=%g,threads=%d,reward=%s", m.cfg.Sims, m.cfg.Time, m.cfg.C, m.cfg.Threads, m.cfg.Reward)
}
