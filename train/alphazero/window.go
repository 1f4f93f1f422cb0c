package alphazero

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/train"
)

// replayDir is the run's own self-play, the window's dataset, in the run
// directory.
const replayDir = "replay"

// window is the replay window: the newest replay.window positions with a
// policy target from the dataset shards it lists, oldest first (the shards
// of replay.datasets, then the run's own self-play), held in a ring
// ([Buffer]) for sampling. The run's self-play is itself a dataset, in the
// run directory's replay/, written an iteration at a time by dataset's
// checksummed writer and cut back to the last committed game on resume.
// state.json records the listed shards (windowState), each named by its
// dataset directory and file and checked by its SHA-256, so a resumed run
// reloads exactly those rows in that order, and so shards that other
// processes wrote can join the window the same way. Shards the window has
// moved past are dropped from the list, and from replay/ once the iteration
// that dropped them is committed.
type window struct {
	buf    *Buffer
	shards []windowShard
	rows   int // rows of the listed shards
	limit  int // replay.window
	w      *dataset.Writer
	games  []dataset.Game // this iteration's, until add writes them
	dim, a int
	// targets, when set, replaces the targets of the positions an endgame
	// table holds (training.tablebase) as rows enter the ring; tabled
	// counts the rows it replaced in the last add.
	targets *tableTargets
	tabled  int
}

// windowShard is one shard the window lists, as state.json records it.
type windowShard struct {
	// Dataset is the shard's dataset directory; empty for the run's own
	// (replay/ in the run directory, which may move with it).
	Dataset string `json:"dataset,omitempty"`
	dataset.ShardInfo
	// Rows is the number of the shard's rows with a policy target.
	Rows int `json:"rows"`
}

// windowState is the window's record in state.json.
type windowState struct {
	Window []windowShard `json:"window"`
	// Remote lists, for the last committed iterations of a distributed
	// run, the ids of the worker shards each took in.
	Remote [][]string `json:"remote,omitempty"`
}

// openWindow returns the window of session s: for a new run the shards of
// replay.datasets, for a resumed one the shards state.json lists, and the
// run's replay/ dataset cut back to the games of the committed iterations.
func openWindow(s *train.Session, targets *tableTargets) (*window, error) {
	n := ReplaySection.Of(s.Config).Window
	win := &window{buf: newBuffer(s.Encoder.Dim(), s.Game.PitsPerRow(), n, TrainingSection.Of(s.Config).ScoreWeight > 0), limit: n,
		dim: s.Encoder.Dim(), a: s.Game.PitsPerRow(), targets: targets}
	dir := filepath.Join(s.Dir, replayDir)
	if _, err := dataset.Truncate(dir, s.State.Games); err != nil {
		return nil, fmt.Errorf("train: replay window: %w", err)
	}
	w, err := dataset.Create(dir, dataset.Options{Rules: s.Rules, Encoding: s.Encoding, Reward: s.Reward, Resume: true})
	if err != nil {
		return nil, fmt.Errorf("train: replay window: %w", err)
	}
	win.w = w
	var listed []windowShard
	if s.State.Iteration == 0 {
		if listed, err = externalShards(s); err != nil {
			return nil, err
		}
	} else {
		var st windowState
		if len(s.State.Data) == 0 {
			return nil, fmt.Errorf("train: resume: state.json records no replay window (a run of an older urim, whose replay buffer this one does not read)")
		}
		if err := json.Unmarshal(s.State.Data, &st); err != nil {
			return nil, fmt.Errorf("train: resume: state.json: the replay window: %w", err)
		}
		listed = st.Window
	}
	for _, sh := range listed {
		if err := win.load(s, sh); err != nil {
			return nil, err
		}
	}
	win.trim()
	if err := win.buf.checkFinite(); err != nil {
		return nil, fmt.Errorf("train: resume: the replay window's %w", err)
	}
	return win, nil
}

// memoryWindow is a window without shards (tests and benchmarks): the
// games self-play keeps go to the ring alone.
func memoryWindow(dim, actions, limit int) *window {
	return &window{buf: NewBuffer(dim, actions, limit), limit: limit, dim: dim, a: actions}
}

// externalShards lists the shards of replay.datasets, in order, checking
// that each dataset was recorded for the run's rules, encoding and reward.
func externalShards(s *train.Session) ([]windowShard, error) {
	var out []windowShard
	for i, dir := range ReplaySection.Of(s.Config).Datasets {
		key := fmt.Sprintf("replay.datasets[%d]", i)
		m, err := dataset.ReadManifest(dir)
		if err != nil {
			return nil, train.KeyError(key, err)
		}
		switch {
		case !reflect.DeepEqual(m.Rules, s.Rules):
			return nil, train.KeyError(key, fmt.Errorf("%s holds games of rules %s (max_plies %d), the run plays %s (max_plies %d)", dir, m.Rules.Name, m.Rules.MaxPlies, s.Rules.Name, s.Rules.MaxPlies))
		case m.Encoding != s.Encoding.String() || m.ObsDim != s.Encoder.Dim() || m.Actions != s.Game.PitsPerRow():
			return nil, train.KeyError(key, fmt.Errorf("%s has %s observations (%d×%d), the run's encoding is %s", dir, m.Encoding, m.ObsDim, m.Actions, s.Encoding))
		case m.Outcome != s.Reward.String():
			return nil, train.KeyError(key, fmt.Errorf("%s holds %s outcomes, the run's reward is %s", dir, m.Outcome, s.Reward))
		}
		for _, info := range m.Shards {
			out = append(out, windowShard{Dataset: dir, ShardInfo: info, Rows: -1})
		}
	}
	return out, nil
}

// load appends the rows of shard sh, read bounded and checked against its
// SHA-256.
func (win *window) load(s *train.Session, sh windowShard) error {
	dir := sh.Dataset
	if dir == "" {
		dir = filepath.Join(s.Dir, replayDir)
	}
	t, err := dataset.ReadTensors(dir, sh.ShardInfo, win.dim, win.a)
	if err != nil {
		return fmt.Errorf("train: replay window: %w", err)
	}
	var recs []dataset.Record
	if win.targets != nil || win.buf.margins() {
		if recs, err = dataset.ReadShardRecords(dir, sh.ShardInfo); err != nil {
			return fmt.Errorf("train: replay window: %w", err)
		}
	}
	if win.buf.margins() {
		if err := shardMargins(dir, sh.ShardInfo, recs, t); err != nil {
			return err
		}
	}
	if _, err := win.targets.shard(dir, sh.ShardInfo, recs, t); err != nil {
		return err
	}
	n := win.buf.addRows(&t.Columns, t.N, t.GameID, 0)
	if sh.Rows >= 0 && n != sh.Rows {
		return fmt.Errorf("train: replay window: %s: %d rows with a policy, state.json records %d", filepath.Join(dir, sh.Tensors), n, sh.Rows)
	}
	sh.Rows = n
	win.shards = append(win.shards, sh)
	win.rows += n
	return nil
}

// keep holds game g (finished or resigned) for the end of the iteration;
// the window keeps a reference to its arrays.
func (win *window) keep(g *dataset.Game) { win.games = append(win.games, *g) }

// add writes the iteration's games, in the order of their ids, as shards of
// replay/ (a nil writer keeps them in memory only), and appends their rows
// to the window.
func (win *window) add() (positions int, err error) {
	slices.SortFunc(win.games, func(x, y dataset.Game) int { return cmp.Compare(x.Record.ID, y.Record.ID) })
	before := 0
	if win.w != nil {
		before = len(win.w.Manifest().Shards)
		for i := range win.games {
			if err := win.w.Add(&win.games[i]); err != nil {
				return 0, fmt.Errorf("train: replay window: %w", err)
			}
		}
		if err := win.w.Flush(); err != nil {
			return 0, fmt.Errorf("train: replay window: %w", err)
		}
	}
	win.tabled = 0
	for i := range win.games {
		g := &win.games[i]
		if win.buf.margins() {
			g.Margin = make([]float32, g.Record.Positions)
			g.Record.Margins(g.Margin, g.Ply)
		}
		// After the write: replay/ keeps the outcomes.
		win.tabled += win.targets.apply(&g.Record, &g.Columns, 0, g.Record.Positions, win.a)
		positions += win.buf.addRows(&g.Columns, g.Record.Positions, nil, g.Record.ID)
	}
	clear(win.games)
	win.games = win.games[:0]
	if win.w != nil {
		for _, info := range win.w.Manifest().Shards[before:] {
			win.shards = append(win.shards, windowShard{ShardInfo: info, Rows: info.Positions})
			win.rows += info.Positions
		}
	}
	win.trim()
	return positions, nil
}

// shardMargins fills the Margin column of the tensors t of a shard read
// from dir, from the games' records recs (dataset.Record.Margins): shards
// store no margins, so that every shard, whenever it was written, gives
// them.
func shardMargins(dir string, info dataset.ShardInfo, recs []dataset.Record, t *dataset.Tensors) error {
	t.Margin = make([]float32, t.N)
	row := 0
	for i := range recs {
		hi := row + recs[i].Positions
		if hi > t.N {
			return fmt.Errorf("train: replay window: margins: %s: the games have more positions than the %d rows", filepath.Join(dir, info.Games), t.N)
		}
		recs[i].Margins(t.Margin[row:hi], t.Ply[row:hi])
		row = hi
	}
	if row != t.N {
		return fmt.Errorf("train: replay window: margins: %s: the games have %d positions, the tensors %d rows", filepath.Join(dir, info.Games), row, t.N)
	}
	return nil
}

// trim drops the oldest shards whose rows have all left the window.
func (win *window) trim() {
	k := 0
	for k < len(win.shards)-1 && win.rows-win.shards[k].Rows >= win.limit {
		win.rows -= win.shards[k].Rows
		k++
	}
	win.shards = append(win.shards[:0:0], win.shards[k:]...)
}

// state is the window's record for state.json.
func (win *window) state() windowState { return windowState{Window: slices.Clone(win.shards)} }

// prune deletes from replay/ the shards the window no longer lists: called
// once the iteration that dropped them is committed. before is the id of
// the next game the run will play.
func (win *window) prune(before int64) error {
	if win.w == nil {
		return nil
	}
	for _, sh := range win.shards {
		if sh.Dataset == "" {
			before = sh.FirstID
			break
		}
	}
	if _, err := win.w.Prune(before); err != nil {
		return fmt.Errorf("train: replay window: %w", err)
	}
	return nil
}

// close marks replay/ complete (a resumed run reopens it).
func (win *window) close() error {
	if win.w == nil {
		return nil
	}
	return win.w.Close()
}
