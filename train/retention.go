package train

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// keptCheckpoint reports whether iteration it's checkpoint stays once st
// is committed: one of the newest c.KeepLast, a multiple of c.KeepEvery,
// the last completed iteration (resume loads it), the best (gating plays
// it), or one of pinned (PPO's opponent-pool snapshots).
func keptCheckpoint(it int, st State, c Checkpoints, pinned []int) bool {
	switch {
	case it > st.Iteration: // not committed: cleanRun's business
		return true
	case it == st.Iteration, it == st.Best, it > st.Iteration-max(c.KeepLast, 1):
		return true
	case c.KeepEvery > 0 && it%c.KeepEvery == 0:
		return true
	}
	for _, p := range pinned {
		if p == it {
			return true
		}
	}
	return false
}

// pruneCheckpoints deletes the iteration checkpoints of run dir that
// committed state st no longer keeps (keptCheckpoint). It deletes only
// what the run itself writes: regular files in dir/checkpoints named
// exactly as checkpointName names an iteration up to st's, never
// latest.ckpt, best.ckpt or anything else found there. It runs after
// state.json is written, so a kill in between leaves only files that the
// next commit deletes.
func pruneCheckpoints(dir string, st State, c Checkpoints, pinned []int) error {
	entries, err := os.ReadDir(filepath.Join(dir, ckptDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checkpoint retention: %w", err)
	}
	for _, e := range entries {
		m := iterFile.FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		it, err := strconv.Atoi(m[1])
		if err != nil || e.Name() != checkpointName(it) || keptCheckpoint(it, st, c, pinned) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, ckptDir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("checkpoint retention: %w", err)
		}
	}
	return nil
}
