package dataset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/lockfile"
)

// DefaultShardPositions is the shard size when Options.ShardPositions is 0:
// about 1 MB of compact observations a shard.
const DefaultShardPositions = 16384

// Options configure a [Writer]. Rules must be set; the zero value of every
// other field is the default: compact observations, match-point outcomes,
// DefaultShardPositions.
type Options struct {
	// Rules are the rules every game is played under.
	Rules env.Rules
	// Encoding is the observation encoding (compact by default).
	Encoding env.Encoding
	// Reward is what the outcome array holds for the mover (match points
	// by default).
	Reward env.RewardKind
	// ShardPositions is the number of positions at which a shard is cut
	// (after the game that reaches it); 0 means DefaultShardPositions.
	ShardPositions int
	// Config is stored in the manifest as JSON: the configuration of the
	// run (nil: none).
	Config any
	// Program is the program version for the manifest; "" means
	// ProgramVersion().
	Program string
	// Resume continues the dataset already in the directory (it must have
	// been written with the same rules, encoding, reward and shard size)
	// instead of refusing to touch it.
	Resume bool
}

// ErrExists is returned by [Create] for a directory that already holds a
// dataset when Options.Resume is false.
var ErrExists = errors.New("dataset: the directory already holds a dataset")

// Writer writes finished games into a dataset directory, cutting shards and
// keeping the manifest current. It is not safe for concurrent use. The first
// error sticks: every later call returns it.
type Writer struct {
	dir     string
	m       Manifest
	game    *env.Game
	ids     map[int64]bool
	tensors Tensors
	records []Record
	removed []string
	err     error
	lock    *lockfile.Lock
}

// Create opens a writer on dir, creating it if needed, and takes the
// directory's lock (package lockfile) until Close or Release: a directory
// another writer holds is an error wrapping lockfile.ErrLocked. With
// Options.Resume and a manifest in dir, it continues that dataset: it checks
// that the options match it, deletes the files an interrupted writer can
// have left (the shard after the manifest's last, and the temporary files
// of it and of the manifest; nothing else), and remembers the ids of the
// games already written so none is written twice.
func Create(dir string, o Options) (*Writer, error) {
	g, err := env.NewGame(o.Rules)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	if o.ShardPositions < 0 || o.ShardPositions > MaxShardSize {
		return nil, fmt.Errorf("dataset: shard size %d: want 0 to %d", o.ShardPositions, MaxShardSize)
	}
	if o.ShardPositions == 0 {
		o.ShardPositions = DefaultShardPositions
	}
	if o.Program == "" {
		o.Program = ProgramVersion()
	}
	var cfg json.RawMessage
	if o.Config != nil {
		if cfg, err = json.Marshal(o.Config); err != nil {
			return nil, fmt.Errorf("dataset: config: %w", err)
		}
	}
	w := &Writer{dir: dir, game: g, ids: map[int64]bool{}}
	w.m = Manifest{
		Format: Format, SchemaVersion: SchemaVersion, RulesVersion: env.RulesVersion,
		Program: o.Program, Rules: g.Rules(), Encoding: o.Encoding.String(),
		ObsDim: o.Encoding.Dim(g), Actions: g.PitsPerRow(), Outcome: o.Reward.String(),
		ShardPositions: o.ShardPositions, Config: cfg, Shards: []ShardInfo{},
	}
	w.tensors = Tensors{Dim: w.m.ObsDim, Actions: w.m.Actions}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	if w.lock, err = lockfile.Dir(dir, "urim dataset writer"); err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", dir, err)
	}
	if err := w.open(o); err != nil {
		w.lock.Release()
		return nil, err
	}
	return w, nil
}

// open reads or starts the manifest of the locked directory.
func (w *Writer) open(o Options) error {
	dir := w.dir
	old, err := ReadManifest(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := checkNoShards(dir); err != nil {
			return err
		}
		if o.Resume {
			if w.removed, err = removeStale(dir, 0); err != nil {
				return fmt.Errorf("dataset: %w", err)
			}
		}
	case err != nil:
		return err
	case !o.Resume:
		return fmt.Errorf("%w: %s (resume it, or choose another directory)", ErrExists, filepath.Join(dir, ManifestName))
	default:
		if err := w.resume(old); err != nil {
			return err
		}
	}
	return w.writeManifest()
}

// checkNoShards refuses a directory without a manifest that holds shard
// files: they belong to something else.
func checkNoShards(dir string) error {
	for _, pat := range []string{"shard-*.npz", "games-*.jsonl.gz"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		if len(m) > 0 {
			return fmt.Errorf("dataset: %s holds %s but no %s: not a dataset this writer will add to", dir, filepath.Base(m[0]), ManifestName)
		}
	}
	return nil
}

// resume takes over the dataset described by old.
func (w *Writer) resume(old *Manifest) error {
	mismatch := func(what string, have, want any) error {
		return fmt.Errorf("dataset: cannot resume %s: it was written with %s %v, this run has %v", w.dir, what, have, want)
	}
	switch {
	case !reflect.DeepEqual(old.Rules, w.m.Rules):
		return mismatch("rules", old.Rules, w.m.Rules)
	case old.RulesVersion != w.m.RulesVersion:
		return mismatch("rules version", old.RulesVersion, w.m.RulesVersion)
	case old.Encoding != w.m.Encoding:
		return mismatch("encoding", old.Encoding, w.m.Encoding)
	case old.Outcome != w.m.Outcome:
		return mismatch("outcome", old.Outcome, w.m.Outcome)
	case old.ShardPositions != w.m.ShardPositions:
		return mismatch("shard size", old.ShardPositions, w.m.ShardPositions)
	}
	d := &Dataset{Dir: w.dir, Manifest: old}
	for i := range old.Shards {
		recs, err := d.loadRecords(i)
		if err != nil {
			return fmt.Errorf("dataset: resume: %w", err)
		}
		for _, r := range recs {
			w.ids[r.ID] = true
		}
	}
	removed, err := removeStale(w.dir, nextShard(old.Shards))
	if err != nil {
		return fmt.Errorf("dataset: resume: %w", err)
	}
	w.removed = removed
	w.m.Shards = old.Shards
	w.m.Games, w.m.Positions = old.Games, old.Positions
	return nil
}

// Removed lists the files Create deleted when resuming: temporary files and
// shards written after the last manifest.
func (w *Writer) Removed() []string { return w.removed }

// Manifest returns a copy of the manifest as last written.
func (w *Writer) Manifest() Manifest {
	m := w.m
	m.Shards = append([]ShardInfo(nil), w.m.Shards...)
	return m
}

// Has reports whether the game with id has been added (in this run or,
// when resuming, an earlier one).
func (w *Writer) Has(id int64) bool { return w.ids[id] }

// Games returns the number of games added so far, shards written or not.
func (w *Writer) Games() int { return len(w.ids) }

// Bytes returns the bytes the listed shards take on disk.
func (w *Writer) Bytes() int64 {
	var n int64
	for _, s := range w.m.Shards {
		n += s.TensorsBytes + s.GamesBytes
	}
	return n
}

// Add adds a finished game, copying it; a shard is written once it holds
// ShardPositions positions. A game whose id was added before is an error,
// as is a game whose arrays do not match its record.
func (w *Writer) Add(g *Game) error {
	if w.err != nil {
		return w.err
	}
	r := &g.Record
	if w.ids[r.ID] {
		return fmt.Errorf("dataset: game %d added twice", r.ID)
	}
	n, dim, a := r.Positions, w.m.ObsDim, w.m.Actions
	if len(g.Obs) != n*dim || len(g.Mask) != n*a || len(g.Policy) != n*a || len(g.HasPolicy) != n ||
		len(g.Value) != n || len(g.Outcome) != n || len(g.Action) != n || len(g.Ply) != n {
		return fmt.Errorf("dataset: game %d: arrays do not hold %d rows of %d observation columns and %d actions", r.ID, n, dim, a)
	}
	if !reflect.DeepEqual(r.Rules, w.m.Rules) {
		return fmt.Errorf("dataset: game %d: played under rules %s, the dataset's are %s", r.ID, r.Rules.Name, w.m.Rules.Name)
	}
	w.ids[r.ID] = true
	rec := *r
	rec.Opening = append([]int{}, r.Opening...)
	rec.Moves = append([]int{}, r.Moves...)
	w.records = append(w.records, rec)
	w.tensors.appendGame(g)
	if w.tensors.N >= w.m.ShardPositions {
		return w.Flush()
	}
	return nil
}

// Flush writes the games added since the last shard as a shard (even a
// small one), then the manifest. It does nothing when there are none.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if len(w.records) == 0 {
		return nil
	}
	w.err = w.writeShard()
	return w.err
}

func (w *Writer) writeShard() error {
	tname, gname := shardNames(nextShard(w.m.Shards))
	// The records compress while the tensors do.
	var tb, gb bytes.Buffer
	recErr := make(chan error, 1)
	go func() { recErr <- WriteRecords(&gb, w.records) }()
	errT := w.tensors.WriteNPZ(&tb)
	if err := <-recErr; err != nil {
		return err
	}
	if errT != nil {
		return errT
	}
	info := ShardInfo{
		Tensors: tname, Games: gname, NumGames: len(w.records), Positions: w.tensors.N,
		FirstID: w.records[0].ID, LastID: w.records[0].ID,
		TensorsSHA256: sha256Hex(tb.Bytes()), GamesSHA256: sha256Hex(gb.Bytes()),
		TensorsBytes: int64(tb.Len()), GamesBytes: int64(gb.Len()),
	}
	for _, r := range w.records {
		info.FirstID, info.LastID = min(info.FirstID, r.ID), max(info.LastID, r.ID)
	}
	if err := writeFileAtomic(filepath.Join(w.dir, tname), tb.Bytes()); err != nil {
		return fmt.Errorf("dataset: writing %s: %w", tname, err)
	}
	if err := writeFileAtomic(filepath.Join(w.dir, gname), gb.Bytes()); err != nil {
		return fmt.Errorf("dataset: writing %s: %w", gname, err)
	}
	w.m.Shards = append(w.m.Shards, info)
	w.m.Games += info.NumGames
	w.m.Positions += info.Positions
	w.m.Complete = false
	w.records = w.records[:0]
	w.tensors.reset()
	return w.writeManifest()
}

// Close writes the last shard, marks the manifest complete and releases the
// directory's lock. The writer must not be used after. To stop without
// marking the dataset complete (an interrupted run, to be resumed), call
// Flush, then Release.
func (w *Writer) Close() error {
	defer w.Release()
	if err := w.Flush(); err != nil {
		return err
	}
	w.m.Complete = true
	w.err = w.writeManifest()
	if w.err == nil {
		w.err = errors.New("dataset: writer closed")
		return nil
	}
	return w.err
}

// Release drops the writer's lock on its directory without writing, for a
// writer dropped after Flush (an interrupted run, to be resumed); Close
// releases it too. It may be called more than once.
func (w *Writer) Release() {
	w.lock.Release()
}

func (w *Writer) writeManifest() error {
	data, err := json.MarshalIndent(&w.m, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(w.dir, ManifestName), append(data, '\n')); err != nil {
		return fmt.Errorf("dataset: writing %s: %w", ManifestName, err)
	}
	return nil
}
