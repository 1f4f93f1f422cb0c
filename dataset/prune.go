package dataset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Prune drops the leading shards whose games all have ids below before (a
// window that has moved past them): the manifest stops listing them, then
// their files are deleted. It is [Truncate]'s mirror, for a training loop
// that keeps only its newest games. Later shards keep their names, and new
// ones continue the numbering. It returns the number of shards dropped.
func (w *Writer) Prune(before int64) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	k := 0
	for k < len(w.m.Shards) && w.m.Shards[k].LastID < before {
		k++
	}
	if k == 0 {
		return 0, nil
	}
	dropped := append([]ShardInfo(nil), w.m.Shards[:k]...)
	for _, s := range dropped {
		w.m.Games -= s.NumGames
		w.m.Positions -= s.Positions
	}
	w.m.Shards = append([]ShardInfo{}, w.m.Shards[k:]...)
	if w.err = w.writeManifest(); w.err != nil {
		return 0, w.err
	}
	for _, s := range dropped {
		for _, name := range []string{s.Tensors, s.Games} {
			if err := os.Remove(filepath.Join(w.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return k, fmt.Errorf("dataset: %w", err)
			}
		}
	}
	return k, nil
}

// nextShard returns the number of the next shard after the listed ones:
// one more than the last one's (shards pruned from the front keep their
// names), 0 for none.
func nextShard(shards []ShardInfo) int {
	if len(shards) == 0 {
		return 0
	}
	return shardNumber(shards[len(shards)-1], len(shards)-1) + 1
}

// shardNumber returns the number in shard s's file name, or at (its index)
// when the name holds none.
func shardNumber(s ShardInfo, at int) int {
	name := strings.TrimSuffix(strings.TrimPrefix(s.Tensors, "shard-"), ".npz")
	if k, err := strconv.Atoi(name); err == nil && k >= at {
		return k
	}
	return at
}
