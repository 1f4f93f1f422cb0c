package dataset

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/agents/network"
	"github.com/urim-rl/urim/env"
)

// DefaultGamesInLockstep is the number of games an az agent playing itself
// plays in lock-step when the config does not say (games_in_lockstep: 0).
const DefaultGamesInLockstep = 16

// MaxGamesInLockstep bounds Config.GamesInLockstep.
const MaxGamesInLockstep = 1024

// gamesInLockstep is the size of the config's lock-step groups.
func (c *Config) gamesInLockstep() int {
	if c.GamesInLockstep == 0 {
		return DefaultGamesInLockstep
	}
	return c.GamesInLockstep
}

// lockstepGroup returns the number of games the run plays in each lock-step
// group of the self-play driver (agents.SelfPlay), or 0 when it plays game
// by game: the driver plays an az agent against itself (opponent empty or
// the same spec) whose search it supports (agents.AZLockstep).
func lockstepGroup(cfg *Config) (int, error) {
	if cfg.Opponent != "" && canonical(cfg.Opponent) != canonical(cfg.Agent) {
		return 0, nil
	}
	_, ok, err := network.AZLockstep(cfg.Agent, 1, 0)
	if err != nil || !ok {
		return 0, err
	}
	return cfg.gamesInLockstep(), nil
}

// canonical is spec in its canonical form, or spec itself when it does not
// parse (Validate has refused it then).
func canonical(spec string) string {
	sp, err := agents.ParseSpec(spec)
	if err != nil {
		return spec
	}
	return sp.Canonical()
}

// groupSeed is the seed of the lock-step group that holds games
// [group·size, (group+1)·size) of a run seeded with seed: its searches
// derive from it alone, so the group's games depend on the config only.
func groupSeed(seed uint64, group int64) uint64 { return derive(seed, 0x67726f7570, uint64(group)) }

// playGroup plays the lock-step group of size games from game lo with the
// self-play driver and sends games [from, hi) to results as they end. The
// group is always played whole, so that a game's network batches, and so
// its moves, do not depend on the number of games asked for: the games
// before from are in the dataset already (a resumed run plays their group
// again for the later ones), and those from hi on are past the end of the
// run. Each game's agent time is the time since the previous move was
// recorded, so the group's times sum to its searches.
func playGroup(ctx context.Context, g *env.Game, cfg *Config, size int, lo, hi, from int64, results chan<- finished) {
	n := size
	seed := groupSeed(cfg.Seed, lo/int64(size))
	l, _, err := network.AZLockstep(cfg.Agent, n, seed)
	if err != nil {
		results <- finished{err: err}
		return
	}
	enc, _ := env.ParseEncoding(cfg.Encoding)
	reward, _ := env.ParseRewardKind(cfg.Reward)
	recs := make([]*Recorder, n)
	times := make([]finished, n)
	specs := [2]string{cfg.Agent, cfg.Agent}
	start := func(k int) env.State {
		id := lo + int64(k)
		gs := gameSeed(cfg.Seed, id)
		opening := g.RandomOpening(cfg.Openings, derive(gs, 0x6f70656e))
		s := g.Start()
		for _, a := range opening {
			s.Play(a)
		}
		recs[k] = NewRecorder(g, enc, reward)
		recs[k].Start(id, gs, specs, opening)
		return s
	}
	d := classic.SelfPlay{Searcher: l, Game: g, Games: n, Sims: l.Config().Search.Sims,
		Moves: classic.SelfPlayPolicy{Start: start}, Rand: rand.New(rand.NewPCG(seed, 0x64726976))}
	last := time.Now()
	err = d.Play(ctx, n, func(m *classic.SelfPlayMove) error {
		t0 := time.Now()
		f := &times[m.Game]
		f.agentT += t0.Sub(last)
		rec := recs[m.Game]
		if m.Action >= 0 {
			rec.Add(m.Before, m.Action, &Search{Policy: m.Search.Policy, Value: m.Search.Value})
		}
		if m.Final != nil {
			f.game = *rec.Finish(m.Final)
		}
		last = time.Now()
		f.recordT += last.Sub(t0)
		if id := f.game.Record.ID; m.Final != nil && id >= from && id < hi {
			results <- *f
		}
		return nil
	})
	if err != nil {
		results <- finished{err: fmt.Errorf("games %d to %d (%s in lock-step): %w", lo, lo+int64(n)-1, cfg.Agent, err)}
	}
}
