package main

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"strconv"
)

// Chart geometry, in pixels: the contenders' names left of the plot, the
// figures in a column of their own right of it, where neither the bars nor
// the line at 1× reach.
const (
	chartLeft, chartPlotW, chartRight = 110.0, 420.0, 190.0
	chartTop, chartBarH, chartGap     = 40.0, 18.0, 6.0
)

// ratioChart draws one workload's ratios to poolkit as horizontal bars on
// a log2 scale, with each ratio's interval as a whisker where there is
// one, a line at 1 (poolkit), and each bar's ratio and median time in a
// column to the right. Contenders without a ratio are listed with the
// reason instead of a bar, and so are those the rounds give no verdict
// on, with their time.
func ratioChart(w workloadView) []byte {
	lo, hi := 1.0, 1.0
	for _, b := range w.Bars {
		if b.Ratio > 0 {
			lo, hi = math.Min(lo, b.Ratio), math.Max(hi, b.Ratio)
		}
		if b.Hi > 0 {
			lo, hi = math.Min(lo, b.Lo), math.Max(hi, b.Hi)
		}
	}
	// Start the axis below the smallest ratio, so that every bar, poolkit's
	// 1× included, has a length.
	lo = math.Exp2(math.Floor(math.Log2(lo * 0.99)))
	hi = math.Exp2(math.Ceil(math.Log2(hi)))
	if hi <= lo {
		hi = lo * 2
	}
	height := chartTop + float64(len(w.Bars))*(chartBarH+chartGap) + 30
	width := chartLeft + chartPlotW + chartRight
	x := func(r float64) float64 {
		return chartLeft + chartPlotW*(math.Log2(r)-math.Log2(lo))/(math.Log2(hi)-math.Log2(lo))
	}
	labels := chartLeft + chartPlotW + 10

	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n",
		width, height, width, height)
	fmt.Fprintf(&b, `<title>%s: time per op relative to poolkit</title>`+"\n", html.EscapeString(w.Name))
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="18" font-size="14" font-weight="bold">%s: median time per op / poolkit's (log scale, lower is faster)</text>`+"\n",
		chartLeft, html.EscapeString(w.Name))
	for t := lo; t <= hi*1.0001; t *= 2 {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#ddd"/>`+"\n", x(t), chartTop-6, x(t), height-24)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle" fill="#555">%s×</text>`+"\n", x(t), height-10, strconv.FormatFloat(t, 'g', 3, 64))
	}
	for i, r := range w.Bars {
		y := chartTop + float64(i)*(chartBarH+chartGap)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", chartLeft-8, y+chartBarH-5, html.EscapeString(r.Impl))
		switch {
		case r.NoVerdict:
			fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" fill="#555">%s (%s)</text>`+"\n", labels, y+chartBarH-5,
				html.EscapeString(r.NoRatioAs), html.EscapeString(r.Time))
			continue
		case r.Ratio <= 0:
			fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" fill="#a00">%s</text>`+"\n", labels, y+chartBarH-5, html.EscapeString(r.NoRatioAs))
			continue
		}
		fill := "#8aa9c9"
		if r.Impl == "poolkit" {
			fill = "#2b6cb0"
		}
		fmt.Fprintf(&b, `<rect x="%.0f" y="%.1f" width="%.1f" height="%.0f" fill="%s"/>`+"\n", chartLeft, y, math.Max(x(r.Ratio)-chartLeft, 1), chartBarH, fill)
		if r.Hi > 0 {
			mid := y + chartBarH/2
			fmt.Fprintf(&b, `<path d="M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fV%.1f" stroke="#333" fill="none"/>`+"\n",
				x(r.Lo), mid-4, mid+4, x(r.Lo), mid, x(r.Hi), x(r.Hi), mid-4, mid+4)
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s (%s)</text>`+"\n", labels, y+chartBarH-5, formatRatio(r.Ratio), html.EscapeString(r.Time))
	}
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#c53030" stroke-width="1.5"/>`+"\n", x(1), chartTop-6, x(1), height-24)
	b.WriteString("</svg>\n")
	return b.Bytes()
}
