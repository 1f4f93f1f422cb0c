package alphazero

import (
	"context"
	"fmt"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/train"
)

// player plays self-play games in lock-step and reports every move: an
// agents.Lockstep (which drives its games with agents.SelfPlay), or the
// same driver over a stand-in search in tests.
type player interface {
	Play(ctx context.Context, n int, hook func(*classic.SelfPlayMove) error) error
}

// selfPlayStats sums up one iteration's self-play.
type selfPlayStats struct {
	games, positions, plies int
	resigned, falseResign   int
	neverResign             int
	records                 []evaluate.Record
}

// openings are an iteration's random openings: game k's is drawn from the
// run's seed, the iteration and k alone.
type openings struct {
	g     *env.Game
	plies int
	seed  uint64
	it    int
}

// of returns game k's opening moves and the seed they were drawn from.
func (o openings) of(k int) ([]int, uint64) {
	seed := train.Derive(o.seed, 0x6f70656e, uint64(o.it), uint64(k))
	return o.g.RandomOpening(o.plies, seed), seed
}

// start returns game k's starting position, after its opening.
func (o openings) start(k int) env.State {
	moves, _ := o.of(k)
	s := o.g.Start()
	for _, a := range moves {
		s.Play(a)
	}
	return s
}

// game is one game in play: its recorder and whether each player would
// have resigned (in a never-resign game).
type game struct {
	rec   *dataset.Recorder
	would [2]bool
}

// sink receives self-play's games as they finish: the window, or a
// worker's publisher (Play).
type sink interface{ keep(g *dataset.Game) }

// failingSink is a sink that can fail (a worker whose server is gone):
// self-play stops with its error.
type failingSink interface {
	sink
	err() error
}

// selfPlay plays one iteration's games with pl, which starts game k from
// open.start(k), and keeps every game, with a row for each fully searched
// position, in the window (which adds them at the end of the iteration),
// and the games that were not resigned in log (nil: none). Game ids
// continue from firstGame. progress, if set, is called after each finished
// game.
func selfPlay(ctx context.Context, cfg *train.Config, g *env.Game, enc env.Encoding, reward env.RewardKind,
	pl player, open openings, win sink, log *train.GameLog, it int, firstGame int64, progress func(done, total int)) (*selfPlayStats, error) {
	sp := SelfPlaySection.Of(cfg)
	n := sp.GamesPerIteration
	st := &selfPlayStats{}
	spec := fmt.Sprintf("selfplay:iter=%d", it)
	rules := g.Rules()
	live := map[int]*game{}
	var free []*dataset.Recorder
	finish := func(k int, gm *game, final *env.State, resigner int) {
		var rec *dataset.Game
		if resigner >= 0 {
			rec = gm.rec.Resign(final, resigner)
			st.resigned++
		} else {
			rec = gm.rec.Finish(final)
			outcome := final.Rewards(reward)
			for p := 0; p < 2; p++ {
				if gm.would[p] && outcome[p] >= 0 {
					st.falseResign++
				}
			}
			log.Keep(rec)
		}
		win.keep(rec)
		st.games++
		st.positions += rec.Record.Positions
		st.plies += rec.Record.Plies
		if resigner < 0 && k < sp.SampleGames {
			r := &rec.Record
			sample := evaluate.Record{Players: [2]string{"selfplay", "selfplay"}, Specs: [2]string{spec, spec},
				Seed: uint64(firstGame) + uint64(k), Index: k,
				Opening: append([]int{}, r.Opening...), Moves: append([]int{}, r.Moves...),
				Stores: final.FinalStores(), MatchPoints: final.MatchPoints(), Reason: final.Reason().String(), Plies: r.Plies}
			sample.SetRules(rules)
			st.records = append(st.records, sample)
		}
		delete(live, k)
		free = append(free, gm.rec)
		if progress != nil {
			progress(st.games, n)
		}
	}
	err := pl.Play(ctx, n, func(m *classic.SelfPlayMove) error {
		gm := live[m.Game]
		if gm == nil {
			gm = &game{}
			if k := len(free); k > 0 {
				gm.rec, free = free[k-1], free[:k-1]
			} else {
				gm.rec = dataset.NewRecorder(g, enc, reward)
			}
			moves, seed := open.of(m.Game)
			gm.rec.Start(firstGame+int64(m.Game), seed, [2]string{spec, spec}, moves)
			live[m.Game] = gm
			if m.NeverResign {
				st.neverResign++
			}
		}
		if m.WouldResign {
			gm.would[m.Before.ToMove()] = true
		}
		switch {
		case m.Resigned:
			finish(m.Game, gm, m.Before, m.Before.ToMove())
		case m.Action < 0: // an opening that ended the game (tiny boards)
			finish(m.Game, gm, m.Final, -1)
		default:
			if m.Search.Full {
				gm.rec.Add(m.Before, m.Action, &dataset.Search{Policy: m.Search.Policy, Value: m.Search.Value})
			} else {
				gm.rec.Skip(m.Before, m.Action)
			}
			if m.Final != nil {
				finish(m.Game, gm, m.Final, -1)
			}
		}
		if fs, ok := win.(failingSink); ok {
			return fs.err()
		}
		return nil
	})
	return st, err
}
