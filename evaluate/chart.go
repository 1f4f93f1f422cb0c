package evaluate

import (
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ratingPoints adapts ratings to gonum/plot's XY and XError interfaces: one
// point per player, Elo across, rank down.
type ratingPoints struct {
	r     *Ratings
	order []int
}

func (p ratingPoints) Len() int { return len(p.order) }

func (p ratingPoints) XY(k int) (x, y float64) {
	return p.r.Players[p.order[k]].Elo, float64(len(p.order) - 1 - k)
}

func (p ratingPoints) XError(k int) (low, high float64) {
	pl := p.r.Players[p.order[k]]
	return pl.Elo - pl.Lo, pl.Hi - pl.Elo
}

// WriteChart draws the ratings as a PNG: one row per player, strongest at the
// top, a dot at the rating and a bar over its 95% interval.
func WriteChart(w io.Writer, r *Ratings, title string) error {
	pts := ratingPoints{r: r, order: r.order()}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "Elo"
	names := make([]plot.Tick, pts.Len())
	for k, i := range pts.order {
		names[k] = plot.Tick{Value: float64(pts.Len() - 1 - k), Label: r.Players[i].Name}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(names)
	p.Y.Min, p.Y.Max = -0.7, float64(pts.Len())-0.3
	p.Add(plotter.NewGrid())

	bars, err := plotter.NewXErrorBars(pts)
	if err != nil {
		return err
	}
	bars.LineStyle.Width = vg.Points(1.5)
	bars.LineStyle.Color = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	dots, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	dots.GlyphStyle.Radius = vg.Points(3)
	dots.GlyphStyle.Shape = draw.CircleGlyph{}
	dots.GlyphStyle.Color = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	p.Add(bars, dots)
	// Leave a margin so the end caps of the outermost bars are not clipped.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, pl := range r.Players {
		lo, hi = math.Min(lo, pl.Lo), math.Max(hi, pl.Hi)
	}
	pad := math.Max(0.05*(hi-lo), 10)
	p.X.Min, p.X.Max = lo-pad, hi+pad

	height := vg.Length(1.2+0.35*float64(pts.Len())) * vg.Inch
	wt, err := p.WriterTo(7*vg.Inch, height, "png")
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}
