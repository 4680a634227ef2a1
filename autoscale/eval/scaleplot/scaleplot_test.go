package scaleplot_test

import (
	"bytes"
	"encoding/xml"
	"io"
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
