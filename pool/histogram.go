package pool

import (
	"math"
	"math/bits"
	"sync/atomic"
	"time"
)

// HistogramBuckets is the number of buckets of a Histogram.
const HistogramBuckets = 32

// histogramShift makes the first bucket end at 2^10 ns, about a
// microsecond: nothing a pool measures is usefully finer.
const histogramShift = 10

// Histogram counts durations in fixed buckets whose bounds double:
// Counts[i] counts the durations d with HistogramBound(i-1) <= d <
// HistogramBound(i), the first bucket starting at 0 and the last having no
// upper bound. The bounds are the same for every histogram of every pool,
// so histograms add and subtract bucket by bucket, and an exporter can
// publish them as they are.
type Histogram struct {
	Counts [HistogramBuckets]uint64
	// Count is the number of durations recorded: the sum of Counts.
	Count uint64
	// Sum is the total of the durations recorded, exact (not bucketed).
	Sum time.Duration
}

// HistogramBound returns the upper bound of bucket i: 2^(i+10)
// nanoseconds, from about 1µs for bucket 0 to about 18 minutes for bucket
// HistogramBuckets-2. The last bucket has no upper bound; for it, and for i
// out of range, HistogramBound returns the largest Duration.
func HistogramBound(i int) time.Duration {
	if i < 0 || i >= HistogramBuckets-1 {
		return time.Duration(1<<63 - 1)
	}
	return time.Duration(1) << (i + histogramShift)
}

// histogramBucket is the bucket of d.
func histogramBucket(d time.Duration) int {
	if d < 0 {
		d = 0
	}
	return min(bits.Len64(uint64(d)>>histogramShift), HistogramBuckets-1)
}

// Sub returns the durations recorded in h and not in earlier, an earlier
// snapshot of the same histogram: what a window between two snapshots saw.
func (h Histogram) Sub(earlier Histogram) Histogram {
	d := Histogram{Count: h.Count - earlier.Count, Sum: h.Sum - earlier.Sum}
	for i := range d.Counts {
		d.Counts[i] = h.Counts[i] - earlier.Counts[i]
	}
	return d
}

// Add returns the durations recorded in h or in o.
func (h Histogram) Add(o Histogram) Histogram {
	d := Histogram{Count: h.Count + o.Count, Sum: h.Sum + o.Sum}
	for i := range d.Counts {
		d.Counts[i] = h.Counts[i] + o.Counts[i]
	}
	return d
}

// Mean returns the mean of the recorded durations, or 0 when there are
// none.
func (h Histogram) Mean() time.Duration {
	if h.Count == 0 {
		return 0
	}
	return h.Sum / time.Duration(h.Count)
}

// Quantile returns an upper bound of the q-quantile (0 <= q <= 1) of the
// recorded durations: the upper bound of the bucket it falls in, so it
// errs towards longer durations, by at most a factor of two. It returns 0
// when there are none, and the largest Duration when the quantile falls
// in the last bucket.
func (h Histogram) Quantile(q float64) time.Duration {
	var total uint64
	for _, c := range h.Counts {
		total += c
	}
	if total == 0 {
		return 0
	}
	// The nearest rank: the q-quantile is the smallest duration with at
	// least a q share of the durations at or below it. (Taking the rank
	// as q*(total-1), rounded down, as this once did, put the 0.99-quantile
	// of two durations at the smaller one.) A product within rounding
	// error of a whole number is that number: 0.7*10 is 7.000000000000001.
	if !(q > 0) { // NaN too
		q = 0
	}
	x := min(q, 1) * float64(total)
	r := math.Round(x)
	if math.Abs(x-r) > 1e-9*x {
		r = math.Ceil(x)
	}
	rank := max(uint64(r), 1)
	var seen uint64
	for i, c := range h.Counts {
		seen += c
		if seen >= rank {
			return HistogramBound(i)
		}
	}
	return HistogramBound(HistogramBuckets - 1)
}

// Timings is a snapshot of what a pool measured of its tasks while its
// timings were on (WithTimings, SetTimings): how long each waited between
// being accepted and starting, and how long each ran.
type Timings struct {
	// Wait is the time from the moment the pool accepted a task (Submit
	// or Invoke returned nil, or was about to) to the moment a worker
	// started it. A task handed straight to a worker counts as not having
	// waited (the worker's wake-up counts in Service). A task accepted
	// while the timings were off counts as not having waited either.
	Wait Histogram
	// Service is the time a task ran, from its start to its return (or
	// panic).
	Service Histogram
}

// histogramRec is a Histogram being recorded. It has a single writer (one
// worker goroutine): its updates are atomic stores, so that a reader sees
// consistent words without a lock, and the writer pays no read-modify-
// write. It keeps no total count: a recording costs two stores, not three
// (on amd64 an atomic store is a locked exchange), and addTo sums the
// buckets, so that a snapshot's Count is always the sum of its Counts.
type histogramRec struct {
	counts [HistogramBuckets]atomic.Uint64
	sum    atomic.Int64
}

// record adds d. Only the histogram's one writer may call it.
func (r *histogramRec) record(d time.Duration) {
	b := &r.counts[histogramBucket(d)]
	b.Store(b.Load() + 1)
	r.sum.Store(r.sum.Load() + int64(max(d, 0)))
}

// addTo adds what r recorded to h. Concurrent with record it may see a
// duration in its bucket and not yet in the sum; a snapshot is consistent
// once its writer has stopped.
func (r *histogramRec) addTo(h *Histogram) {
	for i := range r.counts {
		c := r.counts[i].Load()
		h.Counts[i] += c
		h.Count += c
	}
	h.Sum += time.Duration(r.sum.Load())
}
