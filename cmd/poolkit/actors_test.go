package main

import (
	"strings"
	"testing"
)

// Two rounds of raw output as the actor benchmarks print it: the
// summary takes medians per contender and the median of the per-round
// ratios, oriented so that above 1 means poolkit did better.
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
		// Rounds: 4M against 1M (4x), 2M against 4M (0.5x).
		{"PingPong/inflight=1", "msg/s", "protoactor", 2.5e6, 2.25},
		{"Ask", "p50-ns", "protoactor", 2100, 3},
		// Rounds: 40000/4000 and 8000/8000.
		{"Ask", "p99-ns", "protoactor", 24000, 5.5},
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
	md := res.markdown()
	for _, want := range []string{
		"| PingPong/inflight=1 | msg/s (higher is better) | 3.00M | 2.50M (2.25x) |",
		"| Ask | p99-ns (lower is better) | 6µs | 24µs (5.50x) |",
		"| Budget/budget=1 | cold-p99-ns (lower is better) | 200µs |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
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
