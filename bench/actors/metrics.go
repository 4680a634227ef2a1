package actors

import (
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// reportRate reports msgs messages handled in elapsed as msg/s, and
// ns/op as the time per message, for workloads whose message count is
// not b.N (it is rounded to whole rounds).
func reportRate(b B, msgs int64, elapsed time.Duration) {
	if msgs <= 0 || elapsed <= 0 {
		return
	}
	b.ReportMetric(float64(msgs)/elapsed.Seconds(), "msg/s")
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(msgs), "ns/op")
}

// maxLatency is the largest latency recorded exactly; a longer one counts
// as maxLatency.
const maxLatency = int64(10 * time.Second)

func newHistogram() *hdrhistogram.Histogram { return hdrhistogram.New(1, maxLatency, 3) }

func record(h *hdrhistogram.Histogram, d time.Duration) {
	_ = h.RecordValue(min(max(int64(d), 1), maxLatency))
}

// reportQuantiles reports the p50 and p99 of h with the given prefix.
func reportQuantiles(b B, h *hdrhistogram.Histogram, prefix string) {
	b.ReportMetric(float64(h.ValueAtQuantile(50)), prefix+"p50-ns")
	b.ReportMetric(float64(h.ValueAtQuantile(99)), prefix+"p99-ns")
}
