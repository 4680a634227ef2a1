package timing

import (
	"math"
	"math/rand"
	"slices"
	"testing"
	"time"
)

// TestBuckets: bucket i holds the durations from
// Bound(i-1) up to, not including, Bound(i); the first
// starts at 0 (negative durations count as 0) and the last is open.
func TestBuckets(t *testing.T) {
	if got := Bound(0); got != 1024*time.Nanosecond {
		t.Errorf("Bound(0) = %v, want 1.024µs", got)
	}
	if got := Bound(Buckets - 2); got != time.Duration(1)<<40 {
		t.Errorf("Bound(%d) = %v, want 2^40 ns", Buckets-2, got)
	}
	for _, i := range []int{-1, Buckets - 1, Buckets, 100} {
		if got := Bound(i); got != math.MaxInt64 {
			t.Errorf("Bound(%d) = %v, want the largest Duration", i, got)
		}
	}
	for i := 0; i < Buckets-1; i++ {
		b := Bound(i)
		if i > 0 && b != 2*Bound(i-1) {
			t.Errorf("Bound(%d) = %v, not twice the bound before", i, b)
		}
		if got := bucket(b - 1); got != i {
			t.Errorf("bucket of %v = %d, want %d", b-1, got, i)
		}
		if got := bucket(b); got != i+1 {
			t.Errorf("bucket of %v = %d, want %d", b, got, i+1)
		}
	}
	for d, want := range map[time.Duration]int{
		-time.Second: 0, 0: 0, 1: 0,
		time.Millisecond: 10, time.Second: 20, time.Hour: Buckets - 1,
		math.MaxInt64: Buckets - 1,
	} {
		if got := bucket(d); got != want {
			t.Errorf("bucket of %v = %d, want %d", d, got, want)
		}
	}
}

// TestHistogramRecord: Record counts a duration in its bucket, in Count
// and, exactly, in Sum (a negative one as 0); AddTo adds all of it.
func TestHistogramRecord(t *testing.T) {
	var r Recorder
	ds := []time.Duration{-5, 0, 1500, 1500, 3 * time.Millisecond, 2 * time.Hour}
	for _, d := range ds {
		r.Record(d)
	}
	h := Histogram{Count: 1, Sum: 7}
	h.Counts[0] = 1
	r.AddTo(&h)
	want := Histogram{Count: 7, Sum: 7 + 3000 + 3*time.Millisecond + 2*time.Hour}
	want.Counts[0] = 3
	want.Counts[1] = 2
	want.Counts[bucket(3*time.Millisecond)] = 1
	want.Counts[Buckets-1] = 1
	if h != want {
		t.Errorf("got %+v, want %+v", h, want)
	}
}

func histOf(ds ...time.Duration) Histogram {
	var r Recorder
	for _, d := range ds {
		r.Record(d)
	}
	var h Histogram
	r.AddTo(&h)
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
		0: Bound(0), 0.5: Bound(0), 0.51: Bound(10),
		0.99: Bound(10), 1: Bound(10),
		-1: Bound(0), 2: Bound(10), math.NaN(): Bound(0),
	} {
		if got := two.Quantile(q); got != want {
			t.Errorf("Quantile(%v) of {0, 1ms} = %v, want %v", q, got, want)
		}
	}
	// Ten durations, one a bucket: the 0.7-quantile is the seventh,
	// though 0.7*10 is not exactly 7 in floating point.
	var ten []time.Duration
	for i := 0; i < 10; i++ {
		ten = append(ten, Bound(i)-1)
	}
	h := histOf(ten...)
	for i := 1; i <= 10; i++ {
		q := float64(i) / 10
		if got, want := h.Quantile(q), Bound(i-1); got != want {
			t.Errorf("Quantile(%v) = %v, want %v", q, got, want)
		}
		if got, want := h.Quantile(q-0.05), Bound(i-1); got != want {
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

// TestHistogramEstimate: Estimate places the q-quantile within its bucket
// as though the bucket's durations were spread evenly: never above
// Quantile's bound, within a bucket's width of the nearest-rank quantile
// of any sample, exact at the bounds; 0 for none, the last bucket's lower
// bound there.
func TestHistogramEstimate(t *testing.T) {
	const ms = time.Millisecond
	var empty Histogram
	if got := Estimate(empty, 0.99); got != 0 {
		t.Errorf("empty Estimate = %v, want 0", got)
	}
	// A hundred durations spread evenly over the bucket from 8.4 to 16.8ms:
	// the median is mid-bucket, where Quantile reads the bucket's top.
	lo, hi := Bound(22), Bound(23)
	var even []time.Duration
	for i := 0; i < 100; i++ {
		even = append(even, lo+(hi-lo)*time.Duration(i)/100)
	}
	h := histOf(even...)
	for q, want := range map[float64]time.Duration{0: lo, 0.5: (lo + hi) / 2, 1: hi, -1: lo, 2: hi, math.NaN(): lo} {
		if got := Estimate(h, q); got != want {
			t.Errorf("Estimate(%v) of a bucket's even spread = %v, want %v", q, got, want)
		}
	}
	if got := h.Quantile(0.5); got != hi {
		t.Errorf("Quantile(0.5) = %v, want the bucket's top %v", got, hi)
	}
	// The last bucket has no upper bound.
	if got := Estimate(histOf(Bound(Buckets-2)+1), 0.5); got != Bound(Buckets-2) {
		t.Errorf("Estimate in the last bucket = %v, want its lower bound %v", got, Bound(Buckets-2))
	}
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 200; round++ {
		n := 1 + rng.Intn(500)
		ds := make([]time.Duration, n)
		for i := range ds {
			ds[i] = time.Duration(rng.ExpFloat64() * float64(ms))
		}
		h := histOf(ds...)
		slices.Sort(ds)
		for _, q := range []float64{0.01, 0.5, 0.9, 0.99, 1} {
			exact := ds[max(1, int(math.Ceil(q*float64(n)-1e-9)))-1]
			b := bucket(exact)
			width := Bound(b)
			if b > 0 {
				width -= Bound(b - 1)
			}
			got := Estimate(h, q)
			if got > h.Quantile(q) || got-exact >= width || exact-got >= width {
				t.Fatalf("n=%d: Estimate(%v) = %v, nearest rank %v (bucket width %v), Quantile %v",
					n, q, got, exact, width, h.Quantile(q))
			}
		}
	}
}

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

// TestRecordShared: concurrent writers lose nothing.
func TestRecordShared(t *testing.T) {
	var r Recorder
	const writers, each = 4, 1000
	done := make(chan struct{})
	for w := 0; w < writers; w++ {
		w := w
		go func() {
			for i := 0; i < each; i++ {
				r.RecordShared(time.Duration(w*each+i) * time.Microsecond)
			}
			done <- struct{}{}
		}()
	}
	for i := 0; i < writers; i++ {
		<-done
	}
	h := r.Snapshot()
	if h.Count != writers*each {
		t.Errorf("Count %d, want %d", h.Count, writers*each)
	}
	n := writers * each
	if want := time.Duration(n*(n-1)/2) * time.Microsecond; h.Sum != want {
		t.Errorf("Sum %v, want %v", h.Sum, want)
	}
}
