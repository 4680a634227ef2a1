package main

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"golang.org/x/perf/benchmath"

	"github.com/poolkit/poolkit/bench"
)

// TestMediansAgreeWithBenchmath: the medians the bench package computes
// (the times and ratios of the tables) are benchmath's, for samples of
// every size the rounds give, and the ratio is the ratio of the medians.
func TestMediansAgreeWithBenchmath(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 12; n++ {
		w := bench.Workload{Name: "W", Cases: []bench.Case{{Impl: "poolkit"}, {Impl: "other"}}}
		r := &bench.Results{Workloads: []bench.Workload{w}, Rounds: n}
		var p, q []float64
		for round := range n {
			a, b := 100+rng.Float64()*50, 200+rng.Float64()*300
			p, q = append(p, a), append(q, b)
			r.Runs = append(r.Runs,
				bench.Run{Workload: "W", Impl: "poolkit", Round: round, Result: testing.BenchmarkResult{N: 1, T: time.Duration(a)}},
				bench.Run{Workload: "W", Impl: "other", Round: round, Result: testing.BenchmarkResult{N: 1, T: time.Duration(b)}})
		}
		sums := r.Summaries()
		want := func(xs []float64) float64 {
			return benchmath.AssumeNothing.Summary(benchmath.NewSample(xs, &benchmath.DefaultThresholds), 0.95).Center
		}
		// Durations are whole nanoseconds.
		for i := range p {
			p[i], q[i] = math.Trunc(p[i]), math.Trunc(q[i])
		}
		if sums[0].NsPerOp != want(p) || sums[1].NsPerOp != want(q) {
			t.Errorf("%d rounds: medians %v and %v, benchmath's %v and %v", n, sums[0].NsPerOp, sums[1].NsPerOp, want(p), want(q))
		}
		if sums[1].Ratio != sums[1].NsPerOp/sums[0].NsPerOp {
			t.Errorf("%d rounds: ratio %v, not the ratio of the medians %v", n, sums[1].Ratio, sums[1].NsPerOp/sums[0].NsPerOp)
		}
		e := ratioOf(medianOf(q), medianOf(p))
		if e.Center != sums[1].Ratio {
			t.Errorf("%d rounds: the interval's center %v is not the ratio shown %v", n, e.Center, sums[1].Ratio)
		}
		if e.finite() != (n >= intervalRounds(medianConfidence)) {
			t.Errorf("%d rounds: finite interval %v, with %d needed", n, e.finite(), intervalRounds(medianConfidence))
		}
		if e.finite() && !(e.Lo <= e.Center && e.Center <= e.Hi) {
			t.Errorf("%d rounds: %v outside [%v, %v]", n, e.Center, e.Lo, e.Hi)
		}
	}
}

// TestRatioInterval: the interval of a ratio is bounded by the extremes
// the two medians' intervals allow, which holds at 95% when each holds at
// 97.5%.
func TestRatioInterval(t *testing.T) {
	num := estimate{Center: 10, Lo: 8, Hi: 12}
	den := estimate{Center: 5, Lo: 4, Hi: 8}
	if got := ratioOf(num, den); got != (estimate{Center: 2, Lo: 1, Hi: 3}) {
		t.Errorf("ratioOf = %+v, want 2 in [1, 3]", got)
	}
	if got := ratioOf(num, estimate{Center: 5, Lo: math.Inf(-1), Hi: 8}); got.finite() {
		t.Errorf("ratio over an unbounded median has an interval: %+v", got)
	}
	if got := intervalRounds(medianConfidence); got != 7 {
		t.Errorf("an interval needs %d rounds, want 7 (two-sided 97.5%% for a median)", got)
	}
}
