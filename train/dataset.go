package train

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
)

// GameLog writes a training loop's self-play into a dataset directory (the
// config key dataset.dir), in the format of urim selfplay, so that a run
// doubles as a dataset. A loop reports each game as it goes ([GameLog.Start],
// Add or Skip for every move, FinishAs) under a key, or hands over a game it
// recorded itself ([GameLog.Keep]), and calls
// Commit once its iteration's games are all played: the finished games are
// then written in the order of their ids and the shard closed, so shards
// never mix iterations. Resuming cuts the dataset back to the run's last
// committed game ([openGameLog]), so an interrupted iteration is written
// again exactly once. A nil *GameLog records nothing; loops call it
// unconditionally. It is not safe for concurrent use.
type GameLog struct {
	w      *dataset.Writer
	g      *env.Game
	enc    env.Encoding
	reward env.RewardKind
	live   map[int64]*dataset.Recorder
	free   []*dataset.Recorder
	done   []dataset.Game
}

// openGameLog opens the dataset of cfg's run, or returns nil when
// dataset.dir is empty. games is the number of games of the run's completed
// iterations, whose ids are 0 … games-1. A new run (resume false) starts a
// dataset (an existing one must hold no games); a resumed run drops the
// shards of games from id games on, which an interrupted iteration wrote,
// and continues the rest.
func openGameLog(cfg *Config, g *env.Game, enc env.Encoding, reward env.RewardKind, games int64, resume bool) (*GameLog, error) {
	dir := cfg.Dataset.Dir
	if dir == "" {
		return nil, nil
	}
	m, err := dataset.ReadManifest(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) && resume && games > 0:
		return nil, fmt.Errorf("train: resume: dataset.dir %s holds no dataset (no %s), but the run has played %d games: restore it, or resume with another dataset.dir", dir, dataset.ManifestName, games)
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("train: dataset.dir: %w", err)
	case !resume && m.Games > 0:
		return nil, fmt.Errorf("train: dataset.dir: %s already holds a dataset of %d games; choose another directory", dir, m.Games)
	}
	if resume {
		if _, err := dataset.Truncate(dir, games); err != nil {
			return nil, fmt.Errorf("train: resume: %w", err)
		}
	}
	conf, err := configMap(cfg)
	if err != nil {
		return nil, err
	}
	w, err := dataset.Create(dir, dataset.Options{Rules: g.Rules(), Encoding: enc, Reward: reward,
		ShardPositions: cfg.Dataset.ShardSize, Config: conf, Resume: true})
	if err != nil {
		return nil, fmt.Errorf("train: dataset.dir: %w", err)
	}
	if n := w.Manifest().Games; int64(n) > games {
		return nil, fmt.Errorf("train: dataset.dir: %s holds %d games, more than the run's %d", dir, n, games)
	}
	return &GameLog{w: w, g: g, enc: enc, reward: reward, live: map[int64]*dataset.Recorder{}}, nil
}

// configMap is cfg as the generic map the manifest stores (its YAML keys).
func configMap(cfg *Config) (map[string]any, error) {
	y, err := cfg.Marshal()
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := yaml.Unmarshal(y, &m); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return m, nil
}

// Start begins game id, played by the agents with specs (by seat) from the
// opening moves (already played, without rows); seed is what its opening
// was drawn from.
func (l *GameLog) Start(id int64, seed uint64, specs [2]string, opening []int) {
	if l == nil {
		return
	}
	var r *dataset.Recorder
	if n := len(l.free); n > 0 {
		r, l.free = l.free[n-1], l.free[:n-1]
	} else {
		r = dataset.NewRecorder(l.g, l.enc, l.reward)
	}
	r.Start(id, seed, specs, opening)
	l.live[id] = r
}

// Add records that game id played action in s (the position before the
// move) with a row; search is the mover's search, nil for none.
func (l *GameLog) Add(id int64, s *env.State, action int, search *dataset.Search) {
	if l == nil {
		return
	}
	l.live[id].Add(s, action, search)
}

// Skip records a move of game id without a row (one not trained on).
func (l *GameLog) Skip(id int64, s *env.State, action int) {
	if l == nil {
		return
	}
	l.live[id].Skip(s, action)
}

// Keep adds a game that a loop recorded itself (with its own
// dataset.Recorder), to be written at the next Commit or Flush; the log
// keeps a reference to its arrays.
func (l *GameLog) Keep(g *dataset.Game) {
	if l == nil {
		return
	}
	l.done = append(l.done, *g)
}

// FinishAs ends the game recorded under key at final and keeps it as game
// id, played by specs: for a loop that numbers its games as they end
// (PPO's).
func (l *GameLog) FinishAs(key, id int64, specs [2]string, final *env.State) {
	r := l.live[key]
	delete(l.live, key)
	g := *r.Finish(final)
	g.Record.ID, g.Record.Agents = id, specs
	l.done = append(l.done, g)
	l.free = append(l.free, r)
}

// Drop forgets the games in play, unwritten (a loop whose games restart
// in a new session: PPO's).
func (l *GameLog) Drop() {
	if l != nil {
		clear(l.live)
	}
}

// Commit writes the games finished since the last commit, in the order of
// their ids, and closes the shard. Games still in play are an error.
func (l *GameLog) Commit() error {
	if l == nil {
		return nil
	}
	if len(l.live) > 0 {
		return fmt.Errorf("train: dataset: %d games still in play at the end of an iteration", len(l.live))
	}
	return l.Flush()
}

// Flush writes the games finished since the last flush, in the order of
// their ids, and closes the shard; games in play stay in the log (PPO's
// run across iterations).
func (l *GameLog) Flush() error {
	if l == nil {
		return nil
	}
	slices.SortFunc(l.done, func(a, b dataset.Game) int { return cmp.Compare(a.Record.ID, b.Record.ID) })
	for i := range l.done {
		if err := l.w.Add(&l.done[i]); err != nil {
			return fmt.Errorf("train: %w", err)
		}
	}
	clear(l.done)
	l.done = l.done[:0]
	if err := l.w.Flush(); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

// close marks the dataset complete (the run reached its stop condition);
// a later resume reopens it. Games still in play (PPO's, cut by the run's
// end) are dropped unwritten.
func (l *GameLog) close() error {
	if l == nil {
		return nil
	}
	l.Drop()
	if err := l.Flush(); err != nil {
		return err
	}
	if err := l.w.Close(); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}
