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

// WriteSVG draws the runs of one scenario (the oracle's fixed size first,
// then the controllers) and writes the SVG to w.
func WriteSVG(w io.Writer, s eval.Scenario, runs []eval.Result) error {
	if len(runs) == 0 {
		return fmt.Errorf("scaleplot: no runs for %s", s.Name)
	}
	load := panel(s.Name, "offered load (tasks/s)")
	size := panel("", "pool size (workers)")
	wait := panel("", "p99 queue wait (ms)")
	wait.X.Label.Text = "time (s)"

	// The offered load is the same for every run: draw it once.
	if err := addLine(load, "offered", color.Black, runs[0].Series, func(p eval.Point) float64 { return p.Offered }); err != nil {
		return err
	}
	for i, r := range runs {
		c := plotutil.Color(i)
		if err := addLine(size, r.Controller, c, r.Series, func(p eval.Point) float64 { return float64(p.Size) }); err != nil {
			return err
		}
		if err := addLine(wait, "", c, r.Series, func(p eval.Point) float64 { return float64(p.WaitP99.Microseconds()) / 1000 }); err != nil {
			return err
		}
	}
	size.Legend.Top = true

	img := vgsvg.New(8*vg.Inch, 9*vg.Inch)
	tiles := draw.Tiles{Rows: 3, Cols: 1, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2,
		PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4, PadY: vg.Millimeter * 6}
	plots := [][]*plot.Plot{{load}, {size}, {wait}}
	canvases := plot.Align(plots, tiles, draw.New(img))
	for i := range plots {
		plots[i][0].Draw(canvases[i][0])
	}
	_, err := img.WriteTo(w)
	return err
}

func panel(title, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	p.Add(plotter.NewGrid())
	return p
}

func addLine(p *plot.Plot, name string, c color.Color, series []eval.Point, y func(eval.Point) float64) error {
	xys := make(plotter.XYs, len(series))
	for i, pt := range series {
		xys[i].X = pt.T.Seconds()
		xys[i].Y = y(pt)
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return err
	}
	l.Color = c
	l.Width = vg.Points(1.2)
	p.Add(l)
	if name != "" {
		p.Legend.Add(name, l)
	}
	return nil
}
