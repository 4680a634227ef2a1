package main

import (
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// The tables give medians over the rounds, and for each contender the
// ratio of its median to poolkit's: the figure the time columns beside it
// agree with. Its interval comes from benchmath's distribution-free
// interval of each median (benchmath.AssumeNothing) at 97.5%: when both
// hold, which is the case with at least 95% confidence, the ratio of the
// true medians lies between lo/hi' and hi/lo'. Too few rounds give an
// infinite interval, which the tables leave out.

// medianConfidence is the confidence of each median's interval: two of
// them at 97.5% make a ratio's interval at 95% or more.
const medianConfidence = 0.975

// estimate is a median, or a ratio of medians, with its interval; Lo and
// Hi are infinite when there were too few samples for one.
type estimate struct{ Center, Lo, Hi float64 }

// medianOf is the median of xs with benchmath's interval.
func medianOf(xs []float64) estimate {
	if len(xs) == 0 {
		return estimate{Lo: math.Inf(-1), Hi: math.Inf(1)}
	}
	s := summaryOf(xs, medianConfidence)
	return estimate{s.Center, s.Lo, s.Hi}
}

// summaryOf is benchmath's summary of xs, assuming nothing of their
// distribution: their median, with its interval at confidence.
func summaryOf(xs []float64, confidence float64) benchmath.Summary {
	return benchmath.AssumeNothing.Summary(sampleOf(xs), confidence)
}

// sampleOf is xs as a benchmath sample, which sorts them: a copy.
func sampleOf(xs []float64) *benchmath.Sample {
	return benchmath.NewSample(slices.Clone(xs), &benchmath.DefaultThresholds)
}

// ratioOf is num's center over den's, with the interval of ratios that
// both intervals allow (for positive figures).
func ratioOf(num, den estimate) estimate {
	r := estimate{Center: num.Center / den.Center, Lo: math.Inf(-1), Hi: math.Inf(1)}
	if num.finite() && den.finite() && den.Lo > 0 && num.Lo > 0 {
		r.Lo, r.Hi = num.Lo/den.Hi, num.Hi/den.Lo
	}
	return r
}

// finite reports whether the estimate has an interval.
func (e estimate) finite() bool { return !math.IsInf(e.Lo, 0) && !math.IsInf(e.Hi, 0) }

// intervalRounds is the fewest rounds that give a median an interval at
// confidence (and a ratio of two medians at medianConfidence one).
func intervalRounds(confidence float64) int {
	n := 1
	for n < 100 && math.IsInf(summaryOf(make([]float64, n), confidence).Lo, 0) {
		n++
	}
	return n
}

// spreadOf is the widest distance of xs from their median m, as a
// fraction of m: how far the rounds strayed; 0 for a zero median.
func spreadOf(xs []float64, m float64) float64 {
	if m == 0 {
		return 0
	}
	d := 0.0
	for _, x := range xs {
		d = max(d, math.Abs(x-m))
	}
	return d / m
}
