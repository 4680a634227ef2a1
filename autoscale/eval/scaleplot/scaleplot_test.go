package scaleplot_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/poolkit/poolkit/autoscale/eval"
	"github.com/poolkit/poolkit/autoscale/eval/scaleplot"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestWriteSVG: the plot of two runs is well-formed SVG that names every
// controller in its legend.
func TestWriteSVG(t *testing.T) {
	var series []eval.Point
	for i := range 40 {
		series = append(series, eval.Point{T: time.Duration(i) * eval.Tick, Size: 4 + i%7, Offered: 300 + float64(10*i), WaitP99: time.Duration(i) * time.Millisecond})
	}
	runs := []eval.Result{
		{Controller: "fixed-8", Series: series},
		{Controller: "poolkit", Series: series},
	}
	var buf bytes.Buffer
	if err := scaleplot.WriteSVG(&buf, eval.Scenario{Name: "test scenario"}, runs); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	for {
		_, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed SVG: %v", err)
		}
	}
	for _, want := range []string{"<svg", "fixed-8", "poolkit", "pool size"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the SVG does not contain %q", want)
		}
	}
	if err := scaleplot.WriteSVG(&buf, eval.Scenario{}, nil); err == nil {
		t.Error("WriteSVG with no runs = nil, want an error")
	}
}

// TestLegendBelowThePanels: every legend entry is drawn once, below the
// time axis of the lowest panel, outside every data area, where it can
// hide no line (a legend inside a panel once covered the lines beneath).
func TestLegendBelowThePanels(t *testing.T) {
	var series []eval.Point
	for i := range 40 {
		series = append(series, eval.Point{T: time.Duration(i) * eval.Tick, Size: 40, Offered: 1000, WaitP99: time.Second})
	}
	names := []string{"fixed-32", "poolkit", "netflix-aimd", "k8s-hpa", "akka-resizer"}
	var runs []eval.Result
	for _, n := range names {
		runs = append(runs, eval.Result{Controller: n, Series: series})
	}
	var buf bytes.Buffer
	if err := scaleplot.WriteSVG(&buf, eval.Scenario{Name: "legend"}, runs); err != nil {
		t.Fatal(err)
	}
	texts := svgTexts(t, buf.Bytes())
	axis, ok := texts["time (s)"]
	if !ok || len(axis) != 1 {
		t.Fatalf("the time axis label is drawn %d times", len(axis))
	}
	for _, want := range append([]string{"offered load", "reference (fixed-32)"}, names[1:]...) {
		ys := texts[want]
		if len(ys) != 1 {
			t.Errorf("legend entry %q is drawn %d times, want once", want, len(ys))
			continue
		}
		// gonum draws with y pointing up: below is smaller.
		if ys[0] >= axis[0] {
			t.Errorf("legend entry %q at height %v, not below the time axis label at %v", want, ys[0], axis[0])
		}
	}
}

// svgTexts maps the content of every text element of an SVG written by
// gonum (y flipped by scale(1, -1)) to the heights it is drawn at.
func svgTexts(t *testing.T, svg []byte) map[string][]float64 {
	t.Helper()
	out := map[string][]float64{}
	d := xml.NewDecoder(bytes.NewReader(svg))
	var y float64
	in := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if e.Name.Local == "text" {
				in = true
				for _, a := range e.Attr {
					if a.Name.Local == "y" {
						v, err := strconv.ParseFloat(a.Value, 64)
						if err != nil {
							t.Fatal(err)
						}
						y = -v
					}
				}
			}
		case xml.CharData:
			if in {
				out[string(e)] = append(out[string(e)], y)
			}
		case xml.EndElement:
			in = false
		}
	}
}
