package dataset

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urim-rl/urim/internal/inputfile"
)

// MaxShardSize bounds the shard size a writer takes (Options.ShardPositions,
// the shard_size of configs): 1024 times DefaultShardPositions.
const MaxShardSize = 1 << 24

// MaxShardPositions bounds the rows, and the games, of one shard that a
// manifest may list: MaxShardSize and the game that reached it (the rules
// cap a game well below 2^20 plies). A reader's allocations for a shard are
// thus bounded before it reads a byte of it.
const MaxShardPositions = MaxShardSize + 1<<20

// shardPath returns the path of the file name that the manifest lists,
// which must resolve (symlinks followed) to a file inside the dataset
// directory.
func (d *Dataset) shardPath(name string) (string, error) {
	path := filepath.Join(d.Dir, name)
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return path, nil // the read reports it (a missing file)
	}
	root, err := filepath.EvalSymlinks(d.Dir)
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is a symlink out of the dataset directory (to %s): a dataset's files are inside it", path, real)
	}
	return path, nil
}

// readShardFile reads the file name of the dataset, a regular file inside
// the directory of at most size bytes (the manifest's size for it).
func (d *Dataset) readShardFile(name string, size int64, what string) ([]byte, error) {
	what += " of " + fmt.Sprint(size) + " bytes (the manifest's size)"
	var data []byte
	var err error
	if d.root != nil {
		data, err = inputfile.ReadFileIn(d.root, name, size, what)
	} else {
		var path string
		if path, err = d.shardPath(name); err != nil {
			return nil, err
		}
		data, err = inputfile.ReadFile(path, size, what)
	}
	if errors.Is(err, inputfile.ErrTooLarge) {
		return nil, fmt.Errorf("%w: %v", ErrChecksum, err)
	}
	return data, err
}

// LoadRecords reads the games of shard i (not its tensors) through the same
// checks as LoadShard: a regular file inside the directory, no more bytes
// and games than the manifest counts, and the manifest's id range.
func (d *Dataset) LoadRecords(i int) ([]Record, error) { return d.loadRecords(i) }

// loadRecords reads the games of shard i, no more than the manifest counts,
// and checks them against the manifest's count and id range.
func (d *Dataset) loadRecords(i int) ([]Record, error) {
	return d.recordsOf(d.Manifest.Shards[i])
}

// recordsOf reads the games of the shard the manifest lists as info.
func (d *Dataset) recordsOf(info ShardInfo) ([]Record, error) {
	data, err := d.readShardFile(info.Games, info.GamesBytes, "a games file")
	if err != nil {
		return nil, err
	}
	recs, err := readRecords(data, info.NumGames)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", info.Games, err)
	}
	if len(recs) != info.NumGames {
		return nil, fmt.Errorf("%s holds %d games, the manifest says %d", info.Games, len(recs), info.NumGames)
	}
	if len(recs) > 0 {
		lo, hi := recs[0].ID, recs[0].ID
		for _, r := range recs {
			lo, hi = min(lo, r.ID), max(hi, r.ID)
		}
		if lo != info.FirstID || hi != info.LastID {
			return nil, fmt.Errorf("%s holds games %d to %d, the manifest says first_id %d, last_id %d", info.Games, lo, hi, info.FirstID, info.LastID)
		}
	}
	return recs, nil
}

// loadTensors reads the tensors of shard i, whose arrays may declare no
// more rows than the manifest counts.
func (d *Dataset) loadTensors(i int) (*Tensors, error) {
	info := d.Manifest.Shards[i]
	data, err := d.readShardFile(info.Tensors, info.TensorsBytes, "a tensors file")
	if err != nil {
		return nil, err
	}
	t, err := readNPZ(data, d.Manifest.ObsDim, d.Manifest.Actions, info.Positions)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", info.Tensors, err)
	}
	return t, nil
}
