package main

import (
	"fmt"
	"strings"
	"testing"
)

// Two rounds of raw output as the actor benchmarks print it: the
// summary takes medians per contender and the ratio of the medians,
// oriented so that above 1 means poolkit did better.
var rawActorRounds = [][]byte{
	[]byte(`goos: linux
BenchmarkPingPong/impl=poolkit/inflight=1-2 	 1000	 300 ns/op	 4000000 msg/s	 0 B/op	 0 allocs/op
BenchmarkPingPong/impl=protoactor/inflight=1-2 	 1000	 1000 ns/op	 1000000 msg/s	 0 B/op	 0 allocs/op
BenchmarkAsk/impl=poolkit-2 	 1000	 900 ns/op	 700 p50-ns	 4000 p99-ns
BenchmarkAsk/impl=protoactor-2 	 1000	 900 ns/op	 2100 p50-ns	 40000 p99-ns
BenchmarkBudget/impl=poolkit/budget=1-2 	 1000	 900 ns/op	 100000 cold-p99-ns
`),
	[]byte(`BenchmarkPingPong/impl=poolkit/inflight=1-2 	 1000	 300 ns/op	 2000000 msg/s
BenchmarkPingPong/impl=protoactor/inflight=1-2 	 1000	 1000 ns/op	 4000000 msg/s
BenchmarkAsk/impl=poolkit-2 	 1000	 900 ns/op	 700 p50-ns	 8000 p99-ns
BenchmarkAsk/impl=protoactor-2 	 1000	 900 ns/op	 2100 p50-ns	 8000 p99-ns
BenchmarkBudget/impl=poolkit/budget=1-2 	 1000	 900 ns/op	 300000 cold-p99-ns
`),
}

func TestSummarizeActors(t *testing.T) {
	res, err := summarizeActors(rawActorRounds)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Impls, ","); got != "poolkit,protoactor" {
		t.Errorf("impls %s, want poolkit,protoactor", got)
	}
	type want struct {
		bench, metric, impl string
		median, advantage   float64
	}
	for _, w := range []want{
		{"PingPong/inflight=1", "msg/s", "poolkit", 3e6, 0},
		// Medians 3M against 2.5M: a rate, poolkit's over the other's. The
		// median of the per-round ratios (4x and 0.5x) would say 2.25x,
		// which the medians beside it do not.
		{"PingPong/inflight=1", "msg/s", "protoactor", 2.5e6, 1.2},
		{"Ask", "p50-ns", "protoactor", 2100, 3},
		// Medians 24000 against 6000: a cost, the other's over poolkit's.
		{"Ask", "p99-ns", "protoactor", 24000, 4},
		{"Budget/budget=1", "cold-p99-ns", "poolkit", 200000, 0},
	} {
		var row *actorRow
		for i := range res.Rows {
			if res.Rows[i].Bench == w.bench && res.Rows[i].Metric == w.metric {
				row = &res.Rows[i]
			}
		}
		if row == nil {
			t.Errorf("no row %s %s in %+v", w.bench, w.metric, res.Rows)
			continue
		}
		c := row.Cells[w.impl]
		if c.Median != w.median || c.Advantage != w.advantage {
			t.Errorf("%s %s %s = %+v, want median %v advantage %v", w.bench, w.metric, w.impl, c, w.median, w.advantage)
		}
	}
	// Two rounds are too few for an interval.
	if c := res.Rows[0].Cells["protoactor"]; c.AdvantageLo != 0 || c.AdvantageHi != 0 {
		t.Errorf("an interval from two rounds: %+v", c)
	}
	var text strings.Builder
	if err := renderText(&text, "actors", res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3.00M/s", "2.50M/s (1.20x)", "24.0µs (4.00x)", "p99 (lower is better)", "poolkit alone", "200µs"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, text.String())
		}
	}
}

func TestSummarizeActorsRejects(t *testing.T) {
	if _, err := summarizeActors([][]byte{[]byte("PASS\n")}); err == nil {
		t.Error("no results: no error")
	}
	if _, err := summarizeActors([][]byte{[]byte("BenchmarkAsk-2 	 10	 5 ns/op	 7 p50-ns\n")}); err == nil {
		t.Error("a benchmark without impl=: no error")
	}
}

// TestActorAdvantageInterval: with enough rounds the advantage carries the
// interval of the ratio of the medians, around it.
func TestActorAdvantageInterval(t *testing.T) {
	var rounds [][]byte
	for i := range 10 {
		rounds = append(rounds, []byte(fmt.Sprintf(
			"BenchmarkAsk/impl=poolkit-2 \t 1000\t 900 ns/op\t %d p50-ns\nBenchmarkAsk/impl=other-2 \t 1000\t 900 ns/op\t %d p50-ns\n",
			1000+10*i, 3000+40*i)))
	}
	res, err := summarizeActors(rounds)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Rows[0].Cells["other"]
	if !(c.AdvantageLo > 0 && c.AdvantageLo <= c.Advantage && c.Advantage <= c.AdvantageHi) {
		t.Errorf("advantage %v outside its interval [%v, %v]", c.Advantage, c.AdvantageLo, c.AdvantageHi)
	}
	if got := res.Rows[0].Cell("other"); !strings.Contains(got, fmt.Sprintf("%.2f–%.2f", c.AdvantageLo, c.AdvantageHi)) {
		t.Errorf("cell %q does not show the interval", got)
	}
}
