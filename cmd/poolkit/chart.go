package main

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/poolkit/poolkit/bench"
)

// ratioChart draws one workload's ratios to poolkit as horizontal bars on
// a log2 scale, with a line at 1 (poolkit) and each bar's ratio and
// median time beside it. Failed contenders are listed without a bar.
func ratioChart(w bench.Workload, sums []bench.Summary) []byte {
	var rows []bench.Summary
	for _, s := range sums {
		if s.Workload == w.Name {
			rows = append(rows, s)
		}
	}
	lo, hi := 1.0, 1.0
	for _, s := range rows {
		if s.Ratio > 0 {
			lo, hi = math.Min(lo, s.Ratio), math.Max(hi, s.Ratio)
		}
	}
	// Start the axis below the smallest ratio, so that every bar, poolkit's
	// 1× included, has a length.
	lo = math.Exp2(math.Floor(math.Log2(lo * 0.99)))
	hi = math.Exp2(math.Ceil(math.Log2(hi)))
	if hi <= lo {
		hi = lo * 2
	}
	const (
		left, barH, gap, top = 110.0, 18.0, 6.0, 40.0
		plotW, right         = 420.0, 150.0
	)
	height := top + float64(len(rows))*(barH+gap) + 30
	width := left + plotW + right
	x := func(r float64) float64 {
		return left + plotW*(math.Log2(r)-math.Log2(lo))/(math.Log2(hi)-math.Log2(lo))
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n",
		width, height, width, height)
	fmt.Fprintf(&b, `<title>%s: time per op relative to poolkit</title>`+"\n", html.EscapeString(w.Name))
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="18" font-size="14" font-weight="bold">%s: time per op / poolkit's (log scale, lower is faster)</text>`+"\n",
		left, html.EscapeString(w.Name))
	for t := lo; t <= hi*1.0001; t *= 2 {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#ddd"/>`+"\n", x(t), top-6, x(t), height-24)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle" fill="#555">%s×</text>`+"\n", x(t), height-10, strconv.FormatFloat(t, 'g', 3, 64))
	}
	for i, s := range rows {
		y := top + float64(i)*(barH+gap)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-8, y+barH-5, html.EscapeString(s.Impl))
		if s.Ratio <= 0 {
			fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" fill="#a00">failed</text>`+"\n", left+4, y+barH-5)
			continue
		}
		fill := "#8aa9c9"
		if s.Impl == "poolkit" {
			fill = "#2b6cb0"
		}
		fmt.Fprintf(&b, `<rect x="%.0f" y="%.1f" width="%.1f" height="%.0f" fill="%s"/>`+"\n", left, y, math.Max(x(s.Ratio)-left, 1), barH, fill)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%.2f× (%s)</text>`+"\n", x(s.Ratio)+4, y+barH-5, s.Ratio, html.EscapeString(bench.Duration(s.NsPerOp)))
	}
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#c53030" stroke-width="1.5"/>`+"\n", x(1), top-6, x(1), height-24)
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// sortScenarioFiles orders s1-..., s2-..., s10-... by scenario number.
func sortScenarioFiles(paths []string) []string {
	num := func(p string) int {
		base := strings.TrimPrefix(filepath.Base(p), "s")
		n, _ := strconv.Atoi(strings.SplitN(base, "-", 2)[0])
		return n
	}
	slices.SortFunc(paths, func(a, b string) int { return num(a) - num(b) })
	return paths
}
