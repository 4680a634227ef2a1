// Package scaleplot draws the autoscaler evaluation: for one scenario,
// the offered load, the pool size and the p99 queue wait over time, one
// line per controller, as an SVG.
package scaleplot

import (
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/poolkit/poolkit/autoscale/eval"
)

// WriteSVG draws the runs of one scenario (the reference's fixed size first,
// then the controllers) and writes the SVG to w. The legend is drawn
// below the panels, outside every data area, so that no line is hidden.
func WriteSVG(w io.Writer, s eval.Scenario, runs []eval.Result) error {
	if len(runs) == 0 {
		return fmt.Errorf("scaleplot: no runs for %s", s.Name)
	}
	load := panel(s.Name, "offered load (tasks/s)")
	size := panel("", "pool size (workers)")
	wait := panel("", "p99 queue wait (ms)")
	wait.X.Label.Text = "time (s)"

	legend := plot.NewLegend()
	legend.Left = true
	legend.Top = true
	// The offered load is the same for every run: draw it once.
	l, err := addLine(load, color.Black, runs[0].Series, func(p eval.Point) float64 { return p.Offered })
	if err != nil {
		return err
	}
	entries := []entry{{"offered load", l}}
	for i, r := range runs {
		c := plotutil.Color(i)
		l, err := addLine(size, c, r.Series, func(p eval.Point) float64 { return float64(p.Size) })
		if err != nil {
			return err
		}
		if _, err := addLine(wait, c, r.Series, func(p eval.Point) float64 { return float64(p.WaitP99.Microseconds()) / 1000 }); err != nil {
			return err
		}
		name := r.Controller
		if i == 0 {
			name = "reference (" + name + ")"
		}
		entries = append(entries, entry{name, l})
	}

	rows := (len(entries) + legendCols - 1) / legendCols
	legendH := vg.Length(rows)*legendRow + 2*vg.Millimeter
	img := vgsvg.New(8*vg.Inch, 9*vg.Inch+legendH)
	dc := draw.New(img)
	// The panels above, the legend in a strip of its own below them.
	panels := draw.Crop(dc, 0, 0, legendH, 0)
	strip := draw.Crop(dc, 0, 0, 0, legendH-dc.Size().Y)
	tiles := draw.Tiles{Rows: 3, Cols: 1, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2,
		PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4, PadY: vg.Millimeter * 6}
	plots := [][]*plot.Plot{{load}, {size}, {wait}}
	canvases := plot.Align(plots, tiles, panels)
	for i := range plots {
		plots[i][0].Draw(canvases[i][0])
	}
	drawLegend(strip, entries)
	_, err = img.WriteTo(w)
	return err
}

const (
	legendCols = 3
	legendRow  = 5 * vg.Millimeter
)

// entry is one line of the legend.
type entry struct {
	name  string
	thumb plot.Thumbnailer
}

// drawLegend lays the entries out in rows of legendCols columns, left to
// right, from the top of c.
func drawLegend(c draw.Canvas, entries []entry) {
	width := c.Size().X - 8*vg.Millimeter
	for i, e := range entries {
		row, col := i/legendCols, i%legendCols
		x := c.Min.X + 4*vg.Millimeter + vg.Length(col)*width/legendCols
		top := c.Max.Y - vg.Length(row)*legendRow
		cell := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: top - legendRow},
			Max: vg.Point{X: x + width/legendCols, Y: top},
		}}
		l := plot.NewLegend()
		l.Left, l.Top = true, true
		l.Add(e.name, e.thumb)
		l.Draw(cell)
	}
}

func panel(title, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	p.Add(plotter.NewGrid())
	return p
}

func addLine(p *plot.Plot, c color.Color, series []eval.Point, y func(eval.Point) float64) (*plotter.Line, error) {
	xys := make(plotter.XYs, len(series))
	for i, pt := range series {
		xys[i].X = pt.T.Seconds()
		xys[i].Y = y(pt)
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	l.Color = c
	l.Width = vg.Points(1.2)
	p.Add(l)
	return l, nil
}
