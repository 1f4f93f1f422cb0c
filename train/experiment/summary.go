package experiment

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/urim-rl/urim/internal/atomicfile"
	"github.com/urim-rl/urim/train"
)

// CellStats is one cell of the report: its runs' final ratings.
type CellStats struct {
	Cell string
	Runs int
	// Mean is the mean Elo over the cell's runs; Lo and Hi its 95%
	// interval: Student's t over the seeds with two runs or more, the one
	// run's own rating interval with one.
	Mean, Lo, Hi float64
	// Iterations and ElapsedS are the runs' means.
	Iterations, ElapsedS float64
}

// Cells summarises rows by cell, in the plan's order.
func cellStats(p *Plan, rows []Row) []CellStats {
	var out []CellStats
	for _, cell := range p.Cells {
		var elos, its, secs []float64
		var one Row
		for _, r := range rows {
			if r.Cell == cell.Name {
				elos = append(elos, r.Elo)
				its = append(its, float64(r.Iterations))
				secs = append(secs, r.ElapsedS)
				one = r
			}
		}
		cs := CellStats{Cell: cell.Name, Runs: len(elos), Mean: stat.Mean(elos, nil),
			Iterations: stat.Mean(its, nil), ElapsedS: stat.Mean(secs, nil)}
		switch n := len(elos); {
		case n >= 2:
			t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975)
			h := t * stat.StdDev(elos, nil) / math.Sqrt(float64(n))
			cs.Lo, cs.Hi = cs.Mean-h, cs.Mean+h
		case n == 1:
			cs.Lo, cs.Hi = one.EloLo, one.EloHi
		}
		out = append(out, cs)
	}
	return out
}

// writeSummary writes summary.csv, report.md and elo.png in dir.
func writeSummary(dir string, p *Plan, rows []Row, h2h []H2HCell) error {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	head := []string{"cell"}
	if len(p.Recipes) > 0 {
		head = append(head, "recipe")
	}
	for _, a := range p.Grid {
		head = append(head, a.Key)
	}
	head = append(head, "seed", "dir", "iterations", "elapsed_s", "elo", "elo_lo95", "elo_hi95", "run_elo", "h2h_elo", "h2h_lo95", "h2h_hi95")
	w.Write(head)
	f := func(x float64) string { return train.Cell(x) }
	for _, r := range rows {
		rec := append([]string{r.Cell}, r.Values...)
		rec = append(rec, strconv.Itoa(r.Seed), r.Dir, strconv.Itoa(r.Iterations), f(r.ElapsedS), f(r.Elo), f(r.EloLo), f(r.EloHi), f(r.RunElo), f(r.H2H), f(r.H2HLo), f(r.H2HHi))
		w.Write(rec)
	}
	w.Flush()
	if err := atomicfile.WriteFile(filepath.Join(dir, "summary.csv"), b.Bytes()); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "report.md"), report(p, rows, h2h)); err != nil {
		return err
	}
	return writeEloPlot(filepath.Join(dir, "elo.png"), p, rows, dir)
}

// report is report.md: the settings and one line per cell, best first.
func report(p *Plan, rows []Row, h2h []H2HCell) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Sweep of %s\n\n", p.Base)
	var axes []string
	for _, a := range p.Grid {
		axes = append(axes, fmt.Sprintf("`%s` ∈ {%s}", a.Key, strings.Join(a.Values, ", ")))
	}
	for _, r := range p.Recipes {
		sets := "the base config"
		if len(r.Sets) > 0 {
			sets = "`" + strings.Join(r.Sets, "`, `") + "`"
		}
		axes = append(axes, fmt.Sprintf("recipe `%s` (%s)", r.Name, sets))
	}
	if len(axes) == 0 {
		axes = []string{"none (the base config alone)"}
	}
	budget := p.Budget
	if budget == "0s" {
		budget = "the base config's stop"
	}
	seeds := fmt.Sprintf("%d seeds per cell", p.Seeds)
	if p.Seeds == 1 {
		seeds = "one seed per cell"
	}
	fmt.Fprintf(&b, "Grid: %s; %s; training budget per run: %s", strings.Join(axes, ", "), seeds, budget)
	if len(p.Sets) > 0 {
		fmt.Fprintf(&b, "; every run with `%s`", strings.Join(p.Sets, "`, `"))
	}
	fmt.Fprintf(&b, ".\n\nEvery run's final network (`checkpoints/latest.ckpt`) is rated as `az:ckpt=…,sims=%d` in a round robin with the panel %s, %d games per pairing on paired 4-ply openings, all games in one store (`%s`)",
		p.RateSims, "`"+strings.Join(p.Panel, "`, `")+"`", p.Games, storeFile)
	if len(p.Panel) > 0 && p.Panel[0] == "random" {
		b.WriteString(", random anchored at 0 Elo")
	}
	b.WriteString(". The interval of a cell is Student's t over its seeds (95%); with one seed, that run's rating interval.\n\n")
	b.WriteString("| cell | runs | Elo (mean) | 95% interval | iterations (mean) | training s (mean) |\n|---|---|---|---|---|---|\n")
	cs := cellStats(p, rows)
	slices.SortStableFunc(cs, func(x, y CellStats) int {
		switch {
		case x.Mean > y.Mean:
			return -1
		case x.Mean < y.Mean:
			return 1
		}
		return 0
	})
	for _, c := range cs {
		fmt.Fprintf(&b, "| %s | %d | %.0f | [%.0f, %.0f] | %.1f | %.1f |\n", c.Cell, c.Runs, c.Mean, c.Lo, c.Hi, c.Iterations, c.ElapsedS)
	}
	if len(h2h) > 0 {
		fmt.Fprintf(&b, "\n## Head to head\n\nEvery run's final network as `az:ckpt=…,sims=%d` in one round robin with every other and the panel, %d games per pairing on paired 4-ply openings (`%s`). A cell's rating is the mean of its seeds' ratings in that one fit, its interval the mean's (95%%, from the fit's covariance).\n\n", cmp.Or(p.H2HSims, p.RateSims), cmp.Or(p.H2HGames, p.Games), h2hStoreFile)
		b.WriteString("| cell | runs | head-to-head Elo | 95% interval |\n|---|---|---|---|\n")
		hs := slices.Clone(h2h)
		slices.SortStableFunc(hs, func(x, y H2HCell) int {
			switch {
			case x.Elo > y.Elo:
				return -1
			case x.Elo < y.Elo:
				return 1
			}
			return 0
		})
		for _, c := range hs {
			fmt.Fprintf(&b, "| %s | %d | %.0f | [%.0f, %.0f] |\n", c.Cell, c.Runs, c.Elo, c.Lo, c.Hi)
		}
	}
	b.WriteString("\nPer run: `summary.csv`. In-run Elo against training time, mean over the seeds with their range as a band: `elo.png` (the in-run ratings are against each run's own evaluation panel).\n")
	return []byte(b.String())
}

// curve is one run's in-run Elo against its training time.
type curve struct{ t, elo []float64 }

// writeEloPlot draws elo.png: for each cell, the mean over its seeds of the
// in-run Elo against training time (each run's curve held constant after
// its last point and interpolated between points), with the seeds' range
// as a band.
func writeEloPlot(path string, p *Plan, rows []Row, dir string) error {
	pl := plot.New()
	pl.Title.Text = "In-run Elo against training time, per cell (band: range over seeds)"
	pl.X.Label.Text = "training time (s)"
	pl.Y.Label.Text = "Elo"
	pl.Legend.Top = true
	pl.Legend.Left = true
	drawn := 0
	for k, cell := range p.Cells {
		var curves []curve
		tmax := 0.0
		for _, r := range rows {
			if r.Cell != cell.Name {
				continue
			}
			tab, err := train.ReadMetrics(filepath.Join(dir, r.Dir, "metrics.csv"))
			if err != nil {
				return err
			}
			var cv curve
			ts, es := tab.Column("elapsed_s"), tab.Column("elo")
			for i := range es {
				if i < len(ts) && !math.IsNaN(es[i]) && !math.IsNaN(ts[i]) {
					cv.t, cv.elo = append(cv.t, ts[i]), append(cv.elo, es[i])
				}
			}
			if len(cv.t) > 0 {
				curves = append(curves, cv)
				tmax = max(tmax, cv.t[len(cv.t)-1])
			}
		}
		if len(curves) == 0 {
			continue
		}
		const steps = 60
		var mean, lo, hi plotter.XYs
		for i := 0; i <= steps; i++ {
			x := tmax * float64(i) / steps
			var ys []float64
			for _, cv := range curves {
				if x >= cv.t[0] {
					ys = append(ys, interp(cv, x))
				}
			}
			if len(ys) == 0 {
				continue
			}
			mean = append(mean, plotter.XY{X: x, Y: stat.Mean(ys, nil)})
			lo = append(lo, plotter.XY{X: x, Y: slices.Min(ys)})
			hi = append(hi, plotter.XY{X: x, Y: slices.Max(ys)})
		}
		col := plotutil.Color(k)
		if len(curves) > 1 && len(lo) > 1 {
			band := append(slices.Clone(lo), reversed(hi)...)
			poly, err := plotter.NewPolygon(band)
			if err == nil {
				r, g, b, _ := col.RGBA()
				poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 60}
				poly.LineStyle.Width = 0
				pl.Add(poly)
			}
		}
		line, err := plotter.NewLine(mean)
		if err != nil {
			continue
		}
		line.Color = col
		line.Width = vg.Points(1.5)
		pl.Add(line)
		pl.Legend.Add(cell.Name, line)
		drawn++
	}
	if drawn == 0 {
		pl.Title.Text += ": no run was evaluated"
	}
	img := vgimg.New(8*vg.Inch, 5*vg.Inch)
	dc := draw.New(img)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	pl.Draw(dc)
	return atomicfile.WriteMkdir(path, func(out io.Writer) error {
		_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(out)
		return err
	})
}

// interp is cv's Elo at time x: linear between its points, its last value
// after them.
func interp(cv curve, x float64) float64 {
	for i := 1; i < len(cv.t); i++ {
		if x <= cv.t[i] {
			if cv.t[i] == cv.t[i-1] {
				return cv.elo[i]
			}
			f := (x - cv.t[i-1]) / (cv.t[i] - cv.t[i-1])
			return cv.elo[i-1] + f*(cv.elo[i]-cv.elo[i-1])
		}
	}
	return cv.elo[len(cv.elo)-1]
}

func reversed(xs plotter.XYs) plotter.XYs {
	out := slices.Clone(xs)
	slices.Reverse(out)
	return out
}
