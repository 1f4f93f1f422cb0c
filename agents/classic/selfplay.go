package classic

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// SelfPlayPolicy is how the self-play driver ([SelfPlay]) plays each move
// after its search. The zero value searches every move fully, plays the
// most visited move, never resigns and starts every game from the rules'
// start.
type SelfPlayPolicy struct {
	// FastSims, when above 0, turns on playout-cap randomization: a move
	// gets a full search with probability FullProb and a fast search of
	// FastSims simulations, without root noise, otherwise. 0 makes every
	// search full.
	FastSims int
	// FullProb is the probability of a full search when FastSims > 0.
	FullProb float64
	// BoostSims, when above the driver's Sims, is the simulations of a
	// full search at a position with BoostMinSeeds to BoostMaxSeeds seeds
	// on the board: deeper searches, so better policy targets, in a band of
	// endgames (the layers just beyond an endgame table, say). 0: none.
	BoostSims                    int
	BoostMinSeeds, BoostMaxSeeds int
	// Temperature chooses the moves of the first TempPlies plies of a game
	// (by its ply counter) by sampling the visit counts raised to
	// 1/Temperature; FinalTemp is used after them. A temperature of 0
	// plays the most visited move (the lowest action on a tie), so the zero
	// value plays greedily throughout.
	Temperature float64
	TempPlies   int
	FinalTemp   float64
	// Resign lets a player give up a lost game.
	Resign Resign
	// Start returns the starting position of the game-th game (an opening,
	// say); nil starts every game from the rules' start.
	Start func(game int) env.State
}

// Resign is the resignation rule of self-play.
type Resign struct {
	// Threshold resigns for the player to move once the root value of its
	// full searches has been below it Consecutive times in a row; 0 never
	// resigns. Otherwise in (−1, 0).
	Threshold   float64
	Consecutive int
	// NeverShare is the share of games, drawn as each starts, that never
	// resign: their moves report WouldResign instead, so that a caller can
	// count the resignations that would have been wrong.
	NeverShare float64
}

func (p *SelfPlayPolicy) check() error {
	r := p.Resign
	switch {
	case p.FastSims < 0 || p.FastSims > agents.MaxSims:
		return fmt.Errorf("%w: fast sims %d: want 0 to %d (MaxSims)", ErrLockstepConfig, p.FastSims, agents.MaxSims)
	case p.BoostSims < 0 || p.BoostSims > agents.MaxSims:
		return fmt.Errorf("%w: endgame boost sims %d: want 0 to %d (MaxSims)", ErrLockstepConfig, p.BoostSims, agents.MaxSims)
	case p.BoostSims > 0 && (p.BoostMinSeeds < 0 || p.BoostMaxSeeds < p.BoostMinSeeds):
		return fmt.Errorf("%w: endgame boost seeds %d to %d: want 0 ≤ min ≤ max", ErrLockstepConfig, p.BoostMinSeeds, p.BoostMaxSeeds)
	case !(p.FullProb >= 0 && p.FullProb <= 1):
		return fmt.Errorf("%w: full-search probability %g: want 0 to 1", ErrLockstepConfig, p.FullProb)
	case !(p.Temperature >= 0 && p.Temperature <= 100) || !(p.FinalTemp >= 0 && p.FinalTemp <= 100) || p.TempPlies < 0:
		return fmt.Errorf("%w: temperatures %g, %g after %d plies: want 0 to 100 and plies ≥ 0", ErrLockstepConfig, p.Temperature, p.FinalTemp, p.TempPlies)
	case r.Threshold != 0 && !(r.Threshold > -1 && r.Threshold < 0):
		return fmt.Errorf("%w: resign threshold %g: want 0 (never) or (−1, 0)", ErrLockstepConfig, r.Threshold)
	case r.Threshold != 0 && r.Consecutive < 1:
		return fmt.Errorf("%w: resign after %d moves: want at least 1", ErrLockstepConfig, r.Consecutive)
	case !(r.NeverShare >= 0 && r.NeverShare <= 1):
		return fmt.Errorf("%w: never-resign share %g: want 0 to 1", ErrLockstepConfig, r.NeverShare)
	}
	return nil
}

// boosted reports whether a full search at s gets BoostSims.
func (p *SelfPlayPolicy) boosted(s *env.State) bool {
	if p.BoostSims == 0 {
		return false
	}
	n := s.RowSeeds(0) + s.RowSeeds(1)
	return n >= p.BoostMinSeeds && n <= p.BoostMaxSeeds
}

// temperature returns the move temperature at ply.
func (p *SelfPlayPolicy) temperature(ply int) float64 {
	if ply < p.TempPlies {
		return p.Temperature
	}
	return p.FinalTemp
}

// SelfPlayMove is one move of the self-play driver ([SelfPlay.Play],
// [Lockstep.Play]).
type SelfPlayMove struct {
	// Game is the index of the game, from 0, in the order games started.
	Game int
	// Before is the position searched; it is valid only during the hook.
	Before *env.State
	// Action is the move played; −1 when none was: the mover resigned
	// (Resigned), or the game's start was already finished (Final is then
	// Before).
	Action int
	// Temperature is the temperature the move was chosen at.
	Temperature float64
	// Search is the search at Before: visits, policy target, root value,
	// and whether it was a full search.
	Search RootSearch
	// Final is the position after the move when the move ended the game
	// (finished or truncated by the ply cap), else nil; valid only during
	// the hook.
	Final *env.State
	// Resigned tells that the player to move at Before resigned after its
	// search: the game ends there, lost for it.
	Resigned bool
	// NeverResign tells that the game is one of Resign.NeverShare's, and
	// WouldResign that the mover would have resigned here had it not been.
	NeverResign, WouldResign bool
}

// SelfPlaySearcher is the lock-step search the driver plays with: a
// [Lockstep], or a stand-in in tests.
type SelfPlaySearcher interface {
	// Search runs jobs[i] in game i's tree into out[i] (see
	// [Lockstep.Search]).
	Search(jobs []LockstepJob, out []RootSearch)
	// Choose picks a move from a search at a temperature.
	Choose(r *RootSearch, temp float64) int
}

// SelfPlay is the lock-step self-play driver, the one loop that plays
// self-play games with a lock-step search: training's, `urim bench az`'s,
// `urim selfplay`'s with an az agent (dataset.SelfPlay) and
// [Lockstep.Play]'s. Games games are searched at a time (a finished game's
// tree takes the next), each move as Moves says.
type SelfPlay struct {
	Searcher SelfPlaySearcher
	// Game is the rules of the games.
	Game *env.Game
	// Games is the number of games in lock-step, at most the searcher's.
	Games int
	// Sims is the simulations of a full search.
	Sims int
	// Moves is the per-move policy.
	Moves SelfPlayPolicy
	// Rand draws the playout caps and the never-resign games.
	Rand *rand.Rand
	// Check, if set, checks each game's start (a game of the searcher's
	// rules, say).
	Check func(*env.State) error
}

// driverSlot is a game being played in one tree.
type driverSlot struct {
	state env.State
	game  int // index in the games; -1 when idle
	full  bool
	never bool   // a never-resign game
	low   [2]int // consecutive full searches below the threshold, per player
}

// Play plays n games and calls hook after every move, in a fixed order:
// rounds of one move per running game, by tree. A hook error or the
// context's end stops the games and is returned.
func (d *SelfPlay) Play(ctx context.Context, n int, hook func(*SelfPlayMove) error) error {
	p := &d.Moves
	if err := p.check(); err != nil {
		return err
	}
	slots := make([]driverSlot, d.Games)
	jobs := make([]LockstepJob, d.Games)
	out := make([]RootSearch, d.Games)
	var m SelfPlayMove
	var after env.State // the position after the move reported to the hook
	next := 0
	for i := range slots {
		slots[i].game = -1
	}
	// start begins the next game in sl; a game whose start is finished is
	// reported and ends at once.
	start := func(sl *driverSlot) error {
		for sl.game < 0 && next < n {
			sl.game, sl.state = next, d.Game.Start()
			if p.Start != nil {
				sl.state = p.Start(next)
			}
			next++
			if d.Check != nil {
				if err := d.Check(&sl.state); err != nil {
					return fmt.Errorf("agents: self-play: game %d: %w", sl.game, err)
				}
			}
			sl.low = [2]int{}
			sl.never = p.Resign.Threshold != 0 && d.Rand.Float64() < p.Resign.NeverShare
			if sl.state.Terminal() {
				m = SelfPlayMove{Game: sl.game, Before: &sl.state, Action: -1, Final: &sl.state, NeverResign: sl.never}
				if err := hook(&m); err != nil {
					return err
				}
				sl.game = -1
			}
		}
		return nil
	}
	for {
		running := 0
		for i := range slots {
			sl := &slots[i]
			if err := start(sl); err != nil {
				return err
			}
			jobs[i] = LockstepJob{}
			if sl.game < 0 {
				continue
			}
			running++
			sl.full = p.FastSims == 0 || d.Rand.Float64() < p.FullProb
			jobs[i] = LockstepJob{State: &sl.state, Sims: d.Sims, Noise: sl.full, Full: sl.full}
			if !sl.full {
				jobs[i].Sims = p.FastSims
			} else if p.boosted(&sl.state) {
				jobs[i].Sims = max(d.Sims, p.BoostSims)
			}
		}
		if running == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		d.Searcher.Search(jobs, out)
		for i := range slots {
			sl := &slots[i]
			if sl.game < 0 {
				continue
			}
			m = SelfPlayMove{Game: sl.game, Before: &sl.state, Search: out[i], NeverResign: sl.never}
			if th := p.Resign.Threshold; th != 0 && sl.full {
				mover := sl.state.ToMove()
				if float64(out[i].Value) < th {
					sl.low[mover]++
				} else {
					sl.low[mover] = 0
				}
				if sl.low[mover] >= p.Resign.Consecutive {
					if !sl.never {
						m.Action, m.Resigned = -1, true
						if err := hook(&m); err != nil {
							return err
						}
						sl.game = -1
						continue
					}
					m.WouldResign = true
				}
			}
			m.Temperature = p.temperature(sl.state.Ply())
			m.Action = d.Searcher.Choose(&out[i], m.Temperature)
			after = sl.state
			after.Play(m.Action)
			if after.Terminal() {
				m.Final = &after
			}
			if err := hook(&m); err != nil {
				return err
			}
			sl.state = after
			if sl.state.Terminal() {
				sl.game = -1
			}
		}
	}
}
