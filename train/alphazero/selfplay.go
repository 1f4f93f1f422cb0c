package alphazero

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/train"
)

// searcher is the lock-step search self-play drives: agents.Lockstep.
type searcher interface {
	Search(jobs []agents.LockstepJob, out []agents.RootSearch)
	Choose(r *agents.RootSearch, temp float64) int
}

// selfPlayStats sums up one iteration's self-play.
type selfPlayStats struct {
	games, positions, plies int
	resigned, falseResign   int
	neverResign             int
	records                 []evaluate.Record
}

// slot is one game in progress.
type slot struct {
	id          int // game index within the iteration; -1 when idle
	state       env.State
	opening     []int
	moves       []int
	neverResign bool
	low         [2]int  // consecutive searched moves below the threshold, per player
	would       [2]bool // a never-resign game's player would have resigned
	// rec records the game: a row for every fully searched move.
	rec *dataset.Recorder
}

// selfPlay plays one iteration's games with the lock-step search and keeps
// every game, with a row for each fully searched position, in the window
// (which adds them at the end of the iteration), and the games that were
// not resigned in log (nil: none). Game ids continue from firstGame.
// progress, if set, is called after each finished game.
func selfPlay(ctx context.Context, cfg *train.Config, g *env.Game, enc env.Encoding, reward env.RewardKind,
	ls searcher, win *window, log *train.GameLog, it int, firstGame int64, progress func(done, total int)) (*selfPlayStats, error) {
	sp := cfg.SelfPlay
	n := sp.GamesPerIteration
	rng := rand.New(rand.NewPCG(train.Derive(cfg.Seed, 0x73656c66, uint64(it)), 1))
	slots := make([]slot, min(sp.ParallelGames, n))
	jobs := make([]agents.LockstepJob, len(slots))
	out := make([]agents.RootSearch, len(slots))
	st := &selfPlayStats{}
	custom := customRules(g)
	next := 0
	spec := fmt.Sprintf("selfplay:iter=%d", it)
	start := func(sl *slot) {
		sl.id = next
		next++
		seed := train.Derive(cfg.Seed, 0x6f70656e, uint64(it), uint64(sl.id))
		sl.opening = g.RandomOpening(sp.OpeningPlies, seed)
		sl.state = g.Start()
		for _, a := range sl.opening {
			sl.state.Play(a)
		}
		sl.moves = append(sl.moves[:0], sl.opening...)
		sl.neverResign = rng.Float64() < sp.Resign.NeverShare
		sl.low, sl.would = [2]int{}, [2]bool{}
		if sl.neverResign {
			st.neverResign++
		}
		if sl.rec == nil {
			sl.rec = dataset.NewRecorder(g, enc, reward)
		}
		sl.rec.Start(firstGame+int64(sl.id), seed, [2]string{spec, spec}, sl.opening)
	}
	finish := func(sl *slot, resigner int) {
		var game *dataset.Game
		if resigner >= 0 {
			game = sl.rec.Resign(&sl.state, resigner)
			st.resigned++
		} else {
			game = sl.rec.Finish(&sl.state)
			outcome := sl.state.Rewards(reward)
			for p := 0; p < 2; p++ {
				if sl.would[p] && outcome[p] >= 0 {
					st.falseResign++
				}
			}
			log.Keep(game)
		}
		win.keep(game)
		st.games++
		st.positions += game.Record.Positions
		st.plies += len(sl.moves)
		if resigner < 0 && sl.id < sp.SampleGames {
			s := &sl.state
			st.records = append(st.records, evaluate.Record{
				Rules: g.Name(), MaxPlies: g.Rules().MaxPlies, CustomRules: custom,
				Players: [2]string{"selfplay", "selfplay"},
				Specs:   [2]string{spec, spec},
				Seed:    uint64(firstGame) + uint64(sl.id), Index: sl.id,
				Opening: append([]int{}, sl.opening...), Moves: append([]int{}, sl.moves...),
				Stores: s.FinalStores(), MatchPoints: s.MatchPoints(), Reason: s.Reason().String(), Plies: len(sl.moves)})
		}
		sl.id = -1
		if progress != nil {
			progress(st.games, n)
		}
	}
	for i := range slots {
		slots[i].id = -1
	}
	pc := cfg.Search.PlayoutCap
	for {
		running := 0
		for i := range slots {
			sl := &slots[i]
			if sl.id < 0 && next < n {
				start(sl)
				for sl.state.Terminal() { // an opening that ended the game (tiny boards)
					finish(sl, -1)
					if next >= n {
						break
					}
					start(sl)
				}
			}
			jobs[i] = agents.LockstepJob{}
			if sl.id < 0 {
				continue
			}
			running++
			full := !pc.Enabled || rng.Float64() < pc.FullShare
			jobs[i] = agents.LockstepJob{State: &sl.state, Sims: cfg.Search.Sims, Noise: full, Full: full}
			if !full {
				jobs[i].Sims = pc.FastSims
			}
		}
		if running == 0 {
			return st, nil
		}
		if err := ctx.Err(); err != nil {
			return st, err
		}
		ls.Search(jobs, out)
		for i := range slots {
			sl := &slots[i]
			if sl.id < 0 {
				continue
			}
			r := &out[i]
			s := &sl.state
			mover := s.ToMove()
			if jobs[i].Full {
				if th := sp.Resign.Threshold; th != 0 {
					if float64(r.Value) < th {
						sl.low[mover]++
					} else {
						sl.low[mover] = 0
					}
					if sl.low[mover] >= sp.Resign.Consecutive {
						if !sl.neverResign {
							finish(sl, mover)
							continue
						}
						sl.would[mover] = true
					}
				}
			}
			temp := cfg.Search.FinalTemperature
			if s.Ply() < cfg.Search.TemperaturePlies {
				temp = cfg.Search.Temperature
			}
			a := ls.Choose(r, temp)
			if jobs[i].Full {
				sl.rec.Add(s, a, &dataset.Search{Policy: r.Policy, Value: r.Value})
			} else {
				sl.rec.Skip(s, a)
			}
			s.Play(a)
			sl.moves = append(sl.moves, a)
			if s.Terminal() {
				finish(sl, -1)
			}
		}
	}
}

// customRules returns g's rules for a game record when they are not a
// preset's (records then carry them whole), else nil.
func customRules(g *env.Game) *env.Rules {
	r := g.Rules()
	if p, err := env.PresetRules(r.Name); err == nil {
		p.MaxPlies = r.MaxPlies
		if reflect.DeepEqual(p, r) {
			return nil
		}
	}
	return &r
}
