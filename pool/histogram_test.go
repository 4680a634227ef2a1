package pool

import (
	"math"
	"testing"
	"time"
)

// TestHistogramBuckets: bucket i holds the durations from
// HistogramBound(i-1) up to, not including, HistogramBound(i); the first
// starts at 0 (negative durations count as 0) and the last is open.
func TestHistogramBuckets(t *testing.T) {
	if got := HistogramBound(0); got != 1024*time.Nanosecond {
		t.Errorf("HistogramBound(0) = %v, want 1.024µs", got)
	}
	if got := HistogramBound(HistogramBuckets - 2); got != time.Duration(1)<<40 {
		t.Errorf("HistogramBound(%d) = %v, want 2^40 ns", HistogramBuckets-2, got)
	}
	for _, i := range []int{-1, HistogramBuckets - 1, HistogramBuckets, 100} {
		if got := HistogramBound(i); got != math.MaxInt64 {
			t.Errorf("HistogramBound(%d) = %v, want the largest Duration", i, got)
		}
	}
	for i := range HistogramBuckets - 1 {
		b := HistogramBound(i)
		if i > 0 && b != 2*HistogramBound(i-1) {
			t.Errorf("HistogramBound(%d) = %v, not twice the bound before", i, b)
		}
		if got := histogramBucket(b - 1); got != i {
			t.Errorf("bucket of %v = %d, want %d", b-1, got, i)
		}
		if got := histogramBucket(b); got != i+1 {
			t.Errorf("bucket of %v = %d, want %d", b, got, i+1)
		}
	}
	for d, want := range map[time.Duration]int{
		-time.Second: 0, 0: 0, 1: 0,
		time.Millisecond: 10, time.Second: 20, time.Hour: HistogramBuckets - 1,
		math.MaxInt64: HistogramBuckets - 1,
	} {
		if got := histogramBucket(d); got != want {
			t.Errorf("bucket of %v = %d, want %d", d, got, want)
		}
	}
}

// TestHistogramRecord: record counts a duration in its bucket, in Count
// and, exactly, in Sum (a negative one as 0); addTo adds all of it.
func TestHistogramRecord(t *testing.T) {
	var r histogramRec
	ds := []time.Duration{-5, 0, 1500, 1500, 3 * time.Millisecond, 2 * time.Hour}
	for _, d := range ds {
		r.record(d)
	}
	h := Histogram{Count: 1, Sum: 7}
	h.Counts[0] = 1
	r.addTo(&h)
	want := Histogram{Count: 7, Sum: 7 + 3000 + 3*time.Millisecond + 2*time.Hour}
	want.Counts[0] = 3
	want.Counts[1] = 2
	want.Counts[histogramBucket(3*time.Millisecond)] = 1
	want.Counts[HistogramBuckets-1] = 1
	if h != want {
		t.Errorf("got %+v, want %+v", h, want)
	}
}

func histOf(ds ...time.Duration) Histogram {
	var r histogramRec
	for _, d := range ds {
		r.record(d)
	}
	var h Histogram
	r.addTo(&h)
	return h
}

// TestHistogramQuantile: Quantile returns the upper bound of the bucket
// of the nearest-rank q-quantile, so never less than the quantile itself.
func TestHistogramQuantile(t *testing.T) {
	const ms = time.Millisecond
	var empty Histogram
	if got := empty.Quantile(0.5); got != 0 {
		t.Errorf("empty Quantile = %v, want 0", got)
	}
	two := histOf(0, ms)
	for q, want := range map[float64]time.Duration{
		0: HistogramBound(0), 0.5: HistogramBound(0), 0.51: HistogramBound(10),
		0.99: HistogramBound(10), 1: HistogramBound(10),
		-1: HistogramBound(0), 2: HistogramBound(10), math.NaN(): HistogramBound(0),
	} {
		if got := two.Quantile(q); got != want {
			t.Errorf("Quantile(%v) of {0, 1ms} = %v, want %v", q, got, want)
		}
	}
	// Ten durations, one a bucket: the 0.7-quantile is the seventh,
	// though 0.7*10 is not exactly 7 in floating point.
	var ten []time.Duration
	for i := range 10 {
		ten = append(ten, HistogramBound(i)-1)
	}
	h := histOf(ten...)
	for i := 1; i <= 10; i++ {
		q := float64(i) / 10
		if got, want := h.Quantile(q), HistogramBound(i-1); got != want {
			t.Errorf("Quantile(%v) = %v, want %v", q, got, want)
		}
		if got, want := h.Quantile(q-0.05), HistogramBound(i-1); got != want {
			t.Errorf("Quantile(%v) = %v, want %v", q-0.05, got, want)
		}
	}
	for _, q := range []float64{0.1, 0.25, 0.5, 0.9, 0.99, 1} {
		// Never below the true nearest-rank quantile.
		rank := int(math.Ceil(q*10 - 1e-9))
		if got := h.Quantile(q); got <= ten[rank-1] {
			t.Errorf("Quantile(%v) = %v, below the quantile %v", q, got, ten[rank-1])
		}
	}
	if got := histOf(2 * time.Hour).Quantile(0.5); got != math.MaxInt64 {
		t.Errorf("Quantile in the last bucket = %v, want the largest Duration", got)
	}
}

// TestHistogramArithmetic: Add and Sub work bucket by bucket, Sub undoes
// Add, and Mean is Sum over Count.
func TestHistogramArithmetic(t *testing.T) {
	a := histOf(time.Microsecond, 3*time.Millisecond)
	b := histOf(5*time.Microsecond, time.Second, time.Second)
	sum := a.Add(b)
	if want := histOf(time.Microsecond, 3*time.Millisecond, 5*time.Microsecond, time.Second, time.Second); sum != want {
		t.Errorf("Add = %+v, want %+v", sum, want)
	}
	if got := sum.Sub(a); got != b {
		t.Errorf("Sub = %+v, want %+v", got, b)
	}
	if got := sum.Sub(sum); got != (Histogram{}) {
		t.Errorf("h.Sub(h) = %+v, want zero", got)
	}
	if got, want := b.Mean(), (5*time.Microsecond+2*time.Second)/3; got != want {
		t.Errorf("Mean = %v, want %v", got, want)
	}
	if got := (Histogram{}).Mean(); got != 0 {
		t.Errorf("empty Mean = %v, want 0", got)
	}
}
