//go:build go1.22

package promcollector_test

import (
	"context"
	"math"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/promcollector"
)

// The published bounds: every other one of the pool's, from 2^10ns.
func wantBounds() []float64 {
	var b []float64
	for i := 0; i < len(pool.Histogram{}.Counts)-1; i += 2 {
		b = append(b, time.Duration(1<<(10+i)).Seconds())
	}
	return b
}

// checkHistogram checks what holds of any snapshot, even one taken while
// tasks run: the bounds, and cumulative counts that never decrease nor
// exceed the count.
func checkHistogram(t *testing.T, h *dto.Histogram) {
	t.Helper()
	bounds := wantBounds()
	if len(h.GetBucket()) != len(bounds) {
		t.Fatalf("%d buckets, want %d", len(h.GetBucket()), len(bounds))
	}
	var prev uint64
	for i, b := range h.GetBucket() {
		if b.GetUpperBound() != bounds[i] {
			t.Errorf("bucket %d: bound %v, want %v", i, b.GetUpperBound(), bounds[i])
		}
		if c := b.GetCumulativeCount(); c < prev || c > h.GetSampleCount() {
			t.Errorf("bucket %d (le %v): %d after %d, count %d", i, b.GetUpperBound(), c, prev, h.GetSampleCount())
		}
		prev = b.GetCumulativeCount()
	}
}

// checkSum checks, on a quiescent snapshot, that the sum agrees with the
// buckets: the durations in a bucket are below its bound and at least the
// previous one.
func checkSum(t *testing.T, h *dto.Histogram) {
	t.Helper()
	lo, hi := 0.0, 0.0
	var prev uint64
	prevBound := 0.0
	for _, b := range h.GetBucket() {
		n := float64(b.GetCumulativeCount() - prev)
		lo += n * prevBound
		hi += n * b.GetUpperBound()
		prev, prevBound = b.GetCumulativeCount(), b.GetUpperBound()
	}
	above := float64(h.GetSampleCount() - prev)
	lo += above * prevBound
	hi += above * math.Inf(1)
	if s := h.GetSampleSum(); s < lo*(1-1e-9) || s > hi*(1+1e-9) {
		t.Errorf("sum %v outside [%v, %v], which the buckets allow", s, lo, hi)
	}
}

// TestHistogramPool runs N tasks of three durations on a watched pool and
// checks both histograms: N observations each, buckets cumulative and
// equal to what the pool recorded, and a sum the buckets allow.
func TestHistogramPool(t *testing.T) {
	const N = 120
	p := newPool(t, 4) // timed: watching leaves a pool's timings as built
	c := promcollector.New()
	if err := c.WatchPool("h", p); err != nil {
		t.Fatal(err)
	}
	for i := range N {
		d := time.Duration(i%3) * 300 * time.Microsecond
		if err := p.Submit(context.Background(), func() { time.Sleep(d) }); err != nil {
			t.Fatal(err)
		}
	}
	settle(t, "the tasks to complete", func() bool { return p.Stats().Completed == N })

	mfs := gather(t, c)
	tm := p.Stats()
	for name, rec := range map[string]pool.Histogram{
		"poolkit_pool_task_duration_seconds": tm.Service,
		"poolkit_pool_task_wait_seconds":     tm.Wait,
	} {
		mf := mfs[name]
		if mf.GetType() != dto.MetricType_HISTOGRAM || len(mf.GetMetric()) != 1 {
			t.Fatalf("%s: %v", name, mf)
		}
		h := mf.GetMetric()[0].GetHistogram()
		if h.GetSampleCount() != N {
			t.Errorf("%s: count %d, want %d", name, h.GetSampleCount(), N)
		}
		if h.GetSampleSum() != rec.Sum.Seconds() {
			t.Errorf("%s: sum %v, want the pool's %v", name, h.GetSampleSum(), rec.Sum.Seconds())
		}
		checkHistogram(t, h)
		checkSum(t, h)
		// The cumulative count up to bound 2k is that of the pool's
		// buckets 0 to 2k.
		for k, b := range h.GetBucket() {
			var want uint64
			for i := 0; i <= 2*k; i++ {
				want += rec.Counts[i]
			}
			if b.GetCumulativeCount() != want {
				t.Errorf("%s: le %v: %d, want %d", name, b.GetUpperBound(), b.GetCumulativeCount(), want)
			}
		}
	}
	// Two thirds of the tasks slept 300µs or 600µs: the service sum is at
	// least what they slept, and none of them is below the 262.144µs
	// bound.
	h := mfs["poolkit_pool_task_duration_seconds"].GetMetric()[0].GetHistogram()
	if least := float64(N/3) * (300e-6 + 600e-6); h.GetSampleSum() < least {
		t.Errorf("service sum %v, want at least %v", h.GetSampleSum(), least)
	}
	if le := h.GetBucket()[4]; le.GetCumulativeCount() > N/3 {
		t.Errorf("%d tasks below %vs, but %d slept longer", le.GetCumulativeCount(), le.GetUpperBound(), N-N/3)
	}
}

// TestHistogramRouter checks the router's histograms once its workers
// have stopped, when every timed message is in the totals.
func TestHistogramRouter(t *testing.T) {
	const N = 50
	sys, err := actorpool.New(actorpool.WithWorkers(2))
	if err != nil {
		t.Fatal(err)
	}
	r, err := actorpool.NewRouter(sys, 3, echo, actorpool.WithTimings())
	if err != nil {
		t.Fatal(err)
	}
	c := promcollector.New()
	if err := c.WatchRouter("r", r); err != nil {
		t.Fatal(err)
	}
	for i := range N {
		if _, err := r.Ref().Ask(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	if err := sys.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	mfs := gather(t, c)
	for _, name := range []string{"poolkit_router_mailbox_wait_seconds", "poolkit_router_handling_seconds"} {
		h := series(mfs, name, "router", "r").GetHistogram()
		if h.GetSampleCount() != N {
			t.Errorf("%s: count %d, want %d", name, h.GetSampleCount(), N)
		}
		checkHistogram(t, h)
		checkSum(t, h)
	}
}
