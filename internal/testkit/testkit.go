// Package testkit holds what the tests of the engine and of its
// front-ends share: how long a step may take before the code under test is
// declared stuck, a call bounded by it, and the model of the timings'
// histogram that recorded durations are checked against. Only tests import
// it.
package testkit

import (
	"testing"
	"time"

	"github.com/poolkit/poolkit/internal/timing"
)

// FailBound is how long a step of a test may take before the code under
// test is declared stuck. Only a lost wake-up or a hang ever reaches it.
const FailBound = 5 * time.Second

// Within runs f on its own goroutine and reports whether it returned
// within FailBound.
func Within(f func()) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	t := time.NewTimer(FailBound)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// Hist is the histogram that recording ds should give: the model the
// recorder is checked against, bucket by bucket (timing.Bound).
func Hist(ds ...time.Duration) timing.Histogram {
	var h timing.Histogram
	for _, d := range ds {
		i := 0
		for i < len(h.Counts)-1 && d >= timing.Bound(i) {
			i++
		}
		h.Counts[i]++
		h.Count++
		h.Sum += d
	}
	return h
}

// CheckHist fails t if got is not want.
func CheckHist(t testing.TB, name string, got, want timing.Histogram) {
	t.Helper()
	if got != want {
		t.Errorf("%s = count %d, sum %v, buckets %v; want count %d, sum %v, buckets %v",
			name, got.Count, got.Sum, got.Counts, want.Count, want.Sum, want.Counts)
	}
}
