package alphazero

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/urim-rl/urim/tablebase"
	"github.com/urim-rl/urim/train"
)

// RunTableFile is the name, in the run directory, of the table that
// training.tablebase_seeds builds.
func RunTableFile(seeds int) string { return fmt.Sprintf("tablebase-%d.tb", seeds) }

// loadTrainingTable returns the run's training table: training.tablebase
// loaded for the run's rules, or the table of training.tablebase_seeds
// from the run directory, built and saved there first when it is not there
// (or not a table of these rules and seeds); nil when neither is set.
func loadTrainingTable(s *train.Session) (*tablebase.Table, error) {
	t := TrainingSection.Of(s.Config)
	switch {
	case t.Tablebase != "":
		tb, err := tablebase.LoadFor(t.Tablebase, s.Rules)
		if err != nil {
			return nil, &train.ConfigError{Key: "training.tablebase", Err: err}
		}
		return tb, nil
	case t.TablebaseSeeds == 0:
		return nil, nil
	}
	path := filepath.Join(s.Dir, RunTableFile(t.TablebaseSeeds))
	tb, err := tablebase.LoadFor(path, s.Rules)
	switch {
	case err == nil && tb.MaxSeeds() == t.TablebaseSeeds && (tb.HasStoredMoves() || !t.readsBestMoves()):
		return tb, nil
	case err == nil && tb.MaxSeeds() == t.TablebaseSeeds:
		fmt.Fprintf(s.Log, "train: %s has no stored best moves, which training.tablebase_policy reads: building it again\n", path)
	case err == nil, errors.Is(err, tablebase.ErrCorrupt), errors.Is(err, tablebase.ErrMismatch):
		// The run's own derived file, made by an earlier session: an
		// interrupted write never leaves one (Save renames), so this is a
		// damaged or foreign file, and the table is built again.
		fmt.Fprintf(s.Log, "train: %s is not a table of these rules and %d seeds (%v): building it again\n", path, t.TablebaseSeeds, err)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("train: training.tablebase_seeds: %w", err)
	}
	return buildRunTable(s, path, t.TablebaseSeeds, t.readsBestMoves())
}

// noteStoredMoves says, for a run with training.tablebase_policy or
// training.tablebase_sample, whether its table answers the policy targets
// in one probe.
func noteStoredMoves(s *train.Session, tb *tablebase.Table) {
	if tb != nil && TrainingSection.Of(s.Config).readsBestMoves() && !tb.HasStoredMoves() {
		fmt.Fprintf(s.Log, "train: the table stores no best moves (a format 1 file, or built without --best-moves): "+
			"each policy target of training.tablebase_policy and training.tablebase_sample analyses its position's moves, many times a probe's cost\n")
	}
}

// buildRunTable builds the table of every position with at most seeds
// seeds of the run's rules and saves it at path (atomically), with the
// stored best moves when best is set (training.tablebase_policy).
func buildRunTable(s *train.Session, path string, seeds int, best bool) (*tablebase.Table, error) {
	fmt.Fprintf(s.Log, "train: building the endgame table of up to %d seeds for training targets (training.tablebase_seeds)\n", seeds)
	start := time.Now()
	report := s.Progress(fmt.Sprintf("endgame table, %d seeds", seeds), "positions")
	tb, _, err := tablebase.Build(context.Background(), s.Rules, seeds, tablebase.Options{
		Workers: s.Threads(), StoreMoves: best,
		Progress: func(p tablebase.Progress) {
			if p.LayerDone {
				report(int(p.Done), int(p.Total))
			}
		}})
	if err != nil {
		return nil, &train.ConfigError{Key: "training.tablebase_seeds", Err: err}
	}
	if err := tb.Save(path); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	fmt.Fprintf(s.Log, "train: %s: %d bytes in %.1fs\n", path, tb.Size(), time.Since(start).Seconds())
	return tb, nil
}
