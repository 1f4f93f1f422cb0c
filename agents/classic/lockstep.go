package classic

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// LockstepConfig sets a [Lockstep]: the search of its trees (one
// configuration with the mcts and az agents', [MCTSConfig]) and the way
// [Lockstep.Play] plays moves ([SelfPlayPolicy]). The zero value of each
// field but Games and Search.Sims is a sensible default, as its comment
// says.
type LockstepConfig struct {
	// Games is the number of games searched together, each with its own
	// tree (the batch of the network is Games × Search.Batch). At least 1.
	Games int
	// Search is every tree's search. Sims is the number of simulations of
	// a full search (per move, on top of the visits kept from the previous
	// move), at least 1; Rule must be PUCT or Gumbel (the network gives
	// priors; Gumbel searches every move from an empty tree, its noise set
	// by Gumbel.Noise, and chooses the move itself, see [RootSearch]); C
	// is the exploration constant, 0 meaning 1.5; Batch is the number of
	// leaves each tree selects per round, with virtual loss, 0 meaning 1
	// (the plain PUCT search, round after round); Reward scores finished
	// games inside the trees (it should be what the value head was trained
	// on); NoReuse starts every search with an empty tree instead of
	// keeping the subtree of the move played; Table, when set, ends the
	// simulations that reach a position the endgame table holds (below
	// the root) with the table's value, and must be for the network's
	// rules. Time, Threads and NewEvaluator are not used.
	Search MCTSConfig
	// NoiseAlpha and NoiseFrac mix Dirichlet noise Dir(NoiseAlpha) into the
	// priors of the root's children at every full search: P ← (1 −
	// NoiseFrac)·P + NoiseFrac·η. NoiseFrac 0 means no noise, NoiseAlpha 0
	// means 1. The Gumbel rule ignores them (its noise is Search.Gumbel's).
	NoiseAlpha, NoiseFrac float64
	// RootTemp, when neither 0 nor 1, is KataGo's root policy temperature:
	// at every full search the priors of the root's children become
	// P^(1/RootTemp), renormalised, before the noise (above 1 flattens
	// them, so the search tries more moves the network rates low).
	RootTemp float64
	// ForcedK, above 0, turns on KataGo's forced playouts and policy target
	// pruning at the root of every full search (mcts_forced.go) with
	// n_forced = √(ForcedK·P·N); KataGo uses 2. The Gumbel rule ignores it.
	ForcedK float64
	// Moves is how Play plays each move: playout-cap randomization,
	// temperatures, resignation and the games' starts.
	Moves SelfPlayPolicy
	// NetClock, when set, is a second clock that times the forward passes,
	// for Stats.NetClockTime: a benchmark on a shared machine passes the
	// process's CPU time, which does not count the time the process waits.
	NetClock func() time.Duration
}

// ErrLockstepConfig is wrapped by the error for an invalid LockstepConfig.
var ErrLockstepConfig = errors.New("agents: bad lock-step config")

// Check validates c and fills in its defaults.
func (c *LockstepConfig) Check() error {
	sc := &c.Search
	switch {
	case c.Games < 1:
		return fmt.Errorf("%w: games %d: want at least 1", ErrLockstepConfig, c.Games)
	case sc.Sims < 1 || sc.Sims > agents.MaxSims:
		return fmt.Errorf("%w: sims %d: want 1 to %d (MaxSims)", ErrLockstepConfig, sc.Sims, agents.MaxSims)
	case !sc.Rule.priors():
		return fmt.Errorf("%w: rule %s: the lock-step search needs the %s or %s rule (the network's priors)", ErrLockstepConfig, sc.Rule, PUCT, Gumbel)
	case sc.Batch < 0 || sc.Batch > MaxBatch:
		return fmt.Errorf("%w: leaves %d: want 0 to %d", ErrLockstepConfig, sc.Batch, MaxBatch)
	case !(sc.C >= 0 && sc.C <= 100):
		return fmt.Errorf("%w: c %g: want 0 to 100", ErrLockstepConfig, sc.C)
	case !(c.NoiseFrac >= 0 && c.NoiseFrac <= 1) || !(c.NoiseAlpha >= 0 && c.NoiseAlpha <= 1000):
		return fmt.Errorf("%w: noise alpha %g, fraction %g: want alpha 0 to 1000 and fraction 0 to 1", ErrLockstepConfig, c.NoiseAlpha, c.NoiseFrac)
	case !(c.ForcedK >= 0 && c.ForcedK <= 100):
		return fmt.Errorf("%w: forced playouts k %g: want 0 (none) to 100", ErrLockstepConfig, c.ForcedK)
	case c.RootTemp != 0 && !(c.RootTemp >= 0.1 && c.RootTemp <= 10):
		return fmt.Errorf("%w: root policy temperature %g: want 0 (none) or 0.1 to 10", ErrLockstepConfig, c.RootTemp)
	}
	if err := c.Moves.check(); err != nil {
		return err
	}
	if sc.Rule == Gumbel {
		if err := sc.Gumbel.check(); err != nil {
			return fmt.Errorf("%w: %w", ErrLockstepConfig, err)
		}
		sc.NoReuse = true
	}
	sc.Batch = max(sc.Batch, 1)
	if sc.C == 0 {
		sc.C = 1.5
	}
	if c.NoiseAlpha == 0 {
		c.NoiseAlpha = 1
	}
	return nil
}

// Lockstep searches many games at once for self-play: every game has its
// own PUCT tree, and each round selects up to Search.Batch leaves in every
// tree (with virtual loss) and evaluates all of them in one forward pass of
// the network, so the network sees batches of Games × Search.Batch
// positions even though each tree is searched a leaf or a few at a time.
//
// [Lockstep.Play] plays whole games with the self-play driver ([SelfPlay])
// and reports every move: the visit distribution and root value a training
// loop records, with root Dirichlet noise, a temperature schedule over
// plies, playout-cap randomization and resignation as the config says.
// [Lockstep.Search] is the step underneath, which the driver calls.
//
// With one game, no noise and temperature 0, a Lockstep plays the same moves
// as the az agent with the same seed, simulations, c and batch: they share
// the tree code and the seeding.
//
// A Lockstep is for one goroutine. It is reproducible: the same seed,
// config and network give the same games. Its searches allocate nothing
// once its arenas and the network's buffers have grown.
type Lockstep struct {
	cfg   LockstepConfig
	game  *env.Game
	games GameCheck
	trees []*tree
	eval  LockstepEvaluator
	rng   *rand.Rand
	left  []int  // simulations still to run, per game, in Search
	noise []bool // noise to add once the root is expanded, per game
	stats LockstepStats
	// scratch is the position the descents of every tree replay moves on.
	scratch env.State
}

// LockstepStats counts the work of a Lockstep since it was made.
type LockstepStats struct {
	// Sims counts simulations, Rounds the forward passes, Positions the
	// positions they evaluated (Positions / Rounds is the mean batch).
	Sims, Rounds, Positions int64
	// NetTime is the wall time spent in the network's forward passes; the
	// rest of a search's time is the search's own (descents, encoding,
	// priors' softmax, expansions, backups). NetClockTime is the same
	// measured by Config().NetClock (0 without).
	NetTime, NetClockTime time.Duration
}

// Stats returns the counts of the searches so far.
func (l *Lockstep) Stats() LockstepStats { return l.stats }

// RootSearch is the result of one search at one root.
type RootSearch struct {
	// Visits counts the visits of each root child (the subtree kept from
	// the previous move included); 0 for illegal actions.
	Visits [env.MaxActions]int
	// Policy is the policy target: Visits normalised to sum to 1, or under
	// the Gumbel rule the improved policy softmax(logits + σ(completed Q)).
	Policy [env.MaxActions]float32
	// Gumbel tells a Gumbel search, whose own choice of move is Action
	// (which Choose plays at every temperature: the Gumbel noise is the
	// exploration).
	Gumbel bool
	Action int
	// Q is the mean value of each visited child for the player to move.
	Q [env.MaxActions]float32
	// Value is the mean value of all simulations through the root for the
	// player to move: the root value.
	Value float32
	// Sims is the number of simulations this search ran.
	Sims int
	// Full tells a full search from a fast one (playout-cap
	// randomization); searches through Search report what they were asked.
	Full bool
}

// LockstepJob asks Search for one game's search.
type LockstepJob struct {
	// State is the position to search, ongoing; nil leaves the game's tree
	// idle this time.
	State *env.State
	// Sims is the number of simulations, at least 1.
	Sims int
	// Noise mixes root noise into this search (if the config has some).
	Noise bool
	// Full is copied to the result.
	Full bool
}

// LockstepEvaluator is the evaluator of a [Lockstep]: a [BatchEvaluator]
// that also tells how many positions wait for its next Flush.
type LockstepEvaluator interface {
	BatchEvaluator
	Queued() int
}

// newLockstepOn returns a lock-step search of the games of g whose leaves
// are valued by newEval(rows), an evaluator of batches of up to rows =
// cfg.Games × cfg.Search.Batch positions (called once cfg is checked and
// its defaults filled in).
func NewLockstep(g *env.Game, cfg LockstepConfig, newEval func(rows int) LockstepEvaluator, seed uint64) (*Lockstep, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	l := &Lockstep{
		cfg:   cfg,
		game:  g,
		eval:  newEval(cfg.Games * cfg.Search.Batch),
		rng:   rand.New(rand.NewPCG(seed, 0x6c6f636b73746570)),
		left:  make([]int, cfg.Games),
		noise: make([]bool, cfg.Games),
		games: GameCheck{Net: g, What: "the lock-step search's network"},
	}
	tc := cfg.Search
	tc.NewEvaluator = func(uint64) Evaluator { return l.eval }
	for i := range cfg.Games {
		l.trees = append(l.trees, newTree(&tc, splitSeed(seed, 100+i)))
	}
	return l, nil
}

// Config returns the configuration, with its defaults filled in.
func (l *Lockstep) Config() LockstepConfig { return l.cfg }

// Reset drops every tree.
func (l *Lockstep) Reset() {
	for _, t := range l.trees {
		t.nodes = t.nodes[:0]
	}
}

// Search runs jobs[i] in game i's tree, all in lock-step, and writes the
// results to out[i] (out[i] is left alone for an idle job). len(jobs) must
// not exceed Games and out must be as long as jobs. Each tree first moves
// to its job's position, keeping the subtree under it if the position is
// the root, a child or a grandchild of the previous one (unless NoReuse).
// A search of one simulation on a fresh root runs two (the first only
// expands the root), so that every search visits a legal move.
// It panics on a finished position or on a game other than the network's
// (caller bugs).
func (l *Lockstep) Search(jobs []LockstepJob, out []RootSearch) {
	if len(jobs) > len(l.trees) || len(out) < len(jobs) {
		panic(fmt.Sprintf("agents: Lockstep.Search: %d jobs and %d results for %d games", len(jobs), len(out), len(l.trees)))
	}
	for i := range jobs {
		j := &jobs[i]
		l.left[i], l.noise[i] = 0, false
		if j.State == nil {
			continue
		}
		if j.State.Terminal() {
			panic(fmt.Sprintf("agents: Lockstep.Search: position %v is finished", j.State))
		}
		if err := l.games.Check(j.State); err != nil {
			panic("agents: Lockstep.Search: " + err.Error())
		}
		t := l.trees[i]
		if l.cfg.Search.NoReuse {
			t.reset(j.State)
		} else {
			t.advance(j.State)
		}
		l.left[i] = max(j.Sims, 1)
		if l.left[i] == 1 && t.nodes[0].kids == 0 {
			// A fresh root's first simulation only expands it: alone, it
			// would leave no visited move to play and an empty policy
			// target. One more visits a child.
			l.left[i] = 2
		}
		l.noise[i] = j.Noise && (l.cfg.NoiseFrac > 0 || l.tempered()) && t.rule != Gumbel
		t.forced = 0
		if j.Full && t.rule == PUCT {
			t.forced = float32(l.cfg.ForcedK)
		}
		if t.rule == Gumbel {
			t.beginGumbel(l.left[i])
		}
		l.addNoise(i)
	}
	// Each round scatters the results of the last forward pass into a tree
	// and gathers that tree's next leaves at once, while its top nodes and
	// root are in the cache (the forward pass evicts them); trees are
	// independent, so this is the same search as all scatters, then all
	// gathers.
	for {
		active := false
		for i, t := range l.trees[:len(jobs)] {
			more := l.left[i] > 0
			if more {
				// The first descent's copy of the root goes first: its cache
				// misses then overlap those of the scatter instead of
				// following them (the scatter leaves the root alone).
				l.scratch = t.root
			}
			if len(t.pend) > 0 {
				t.scatter(l.eval)
			}
			l.addNoise(i)
			if more {
				n := t.gather(min(l.cfg.Search.Batch, l.left[i]), l.eval, &l.scratch, true)
				l.left[i] -= n
				l.stats.Sims += int64(n)
				active = true
			}
		}
		if !active {
			break
		}
		if rows := l.eval.Queued(); rows > 0 {
			var c0 time.Duration
			if l.cfg.NetClock != nil {
				c0 = l.cfg.NetClock()
			}
			start := time.Now()
			l.eval.Flush()
			l.stats.NetTime += time.Since(start)
			if l.cfg.NetClock != nil {
				l.stats.NetClockTime += l.cfg.NetClock() - c0
			}
			l.stats.Rounds++
			l.stats.Positions += int64(rows)
		}
	}
	for i := range jobs {
		if jobs[i].State != nil {
			l.result(i, &jobs[i], &out[i])
		}
	}
}

// addNoise mixes the root noise of game i into its tree once its root is
// expanded.
func (l *Lockstep) addNoise(i int) {
	if t := l.trees[i]; l.noise[i] && t.nodes[0].kids > 0 {
		if l.tempered() {
			t.temperRoot(l.cfg.RootTemp)
		}
		if l.cfg.NoiseFrac > 0 {
			t.addRootNoise(l.rng, l.cfg.NoiseAlpha, l.cfg.NoiseFrac)
		}
		l.noise[i] = false
	}
}

// tempered reports whether full searches temper the root's priors.
func (l *Lockstep) tempered() bool { return l.cfg.RootTemp != 0 && l.cfg.RootTemp != 1 }

// result reads game i's root into r.
func (l *Lockstep) result(i int, j *LockstepJob, r *RootSearch) {
	t := l.trees[i]
	*r = RootSearch{Sims: max(j.Sims, 1), Full: j.Full}
	root := &t.nodes[0]
	if root.visits > 0 {
		r.Value = -root.value / float32(root.visits)
	}
	sum := 0
	for k := root.first; k < root.first+int32(root.kids); k++ {
		c := &t.nodes[k]
		r.Visits[c.action] = int(c.visits)
		if c.visits > 0 {
			r.Q[c.action] = c.value / float32(c.visits)
		}
		sum += int(c.visits)
	}
	if t.rule == Gumbel {
		r.Gumbel = true
		r.Action = t.gumbelDecide(&r.Policy)
		return
	}
	if t.forced > 0 && t.prunedPolicy(t.forced, &r.Policy) {
		return
	}
	if sum > 0 {
		for a, v := range r.Visits {
			r.Policy[a] = float32(v) / float32(sum)
		}
	}
}

// Choose picks a move from a search: the most visited (the lowest action on
// a tie) at temperature 0, otherwise a draw with probability proportional to
// visits^(1/temp), from the Lockstep's generator. A Gumbel search's move is
// its own (r.Action), at every temperature.
func (l *Lockstep) Choose(r *RootSearch, temp float64) int {
	if r.Gumbel {
		return r.Action
	}
	return chooseByVisits(&r.Visits, temp, l.rng)
}

// chooseByVisits implements Choose.
func chooseByVisits(visits *[env.MaxActions]int, temp float64, rng *rand.Rand) int {
	best := 0
	for a, v := range visits {
		if v > visits[best] {
			best = a
		}
	}
	if temp == 0 || visits[best] == 0 {
		return best
	}
	var w [env.MaxActions]float64
	var sum float64
	for a, v := range visits {
		if v > 0 {
			w[a] = math.Pow(float64(v)/float64(visits[best]), 1/temp)
			sum += w[a]
		}
	}
	x := rng.Float64() * sum
	for a := range w {
		if x < w[a] {
			return a
		}
		x -= w[a]
	}
	return best // rounding: x landed past the last weight
}

// Play plays n games in lock-step with the self-play driver ([SelfPlay]):
// Games at a time, the moves as Config().Moves says, drawing from the
// Lockstep's generator. A hook error or the context's end stops the games
// and is returned.
func (l *Lockstep) Play(ctx context.Context, n int, hook func(*SelfPlayMove) error) error {
	d := SelfPlay{Searcher: l, Game: l.game, Games: len(l.trees), Sims: l.cfg.Search.Sims, Moves: l.cfg.Moves, Rand: l.rng,
		Check: l.games.Check}
	return d.Play(ctx, n, hook)
}
