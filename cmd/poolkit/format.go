package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// How the tables write numbers: one function per kind of number, shared by
// every rendering (the terminal, the HTML report, the README section), so
// that a figure reads the same wherever it appears. Each value carries its
// unit, so a header names the quantity and cannot disagree with the
// values beneath it.

// formatDuration writes a duration in nanoseconds (a median need not be
// whole) with three significant digits, in the unit that keeps it below
// 1000: 12.3ns, 10.7µs, 109ms, 3.24s; from a minute on, in whole seconds:
// 2m56s, 1h02m03s.
func formatDuration(ns float64) string {
	if ns < 0 {
		return "-" + formatDuration(-ns)
	}
	// Rounded first: 999.7ns is 1.00µs, not 1000ns.
	r := roundSignificant(ns, 3)
	switch {
	case r == 0:
		return "0s"
	case r < 1e3:
		return significant(r) + "ns"
	case r < 1e6:
		return significant(r/1e3) + "µs"
	case r < 1e9:
		return significant(r/1e6) + "ms"
	case r < 60e9:
		return significant(r/1e9) + "s"
	}
	s := int64(math.Round(ns / 1e9))
	if s < 3600 {
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm%02ds", s/3600, s/60%60, s%60)
}

// formatTime writes a time.Duration as formatDuration does.
func formatTime(d time.Duration) string { return formatDuration(float64(d)) }

// formatRatio writes a ratio of two figures: 2.00x.
func formatRatio(r float64) string { return fmt.Sprintf("%.2fx", r) }

// formatRatioRange writes the interval of a ratio: 1.80–2.20.
func formatRatioRange(lo, hi float64) string { return fmt.Sprintf("%.2f–%.2f", lo, hi) }

// formatRate writes events per second with three significant digits and
// a scale suffix: 999/s, 250k/s, 3.00M/s.
func formatRate(perSecond float64) string {
	return scaled(perSecond, 1000, []string{"", "k", "M", "G"}) + "/s"
}

// formatBytes writes a byte count: 509B, 1.50KiB, 12.0MiB.
func formatBytes(b float64) string {
	if roundSignificant(b, 3) < 1024 {
		return fmt.Sprintf("%.0fB", b)
	}
	return scaled(b, 1024, []string{"", "KiB", "MiB", "GiB", "TiB"})
}

// formatCount writes a count or other plain quantity: whole numbers as
// they are (1000012), others with three significant digits (0.500, 12.3).
func formatCount(v float64) string {
	if v == math.Trunc(v) || math.Abs(v) >= 1000 {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	return significant(roundSignificant(v, 3))
}

// formatChange writes a relative change: +12%, -3%.
func formatChange(fraction float64) string { return fmt.Sprintf("%+.0f%%", 100*fraction) }

// scaled writes v divided by the largest power of base that leaves it at
// least 1, with three significant digits, and that power's suffix.
func scaled(v, base float64, suffixes []string) string {
	i := 0
	for i < len(suffixes)-1 && math.Abs(roundSignificant(v, 3)) >= base {
		v /= base
		i++
	}
	r := roundSignificant(v, 3)
	if i == 0 && r == math.Trunc(r) {
		return strconv.FormatFloat(r, 'f', 0, 64) + suffixes[0]
	}
	return significant(r) + suffixes[i]
}

// roundSignificant rounds v to n significant digits.
func roundSignificant(v float64, n int) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	p := math.Pow(10, float64(n-1)-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}

// significant writes v, already rounded to three significant digits, with
// all three: 1.20, 12.0, 120.
func significant(v float64) string {
	if v == 0 {
		return "0"
	}
	decimals := max(0, 2-int(math.Floor(math.Log10(math.Abs(v)))))
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// metric is how a table shows a benchmark's extra metric: the quantity
// its header names, and how its values are written.
type metric struct {
	label  string
	format func(float64) string
}

// metricOf reads a benchmark unit as reported (p99-ns, msg/s,
// heapB/actor, peak-MB): the unit goes into the values, and the header
// keeps what is measured.
func metricOf(unit string) metric {
	switch {
	case strings.HasSuffix(unit, "-ns"):
		return metric{strings.ReplaceAll(strings.TrimSuffix(unit, "-ns"), "-", " "), formatDuration}
	case strings.HasSuffix(unit, "msg/s"):
		return metric{strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(unit, "msg/s"), "-") + " throughput"), formatRate}
	case strings.HasSuffix(unit, "-MB"):
		return metric{strings.TrimSuffix(unit, "-MB") + " memory", func(mb float64) string { return formatBytes(mb * (1 << 20)) }}
	case strings.HasPrefix(unit, "heapB/"):
		return metric{"heap/" + strings.TrimPrefix(unit, "heapB/"), formatBytes}
	}
	return metric{unit, formatCount}
}
