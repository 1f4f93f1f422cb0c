package train

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/urim-rl/urim/internal/atomicfile"
)

// points returns the (x, y) pairs of the rows where y is a number.
func points(x, y []float64) plotter.XYs {
	var out plotter.XYs
	for i := range y {
		if i < len(x) && !math.IsNaN(y[i]) && !math.IsNaN(x[i]) {
			out = append(out, plotter.XY{X: x[i], Y: y[i]})
		}
	}
	return out
}

// WritePlots draws losses.png, elo.png and speed.png in dir from the metrics
// table alone (so they can be redrawn from metrics.csv), and returns their
// paths. A plot with nothing to show yet is skipped.
func WritePlots(dir string, t *Table) ([]string, error) {
	it := t.Column("iteration")
	var paths []string
	save := func(name string, p *plot.Plot) error {
		path := filepath.Join(dir, name)
		wt, err := p.WriterTo(7*vg.Inch, 4*vg.Inch, "png")
		if err != nil {
			return err
		}
		if err := atomicfile.WriteMkdir(path, func(w io.Writer) error {
			_, err := wt.WriteTo(w)
			return err
		}); err != nil {
			return err
		}
		paths = append(paths, path)
		return nil
	}
	lines := func(title, ylabel string, cols ...string) (*plot.Plot, bool) {
		p := plot.New()
		p.Title.Text = title
		p.X.Label.Text = "iteration"
		p.Y.Label.Text = ylabel
		p.Add(plotter.NewGrid())
		found := false
		var args []any
		for _, c := range cols {
			if pts := points(it, t.Column(c)); len(pts) > 0 {
				args = append(args, c, pts)
				found = true
			}
		}
		if found {
			if err := plotutil.AddLinePoints(p, args...); err != nil {
				return nil, false
			}
		}
		return p, found
	}
	if p, ok := lines("Training losses", "loss", "policy_loss", "value_loss", "entropy"); ok {
		if err := save("losses.png", p); err != nil {
			return paths, fmt.Errorf("train: plot: %w", err)
		}
	}
	if p, ok := lines("Self-play speed", "positions (PPO: environment steps) per second", "positions_per_s", "env_steps_per_s"); ok {
		if err := save("speed.png", p); err != nil {
			return paths, fmt.Errorf("train: plot: %w", err)
		}
	}
	elo, lo, hi := t.Column("elo"), t.Column("elo_lo95"), t.Column("elo_hi95")
	if pts := points(it, elo); len(pts) > 0 {
		p := plot.New()
		p.Title.Text = "Elo (random = 0), 95% interval"
		p.X.Label.Text = "iteration"
		p.Y.Label.Text = "Elo"
		p.Add(plotter.NewGrid())
		var errs plotter.YErrors
		for i := range elo {
			if !math.IsNaN(elo[i]) {
				errs = append(errs, struct{ Low, High float64 }{elo[i] - lo[i], hi[i] - elo[i]})
			}
		}
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{pts, errs})
		if err == nil {
			bars.Color = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
			p.Add(bars)
		}
		line, dots, err := plotter.NewLinePoints(pts)
		if err != nil {
			return paths, fmt.Errorf("train: plot: %w", err)
		}
		line.Color = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
		dots.Color = line.Color
		p.Add(line, dots)
		if err := save("elo.png", p); err != nil {
			return paths, fmt.Errorf("train: plot: %w", err)
		}
	}
	return paths, nil
}
