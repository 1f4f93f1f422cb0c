package train

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urim-rl/urim/internal/atomicfile"
	"github.com/urim-rl/urim/internal/config"
	"github.com/urim-rl/urim/internal/lockfile"
)

// lockRunDir creates the run directory if needed and takes its lock, so
// that no other process trains into it at the same time; a stale lock (of a
// run killed earlier) is taken over with a note to log. A new run (resume
// false) must have a directory of its own: one that is empty, or that holds
// the config.yaml of an earlier start interrupted before its first commit.
// A directory holding other files is refused, since resuming would delete
// files there that look like the run's.
func lockRunDir(dir string, resume bool, log io.Writer) (*lockfile.Lock, error) {
	if _, err := os.Stat(dir); resume && errors.Is(err, fs.ErrNotExist) {
		return nil, nil // nothing to resume: setup says so, and no directory is made
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	lock, err := lockfile.Dir(dir, "urim train")
	if err != nil {
		return nil, fmt.Errorf("train: run directory %s: %w", dir, err)
	}
	if lock.Stale != "" {
		fmt.Fprintf(log, "train: took over the stale lock of %s in %s (that process is gone)\n", lock.Stale, dir)
	}
	if !resume {
		if err := checkOwnDir(dir); err != nil {
			lock.Release()
			return nil, err
		}
	}
	return lock, nil
}

// ClusterDir is the subdirectory of a run directory where a distributed
// run's embedded NATS server keeps its JetStream storage (train/cluster),
// made before the run starts.
const ClusterDir = "cluster"

// checkOwnDir refuses, for a new run, a directory that holds files but no
// config.yaml or state.json: they are not the run's.
func checkOwnDir(dir string) error {
	for _, own := range []string{stateFile, configFile} {
		if _, err := os.Stat(filepath.Join(dir, own)); err == nil {
			return nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("train: %w", err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	for _, e := range entries {
		if e.Name() != lockfile.DirName && e.Name() != ClusterDir {
			return fmt.Errorf("train: output %s already holds %s and is not a run directory (no %s): a new run needs an empty or new directory (--set output=DIR)",
				dir, e.Name(), configFile)
		}
	}
	return nil
}

// release drops the dataset writer's lock without writing (nil-safe), for a
// run that ends before close.
func (l *GameLog) release() {
	if l != nil {
		l.w.Release()
	}
}

// ownTemp reports whether name, in the run directory (sub ".") or its
// checkpoints directory, is the temporary file of an atomic write of one of
// the run's own outputs; cleanRun deletes only those, never a file that
// merely looks temporary.
func ownTemp(sub, name string) bool {
	target, ok := atomicfile.TempOf(name)
	if !ok {
		return false
	}
	if sub == ckptDir {
		return iterFile.MatchString(target) || target == "latest.ckpt" || target == "best.ckpt"
	}
	switch target {
	case configFile, stateFile, metricsFile, versionFile:
		return true
	}
	return strings.HasSuffix(target, ".png")
}

// readRunConfig reads the run's config.yaml, a config file like any other
// (a regular file of at most config.MaxFileBytes).
func readRunConfig(dir string) ([]byte, error) {
	return config.ReadFile(filepath.Join(dir, configFile))
}
