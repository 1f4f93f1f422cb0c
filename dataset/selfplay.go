package dataset

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// SelfPlayResult reports a self-play run.
type SelfPlayResult struct {
	// Manifest is the dataset's manifest as last written.
	Manifest Manifest
	// Resumed counts the games already in the directory when the run
	// started, Played those this run added, Positions their rows.
	Resumed, Played, Positions int
	// Removed lists the leftovers of an interrupted run that were deleted.
	Removed []string
	// StaleLock describes the holder of a stale lock file taken over (a
	// killed run), or "".
	StaleLock string
	// Interrupted is true when ctx stopped the run: the games played so far
	// are written, and the dataset is marked incomplete.
	Interrupted bool
	// Elapsed is the wall time; AgentTime the time the agents spent
	// choosing moves, RecordTime encoding positions, WriteTime compressing
	// and writing shards (summed over workers: compare them with each
	// other, or divide by Workers to compare with Elapsed).
	Elapsed, AgentTime, RecordTime, WriteTime time.Duration
	// Workers is the number of games played at once.
	Workers int
	// Bytes is the size of the dataset's shards on disk.
	Bytes int64
}

// gameSeed is the seed of game id of a run seeded with seed: its opening and
// both agents derive from it alone.
func gameSeed(seed uint64, id int64) uint64 { return derive(seed, 0x67616d65, uint64(id)) }

// finished is a game a worker hands to the writer.
type finished struct {
	game            Game
	agentT, recordT time.Duration
	err             error
}

// SelfPlay plays cfg.Games games between cfg.Agent and cfg.Opponent with
// cfg.Workers games at once and writes them to the dataset cfg.Out. An az
// agent that plays itself plays through the lock-step self-play driver
// (agents.SelfPlay), cfg.GamesInLockstep games per group by game id, each
// worker taking whole groups; other agents play game by game
// (agents.PlayGame). Games reach the dataset in the order of their ids, so
// its content depends only on the config. With resume, a dataset already in cfg.Out (from the same
// config, except games and workers) is continued: the games it lists are
// kept and the rest played. progress, when not nil, is called after each
// game is added, with the games in the dataset and cfg.Games.
//
// When ctx is cancelled (Ctrl-C), the games finished in order are written
// as a last shard, the manifest says incomplete, and the result has
// Interrupted set; a later run with resume completes the dataset.
func SelfPlay(ctx context.Context, cfg Config, resume bool, progress func(done, total int)) (SelfPlayResult, error) {
	var res SelfPlayResult
	if err := cfg.Validate(); err != nil {
		return res, err
	}
	rules, _ := cfg.LoadRules()
	g, err := env.NewGame(rules)
	if err != nil {
		return res, err
	}
	enc, _ := env.ParseEncoding(cfg.Encoding)
	reward, _ := env.ParseRewardKind(cfg.Reward)
	if resume {
		if err := checkResumeConfig(cfg); err != nil {
			return res, err
		}
	}
	w, err := Create(cfg.Out, Options{Rules: rules, Encoding: enc, Reward: reward, ShardPositions: cfg.ShardSize, Config: cfg, Resume: resume})
	if err != nil {
		return res, err
	}
	defer w.Release()
	res.Removed, res.StaleLock = w.Removed(), w.lock.Stale
	res.Resumed = w.Games()
	first := int64(w.Games())
	for id := range first {
		if !w.Has(id) {
			return res, fmt.Errorf("dataset: cannot resume %s: it lacks game %d but holds %d games (not written by urim selfplay?)", cfg.Out, id, first)
		}
	}
	// size is the number of games of a lock-step group (0: game by game);
	// the jobs are whole groups, [k·size, (k+1)·size) by game id, so the
	// grouping is the config's whatever the workers.
	size, err := lockstepGroup(&cfg)
	if err != nil {
		return res, err
	}
	perJob := max(size, 1)
	jobStart := first - first%int64(perJob)
	workers := cfg.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, int((int64(cfg.Games)-jobStart+int64(perJob)-1)/int64(perJob))))
	res.Workers = workers
	opp := cfg.Opponent
	if opp == "" {
		opp = cfg.Agent
	}

	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The window bounds the games started but not yet written: those
	// played, waiting for an earlier game, or queued for the writer.
	// A job is games [lo, hi): one game, or one lock-step group.
	window := make(chan struct{}, (4*workers+16)*perJob)
	jobs := make(chan [2]int64)
	results := make(chan finished, workers)
	go func() {
		defer close(jobs)
		for lo := jobStart; lo < int64(cfg.Games); lo += int64(perJob) {
			hi := min(lo+int64(perJob), int64(cfg.Games))
			for range hi - max(lo, first) {
				select {
				case window <- struct{}{}:
				case <-ctx.Done():
					return
				}
			}
			select {
			case jobs <- [2]int64{lo, hi}:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := NewRecorder(g, enc, reward)
			for job := range jobs {
				if size > 0 {
					playGroup(ctx, g, &cfg, size, job[0], job[1], first, results)
					continue
				}
				results <- playOne(ctx, g, rec, cfg, opp, job[0])
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	// The writer runs in its own goroutine behind a queue, so a slow disk
	// (fsync) does not stall the games.
	toWrite := make(chan *finished, cap(window))
	written := make(chan error, 1)
	go func() {
		var err error
		for p := range toWrite {
			<-window
			if err != nil {
				continue
			}
			t0 := time.Now()
			if err = w.Add(&p.game); err != nil {
				cancel()
			}
			res.WriteTime += time.Since(t0)
			res.AgentTime += p.agentT
			res.RecordTime += p.recordT
			res.Played++
			res.Positions += p.game.Record.Positions
			if progress != nil {
				progress(res.Resumed+res.Played, cfg.Games)
			}
		}
		written <- err
	}()

	pending := map[int64]*finished{}
	next := first
	var firstErr error
	for f := range results {
		if f.err != nil {
			if firstErr == nil && !errors.Is(f.err, context.Canceled) {
				firstErr = f.err
			}
			cancel()
			continue
		}
		pending[f.game.Record.ID] = &f
		for p, ok := pending[next]; ok; p, ok = pending[next] {
			delete(pending, next)
			toWrite <- p
			next++
		}
	}
	close(toWrite)
	if err := <-written; err != nil && firstErr == nil {
		firstErr = err
	}
	res.Interrupted = ctx.Err() != nil && firstErr == nil && res.Resumed+res.Played < cfg.Games
	t0 := time.Now()
	var err2 error
	if res.Interrupted || firstErr != nil {
		err2 = w.Flush()
	} else {
		err2 = w.Close()
	}
	res.WriteTime += time.Since(t0)
	res.Elapsed = time.Since(start)
	res.Manifest = w.Manifest()
	res.Bytes = w.Bytes()
	if firstErr != nil {
		return res, firstErr
	}
	return res, err2
}

// playOne plays game id and records it.
func playOne(ctx context.Context, g *env.Game, rec *Recorder, cfg Config, opp string, id int64) (f finished) {
	seed := gameSeed(cfg.Seed, id)
	specs := [2]string{cfg.Agent, opp}
	if id%2 == 1 {
		specs = [2]string{opp, cfg.Agent}
	}
	var players [2]agents.Agent
	defer func() {
		for _, a := range players {
			if a != nil {
				if err := agents.Close(a); err != nil && f.err == nil {
					f.err = err
				}
			}
		}
	}()
	for seat, spec := range specs {
		a, err := agents.New(spec, derive(seed, 0x7365617430+uint64(seat)))
		if err != nil {
			return finished{err: err}
		}
		players[seat] = a
	}
	opening := g.RandomOpening(cfg.Openings, derive(seed, 0x6f70656e))
	s := g.Start()
	for _, a := range opening {
		s.Play(a)
	}
	rec.Start(id, seed, specs, opening)
	last := time.Now()
	final, err := agents.PlayGame(ctx, s, players, func(ev agents.MoveEvent) error {
		t0 := time.Now()
		f.agentT += t0.Sub(last)
		if sr, ok := SearchFromInfo(ev.Search); ok {
			rec.Add(ev.Before, ev.Action, &sr)
		} else {
			rec.Add(ev.Before, ev.Action, nil)
		}
		last = time.Now()
		f.recordT += last.Sub(t0)
		return nil
	})
	if err != nil {
		return finished{err: fmt.Errorf("game %d (%s vs %s): %w", id, specs[0], specs[1], err)}
	}
	f.game = *rec.Finish(&final)
	return f
}

// checkResumeConfig refuses to resume a dataset written by a self-play run
// whose config would give other games.
func checkResumeConfig(cfg Config) error {
	m, err := ReadManifest(cfg.Out)
	if err != nil {
		return nil // no manifest: nothing to compare; Create decides
	}
	var old Config
	if err := jsonUnmarshalStrict(m.Config, &old); err != nil {
		return fmt.Errorf("dataset: cannot resume %s: its manifest has no self-play config (%v)", cfg.Out, err)
	}
	opp := func(c Config) string {
		if c.Opponent == "" {
			return c.Agent
		}
		return c.Opponent
	}
	for _, d := range []struct {
		key       string
		have, now any
	}{
		{"agent", old.Agent, cfg.Agent}, {"opponent", opp(old), opp(cfg)}, {"seed", old.Seed, cfg.Seed},
		{"openings", old.Openings, cfg.Openings}, {"encoding", old.Encoding, cfg.Encoding},
		{"reward", old.Reward, cfg.Reward}, {"shard_size", old.ShardSize, cfg.ShardSize},
		{"games_in_lockstep", old.gamesInLockstep(), cfg.gamesInLockstep()},
	} {
		if d.have != d.now {
			return fmt.Errorf("dataset: cannot resume %s: it was written with %s %v, this run has %v", cfg.Out, d.key, d.have, d.now)
		}
	}
	return nil
}
