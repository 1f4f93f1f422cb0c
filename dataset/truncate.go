package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urim-rl/urim/internal/lockfile"
)

// Truncate cuts the dataset in dir back to its games with ids below
// firstID: the manifest keeps the leading shards whose games all have
// smaller ids and drops the rest, and the dropped shards' files are deleted
// after the new manifest is in place. A training loop that numbers its games
// in order calls it when it resumes, so that the games of an iteration that
// was interrupted (some of whose shards may be listed) are played and
// written again exactly once. A directory without a manifest is left alone
// (nothing was listed); the directory is locked while it is cut (package
// lockfile); a shard holding games on both sides of firstID is an
// error, as nothing can cut it. It returns the number of shards dropped.
func Truncate(dir string, firstID int64) (int, error) {
	m, err := ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	lock, err := lockfile.Dir(dir, "urim dataset truncate")
	if err != nil {
		return 0, fmt.Errorf("dataset: %s: %w", dir, err)
	}
	defer lock.Release()
	if m, err = ReadManifest(dir); err != nil { // as it is under the lock
		return 0, err
	}
	keep, games, positions := 0, 0, 0
	for keep < len(m.Shards) && m.Shards[keep].LastID < firstID {
		games += m.Shards[keep].NumGames
		positions += m.Shards[keep].Positions
		keep++
	}
	dropped := m.Shards[keep:]
	if len(dropped) == 0 {
		return 0, nil
	}
	for _, s := range dropped {
		if s.FirstID < firstID {
			return 0, fmt.Errorf("dataset: cannot truncate %s before game %d: %s holds games %d to %d", dir, firstID, s.Tensors, s.FirstID, s.LastID)
		}
	}
	m.Shards = m.Shards[:keep:keep]
	m.Games, m.Positions, m.Complete = games, positions, false
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return 0, err
	}
	if err := writeFileAtomic(filepath.Join(dir, ManifestName), append(data, '\n')); err != nil {
		return 0, fmt.Errorf("dataset: writing %s: %w", ManifestName, err)
	}
	for _, s := range dropped {
		for _, name := range []string{s.Tensors, s.Games} {
			if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return len(dropped), fmt.Errorf("dataset: %w", err)
			}
		}
	}
	// The temporary files of the dropped shards, and of the shard after
	// them that the writer may have been writing.
	first := shardNumber(dropped[0], keep)
	for k := first; k <= first+len(dropped); k++ {
		if _, err := removeStale(dir, k); err != nil {
			return len(dropped), fmt.Errorf("dataset: %w", err)
		}
	}
	return len(dropped), nil
}
