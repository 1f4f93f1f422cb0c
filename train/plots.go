package train

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

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

// Figure names a tiled figure of the run directory.
type Figure string

// The tiled figures: one panel per quantity each.
const (
	LossesFigure Figure = "losses.png"
	SpeedFigure  Figure = "speed.png"
)

// Panel is one quantity of a tiled figure: a column of metrics.csv drawn
// against the iteration, titled by what it is (no legend to hide a curve).
type Panel struct {
	Figure Figure
	Column string
	Title  string
	// Unit labels the y axis.
	Unit string
}

// corePanels are the core's quantities, drawn after the algorithm's.
var corePanels = []Panel{
	{Figure: LossesFigure, Column: "lr", Title: "Learning rate", Unit: "rate"},
}

// figurePanels returns the panels of figure f: the registered algorithm's
// (none for a name not registered), then the core's.
func figurePanels(f Figure, algorithm string) []Panel {
	spec, _ := specOf(algorithm)
	var out []Panel
	for _, pn := range append(slices.Clone(spec.Panels), corePanels...) {
		if pn.Figure == f {
			out = append(out, pn)
		}
	}
	return out
}

// WritePlots draws losses.png, elo.png and speed.png in dir from the metrics
// table alone (so they can be redrawn from metrics.csv) and the panels
// algorithm registered, and returns their paths. losses.png and speed.png
// hold one panel per quantity the run records; a plot with nothing to show
// yet is skipped.
func WritePlots(dir string, t *Table, algorithm string) ([]string, error) {
	it := t.Column("iteration")
	var paths []string
	save := func(name string, w, h vg.Length, paint func(dc draw.Canvas)) error {
		path := filepath.Join(dir, name)
		img := vgimg.New(w, h)
		dc := draw.New(img)
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
		paint(dc)
		if err := atomicfile.WriteMkdir(path, func(out io.Writer) error {
			_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(out)
			return err
		}); err != nil {
			return fmt.Errorf("train: plot: %w", err)
		}
		paths = append(paths, path)
		return nil
	}
	for _, f := range []Figure{LossesFigure, SpeedFigure} {
		var plots []*plot.Plot
		for _, pn := range panelsOf(t, figurePanels(f, algorithm)) {
			if p := linePanel(it, t.Column(pn.Column), pn); p != nil {
				plots = append(plots, p)
			}
		}
		if len(plots) == 0 {
			continue
		}
		rows, cols := tiling(len(plots))
		grid := make([][]*plot.Plot, rows)
		for r := range grid {
			grid[r] = make([]*plot.Plot, cols)
			for c := range grid[r] {
				if k := r*cols + c; k < len(plots) {
					grid[r][c] = plots[k]
				}
			}
		}
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: 6 * vg.Millimeter, PadY: 6 * vg.Millimeter,
			PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 4 * vg.Millimeter}
		err := save(string(f), vg.Length(cols)*4.2*vg.Inch, vg.Length(rows)*2.8*vg.Inch, func(dc draw.Canvas) {
			canvases := plot.Align(grid, tiles, dc)
			for r := range grid {
				for c, p := range grid[r] {
					if p != nil {
						p.Draw(canvases[r][c])
					}
				}
			}
		})
		if err != nil {
			return paths, err
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
		if err := save("elo.png", 7*vg.Inch, 4*vg.Inch, p.Draw); err != nil {
			return paths, err
		}
	}
	return paths, nil
}

// panelsOf returns the panels of those whose column t has, with a number.
func panelsOf(t *Table, panels []Panel) []Panel {
	it := t.Column("iteration")
	var out []Panel
	for _, pn := range panels {
		if len(points(it, t.Column(pn.Column))) > 0 {
			out = append(out, pn)
		}
	}
	return out
}

// tiling lays n panels out in rows of two, or of three past four panels.
func tiling(n int) (rows, cols int) {
	cols = min(n, 2)
	if n > 4 {
		cols = 3
	}
	return (n + cols - 1) / cols, cols
}

// linePanel plots column y against the iterations x, or returns nil when
// the column is absent or holds no number.
func linePanel(x, y []float64, pn Panel) *plot.Plot {
	pts := points(x, y)
	if len(pts) == 0 {
		return nil
	}
	p := plot.New()
	p.Title.Text = pn.Title
	p.X.Label.Text = "iteration"
	p.Y.Label.Text = pn.Unit
	p.Add(plotter.NewGrid())
	p.Y.Tick.Marker = distinctTicks{}
	line, dots, err := plotter.NewLinePoints(pts)
	if err != nil {
		return nil
	}
	line.Color = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	dots.Color, dots.Radius = line.Color, vg.Points(1.5)
	p.Add(line, dots)
	if lo, hi := yRange(pts); hi-lo < 1e-9*math.Max(1, math.Abs(hi)) {
		// A constant (a fixed learning rate): a visible band around it.
		p.Y.Min, p.Y.Max = lo-math.Max(math.Abs(lo)*0.1, 1e-6), hi+math.Max(math.Abs(hi)*0.1, 1e-6)
	}
	return p
}

// distinctTicks are gonum's default ticks, labelled with more digits when
// the default labels of two ticks read the same (1.4 and 1.4 for 1.35 and
// 1.4).
type distinctTicks struct{}

func (distinctTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	seen := map[string]bool{}
	dup := false
	for _, t := range ts {
		if t.Label != "" {
			dup = dup || seen[t.Label]
			seen[t.Label] = true
		}
	}
	if dup {
		for i := range ts {
			if ts[i].Label != "" {
				ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 4, 64)
			}
		}
	}
	return ts
}

func yRange(pts plotter.XYs) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, q := range pts {
		lo, hi = math.Min(lo, q.Y), math.Max(hi, q.Y)
	}
	return lo, hi
}
