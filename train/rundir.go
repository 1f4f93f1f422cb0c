package train

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/urim-rl/urim/internal/atomicfile"
	"github.com/urim-rl/urim/internal/inputfile"
)

// A run directory holds:
//
//	config.yaml           the effective config
//	version.txt           the build of each session
//	state.json            the last completed iteration: the commit point
//	metrics.csv           one row per completed iteration
//	losses.png, elo.png, speed.png
//	checkpoints/iter-NNNN.ckpt, latest.ckpt, best.ckpt
//	replay/               alphazero's replay window: a dataset of its self-play
//	selfplay/games.jsonl  a sample of self-play games (evaluator store form)
//	eval/games.jsonl      every evaluation game
//	tablebase-K.tb        alphazero's table of training.tablebase_seeds
//
// Every file is written atomically (temporary file, fsync, rename), and
// state.json last: an iteration is complete when state.json names it. On
// resume everything newer than state.json is discarded and the iteration
// after it is played again from its own seed.
const (
	stateFile   = "state.json"
	configFile  = "config.yaml"
	metricsFile = "metrics.csv"
	ckptDir     = "checkpoints"
)

// State is the commit record of a run: what state.json holds.
type State struct {
	// Iteration is the last completed iteration (0: only the initial
	// network exists).
	Iteration int `json:"iteration"`
	// ElapsedS is the training time spent so far, over every session.
	ElapsedS float64 `json:"elapsed_s"`
	// Games and Positions count the self-play so far.
	Games     int64 `json:"games"`
	Positions int64 `json:"positions"`
	// Best is the iteration of the best network (best.ckpt).
	Best int `json:"best"`
	// BestElo is the Elo of the best network when it was evaluated.
	BestElo *float64 `json:"best_elo,omitempty"`
	// Data is the algorithm's own record of Iteration ([Iteration.Data]:
	// alphazero's replay window, the shards it holds), committed with it.
	Data json.RawMessage `json:"data,omitempty"`
}

// maxStateFile bounds state.json (a few hundred bytes).
const maxStateFile = 1 << 20

func checkpointName(it int) string { return fmt.Sprintf("iter-%04d.ckpt", it) }

// CheckpointPath returns the path of iteration it's checkpoint in run dir.
func CheckpointPath(dir string, it int) string {
	return filepath.Join(dir, ckptDir, checkpointName(it))
}

// ReadState reads dir/state.json; ok is false when there is none.
func ReadState(dir string) (st State, ok bool, err error) {
	data, err := inputfile.ReadFile(filepath.Join(dir, stateFile), maxStateFile, "a run's state.json")
	if errors.Is(err, fs.ErrNotExist) {
		return st, false, nil
	}
	if err != nil {
		return st, false, fmt.Errorf("train: %w", err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return st, false, fmt.Errorf("train: %s: %w", filepath.Join(dir, stateFile), err)
	}
	return st, true, nil
}

// writeState commits st: the iteration it names is complete.
func writeState(dir string, st State) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return writeBytes(filepath.Join(dir, stateFile), append(data, '\n'))
}

func writeBytes(path string, data []byte) error {
	return atomicfile.WriteMkdir(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// copyFile copies src to dst atomically.
func copyFile(dst, src string) error {
	in, err := inputfile.Open(src, math.MaxInt64, "")
	if err != nil {
		return err
	}
	defer in.Close()
	return atomicfile.WriteMkdir(dst, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}

var (
	iterFile = regexp.MustCompile(`^iter-(\d+)\.ckpt$`)
)

// cleanRun removes what an interrupted iteration left behind: checkpoints
// newer than st and temporary files of the run's own atomic writes (see
// ownTemp). (An algorithm cleans its own files.)
func cleanRun(dir string, st State) error {
	remove := func(sub string, keep func(name string) bool) error {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		for _, e := range entries {
			if !keep(e.Name()) {
				if err := os.Remove(filepath.Join(dir, sub, e.Name())); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := remove(ckptDir, func(name string) bool {
		if ownTemp(ckptDir, name) {
			return false
		}
		if m := iterFile.FindStringSubmatch(name); m != nil {
			it, _ := strconv.Atoi(m[1])
			return it <= st.Iteration
		}
		return true
	}); err != nil {
		return err
	}
	return remove(".", func(name string) bool {
		return !ownTemp(".", name)
	})
}
