package train

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// syntheticTable is a metrics table with header's columns and n rows of
// made-up numbers (the iteration in the first column).
func syntheticTable(header []string, n int) *Table {
	t := &Table{Header: header}
	for i := 1; i <= n; i++ {
		row := make([]string, len(header))
		for k, h := range header {
			switch h {
			case "iteration":
				row[k] = strconv.Itoa(i)
			case "elo", "elo_lo95", "elo_hi95":
				row[k] = strconv.Itoa(10 * i)
			default:
				row[k] = strconv.FormatFloat(math.Sin(float64(i+k))+1.5, 'g', -1, 64)
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func panelColumns(ps []Panel) []string {
	var cols []string
	for _, p := range ps {
		cols = append(cols, p.Column)
	}
	return cols
}

// TestPlotsOnePanelPerQuantity: losses.png and speed.png give each
// quantity its own panel (entropy is not on the loss axis; PPO's KL, clip
// fraction and explained variance are drawn; each algorithm's speed has
// its own label), laid out in a grid the image's size shows.
func TestPlotsOnePanelPerQuantity(t *testing.T) {
	for _, c := range []struct {
		name           string
		header         []string
		losses, speeds []string
	}{
		{"alphazero", runHeader("positions", "mean_plies", "resigned", "false_resign", "selfplay_s", "positions_per_s",
			"buffer", "train_steps", "steps_per_s", "lr", "policy_loss", "value_loss", "entropy", "kl"),
			[]string{"policy_loss", "value_loss", "entropy", "kl", "lr"},
			[]string{"positions_per_s", "steps_per_s"}},
		{"ppo", runHeader("env_steps", "train_moves", "env_steps_per_s", "rollout_s", "update_s", "env_s", "forward_s",
			"backward_s", "update_steps", "lr", "policy_loss", "value_loss", "entropy", "approx_kl", "clip_frac",
			"explained_var", "pool"),
			[]string{"policy_loss", "value_loss", "entropy", "approx_kl", "clip_frac", "explained_var", "lr"},
			[]string{"env_steps_per_s"}},
	} {
		tab := syntheticTable(c.header, 6)
		if got := panelColumns(panelsOf(tab, figurePanels(LossesFigure, c.name))); !slices.Equal(got, c.losses) {
			t.Errorf("%s: losses.png panels %v, want %v", c.name, got, c.losses)
		}
		if got := panelColumns(panelsOf(tab, figurePanels(SpeedFigure, c.name))); !slices.Equal(got, c.speeds) {
			t.Errorf("%s: speed.png panels %v, want %v", c.name, got, c.speeds)
		}
		dir := t.TempDir()
		paths, err := WritePlots(dir, tab, c.name)
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) != 3 {
			t.Errorf("%s: wrote %v, want losses, speed and elo", c.name, paths)
		}
		for file, n := range map[string]int{"losses.png": len(c.losses), "speed.png": len(c.speeds)} {
			f, err := os.Open(filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := png.DecodeConfig(f)
			f.Close()
			if err != nil {
				t.Fatalf("%s: %s: %v", c.name, file, err)
			}
			rows, cols := tiling(n)
			// 4.2 × 2.8 inches a panel at 96 dots per inch.
			if w, h := int(math.Round(float64(cols)*4.2*96)), int(math.Round(float64(rows)*2.8*96)); abs(cfg.Width-w) > 1 || abs(cfg.Height-h) > 1 {
				t.Errorf("%s: %s is %d×%d, want %d×%d for %d panels", c.name, file, cfg.Width, cfg.Height, w, h, n)
			}
		}
	}
}

// runHeader is the metrics.csv header of a run of an algorithm with these
// columns, rated against random.
func runHeader(columns ...string) []string {
	h := append([]string{"iteration", "elapsed_s", "games"}, columns...)
	return append(h, "score_random", "elo", "elo_lo95", "elo_hi95", "best")
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
