// Package timing holds what every poolkit package that measures time shares:
// the clock its stamps are read from, the Histogram its timings are
// reported in, and the Recorder that fills one without a lock. Package
// pool and package actorpool report their timings as this Histogram (each
// names it in its own API), the autoscaler reads and records it, and the
// exporters publish its buckets as they are.
package timing

import (
	"math"
	"math/bits"
	"sync/atomic"
	"time"
)

// Buckets is the number of buckets of a Histogram.
const Buckets = 32

// histogramShift makes the first bucket end at 2^10 ns, about a
// microsecond: nothing a pool measures is usefully finer.
const histogramShift = 10

// Histogram counts durations in fixed buckets whose bounds double:
// Counts[i] counts the durations d with Bound(i-1) <= d < Bound(i), the
// first bucket starting at 0 and the last having no upper bound. The
// bounds are the same for every histogram of every pool and router, so
// histograms add and subtract bucket by bucket, and an exporter can
// publish them as they are.
type Histogram struct {
	Counts [Buckets]uint64
	// Count is the number of durations recorded: the sum of Counts.
	Count uint64
	// Sum is the total of the durations recorded, exact (not bucketed).
	Sum time.Duration
}

// Bound returns the upper bound of bucket i of every Histogram: 2^(i+10)
// nanoseconds, from about 1µs for bucket 0 to about 18 minutes for bucket
// Buckets-2. The last bucket has no upper bound; for it, and for i out of
// range, Bound returns the largest Duration.
func Bound(i int) time.Duration {
	if i < 0 || i >= Buckets-1 {
		return time.Duration(1<<63 - 1)
	}
	return time.Duration(1) << (i + histogramShift)
}

// bucket is the bucket of d.
func bucket(d time.Duration) int {
	if d < 0 {
		d = 0
	}
	return min(bits.Len64(uint64(d)>>histogramShift), Buckets-1)
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

// Bound returns the upper bound of bucket i of h (of every Histogram: the
// package-level Bound), for a reader that has a Histogram and no import of
// this package: 2^(i+10) nanoseconds; the last bucket, and i out of range,
// the largest Duration.
func (Histogram) Bound(i int) time.Duration { return Bound(i) }

// Quantile returns an upper bound of the q-quantile (0 <= q <= 1) of the
// recorded durations: the upper bound of the bucket it falls in, so it
// errs towards longer durations, by at most a factor of two. It returns 0
// when there are none, and the largest Duration when the quantile falls
// in the last bucket.
func (h Histogram) Quantile(q float64) time.Duration {
	x, total := h.rank(q)
	if total == 0 {
		return 0
	}
	// The nearest rank: the q-quantile is the smallest duration with at
	// least a q share of the durations at or below it. (Taking the rank
	// as q*(total-1), rounded down, as this once did, put the 0.99-quantile
	// of two durations at the smaller one.) A product within rounding
	// error of a whole number is that number: 0.7*10 is 7.000000000000001.
	r := math.Round(x)
	if math.Abs(x-r) > 1e-9*x {
		r = math.Ceil(x)
	}
	rank := max(uint64(r), 1)
	var seen uint64
	for i, c := range h.Counts {
		seen += c
		if seen >= rank {
			return Bound(i)
		}
	}
	return Bound(Buckets - 1)
}

// Estimate returns an estimate of the q-quantile (0 <= q <= 1) of the
// durations h recorded: where the rank q×Count falls among the durations
// of its bucket, taken as spread evenly between the bucket's bounds (the
// interpolation Prometheus' histogram_quantile makes). Where Quantile
// errs towards longer durations by up to a factor of two, Estimate errs
// either way by less than the bucket's width, and is exact at its bounds:
// for a threshold that is not a power of two, such as a 10ms objective,
// Quantile reads every duration above 8.4ms as 16.8ms. It returns 0 when
// there are none, and the last bucket's lower bound when the quantile
// falls in it, which has no upper one.
//
// It is a function, not a method, so that the Histogram pool and
// actorpool export keeps one quantile: this one is the autoscaler's.
func Estimate(h Histogram, q float64) time.Duration {
	x, total := h.rank(q)
	if total == 0 {
		return 0
	}
	var seen uint64
	for i, c := range h.Counts {
		if c == 0 || float64(seen+c) < x {
			seen += c
			continue
		}
		var lo time.Duration
		if i > 0 {
			lo = Bound(i - 1)
		}
		if i == Buckets-1 {
			return lo
		}
		f := max(0, (x-float64(seen))/float64(c))
		return lo + time.Duration(f*float64(Bound(i)-lo))
	}
	return Bound(Buckets - 2)
}

// rank returns the q-quantile's rank among the durations h counts, q×total
// with q held within [0, 1] (NaN as 0), and their total: the sum of the
// buckets, which a snapshot taken during a recording may not have in Count.
func (h Histogram) rank(q float64) (x float64, total uint64) {
	for _, c := range h.Counts {
		total += c
	}
	if !(q > 0) { // NaN too
		q = 0
	}
	return min(q, 1) * float64(total), total
}

// Recorder is a Histogram being recorded. Record is for a single writer at
// a time (one worker goroutine, or the turns of one actor, which never
// overlap): its updates are atomic stores, so that a reader sees whole
// words without a lock, and the writer pays no read-modify-write.
// RecordShared is for any number of writers at once, at the price of
// atomic adds; a Recorder is written one way or the other, never both. It
// keeps no total count: a recording costs two stores, not three (on amd64
// an atomic store is a locked exchange), and AddTo sums the buckets, so
// that a snapshot's Count is always the sum of its Counts.
type Recorder struct {
	counts [Buckets]atomic.Uint64
	sum    atomic.Int64
}

// Record adds d. Only the recorder's one writer may call it.
func (r *Recorder) Record(d time.Duration) {
	d = max(d, 0)
	b := &r.counts[bucket(d)]
	b.Store(b.Load() + 1)
	r.sum.Store(r.sum.Load() + int64(d))
}

// RecordShared adds d, from any goroutine.
func (r *Recorder) RecordShared(d time.Duration) {
	d = max(d, 0)
	r.counts[bucket(d)].Add(1)
	r.sum.Add(int64(d))
}

// AddTo adds what r recorded to h. Concurrent with Record it may see a
// duration in its bucket and not yet in the sum; a snapshot is consistent
// once its writer has stopped (or is between two recordings).
func (r *Recorder) AddTo(h *Histogram) {
	for i := range r.counts {
		c := r.counts[i].Load()
		h.Counts[i] += c
		h.Count += c
	}
	h.Sum += time.Duration(r.sum.Load())
}

// Snapshot returns what r recorded.
func (r *Recorder) Snapshot() Histogram {
	var h Histogram
	r.AddTo(&h)
	return h
}
