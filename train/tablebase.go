package train

import (
	"context"
	"fmt"
	"math"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/tablebase"
)

// tbColumns are the metrics.csv columns of the tablebase accuracy
// (evaluation.tablebase): the share of moves that keep the best value and
// the mean seeds lost per move, each with its 95% interval.
var tbColumns = []string{"tb_best", "tb_best_lo95", "tb_best_hi95", "tb_loss", "tb_loss_lo95", "tb_loss_hi95"}

// checkTablebase checks evaluation.tablebase and its positions (the file
// itself is read when the run starts).
func (c *Config) checkTablebase() error {
	if err := IntRange("evaluation.tablebase_positions", c.Evaluation.TablebasePositions, 0, 1<<20); err != nil {
		return err
	}
	if c.Evaluation.Tablebase != "" && c.Evaluation.Every == 0 {
		return bad("evaluation.tablebase", "set, but evaluation.every is 0: the accuracy is measured at each evaluation")
	}
	return nil
}

// loadEvalTable loads evaluation.tablebase for the run's rules, or returns
// nil when it is not set.
func loadEvalTable(cfg *Config, rules env.Rules) (*tablebase.Table, error) {
	if cfg.Evaluation.Tablebase == "" {
		return nil, nil
	}
	t, err := tablebase.LoadFor(cfg.Evaluation.Tablebase, rules)
	if err != nil {
		return nil, trainError(&ConfigError{Key: "evaluation.tablebase", Err: err})
	}
	return t, nil
}

// tableAccuracy scores iteration it's network, searching as in the
// evaluation, against the run's table: the tb_* columns. Every evaluation
// scores the same positions with the same seeds, so the columns compare
// across iterations.
func (s *Session) tableAccuracy(ctx context.Context, it int, net *nn.Net) ([]float64, error) {
	cand := s.alg.Player(it, net)
	rep, err := evaluate.Accuracy(ctx, evaluate.AccuracyConfig{
		Agent: cand.Name, New: cand.New, Table: s.endgames, Positions: s.Config.Evaluation.TablebasePositions,
		Seed: s.Seed(0x7462), Progress: s.Progress(s.Iter(it)+" tablebase", "positions"),
	})
	if err != nil {
		return nil, fmt.Errorf("train: tablebase accuracy of iteration %d: %w", it, err)
	}
	a := rep.All
	return []float64{a.Share, a.ShareLo, a.ShareHi, a.Loss, a.LossLo, a.LossHi}, nil
}

// nans returns n NaNs (empty cells).
func nans(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = math.NaN()
	}
	return x
}
