package alphazero

import (
	"context"
	"github.com/urim-rl/urim/train"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/tablebase/tbtest"
)

// With evaluation.tablebase every evaluated iteration gets the tb_* columns:
// a share in [0, 1] inside its interval and a non-negative loss inside its.
func TestTablebaseAccuracyColumns(t *testing.T) {
	path := tbFile(t, env.Urim4, 6)
	dir := filepath.Join(t.TempDir(), "run")
	cfg := tinyConfig(t, dir, "max_plies=0", "evaluation.every=1", "evaluation.tablebase="+path, "evaluation.tablebase_positions=40")
	if _, err := train.Run(context.Background(), cfg, train.Options{}); err != nil {
		t.Fatal(err)
	}
	tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	col := map[string][]float64{}
	for _, c := range []string{"tb_best", "tb_best_lo95", "tb_best_hi95", "tb_loss", "tb_loss_lo95", "tb_loss_hi95"} {
		if col[c] = tab.Column(c); len(col[c]) != 2 {
			t.Fatalf("metrics.csv column %s: %v, want 2 rows", c, col[c])
		}
	}
	for i := range 2 {
		share, lo, hi := col["tb_best"][i], col["tb_best_lo95"][i], col["tb_best_hi95"][i]
		loss, llo, lhi := col["tb_loss"][i], col["tb_loss_lo95"][i], col["tb_loss_hi95"][i]
		if !(0 <= lo && lo <= share && share <= hi && hi <= 1) || !(0 <= llo && llo <= loss && loss <= lhi) {
			t.Fatalf("iteration %d: tb_best %g [%g, %g], tb_loss %g [%g, %g]", i+1, share, lo, hi, loss, llo, lhi)
		}
	}
}

// A table for other rules, a missing file and a table without evaluations
// are config errors naming the key.
func TestTablebaseConfigErrors(t *testing.T) {
	other := tbFile(t, env.Urim, 2)
	for _, sets := range [][]string{
		{"max_plies=0", "evaluation.tablebase=" + other},
		{"max_plies=0", "evaluation.tablebase=" + filepath.Join(t.TempDir(), "missing.tb")},
		{"evaluation.tablebase=" + other, "evaluation.every=0"},
	} {
		cfg, err := train.LoadConfig(filepath.Join("..", "..", "configs", "tiny.yaml"), append([]string{"output=" + filepath.Join(t.TempDir(), "run")}, sets...))
		if err == nil {
			_, err = train.Run(context.Background(), cfg, train.Options{})
		}
		if err == nil || !strings.Contains(err.Error(), "evaluation.tablebase") {
			t.Errorf("%v: %v, want an error naming evaluation.tablebase", sets, err)
		}
	}
}

// tbFile is tbtest.File without the table.
func tbFile(t *testing.T, r env.Rules, k int) string {
	t.Helper()
	path, _ := tbtest.File(t, r, k)
	return path
}
