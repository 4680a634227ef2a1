package autoscale

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Observation is what the controller saw in one window.
type Observation struct {
	At     time.Time
	Window time.Duration
	Size   int // the capacity during the window

	Arrivals, Completions, Rejections uint64  // in the window
	Lambda, Throughput                float64 // per second
	Busy                              float64 // average busy workers
	BusyNow                           int     // busy workers at the end
	Queue                             int     // submitted, not yet started, at the end
	WaitP50, WaitP99                  time.Duration
	Service                           time.Duration // mean service time of completed tasks

	SchedP99   time.Duration // the runtime's run-queue latency, p99 over the window
	GOMAXPROCS int
	HeapLive   uint64 // bytes
	MemLimit   uint64 // the soft memory limit; math.MaxInt64 when unset
}

// Utilization is Busy over Size.
func (o Observation) Utilization() float64 {
	if o.Size == 0 {
		return 0
	}
	return o.Busy / float64(o.Size)
}

// Observer turns a Meter's readings and the runtime's metrics into one
// Observation per window. A Controller has one; build your own to feed a
// control law of your own. Not safe for concurrent use.
type Observer struct {
	m        *Meter
	prev     reading
	prevAt   time.Time
	samples  []metrics.Sample
	prevSchd []uint64
}

const (
	schedMetric = "/sched/latencies:seconds"
	heapMetric  = "/gc/heap/live:bytes"
)

// NewObserver returns an observer of m whose first window starts now.
func NewObserver(m *Meter) *Observer { return newObserver(m, time.Now()) }

func newObserver(m *Meter, now time.Time) *Observer {
	o := &Observer{m: m, prev: m.read(), prevAt: now,
		samples: []metrics.Sample{{Name: schedMetric}, {Name: heapMetric}}}
	metrics.Read(o.samples)
	o.prevSchd = schedCounts(o.samples[0])
	return o
}

func schedCounts(s metrics.Sample) []uint64 {
	if s.Value.Kind() != metrics.KindFloat64Histogram {
		return nil
	}
	return append([]uint64(nil), s.Value.Float64Histogram().Counts...)
}

// Observe closes the window that started at the previous call (or at
// NewObserver) and returns what it saw; size is the target's capacity.
func (o *Observer) Observe(size int) Observation { return o.observe(time.Now(), size) }

func (o *Observer) observe(now time.Time, size int) Observation {
	r := o.m.read()
	win := now.Sub(o.prevAt)
	obs := Observation{At: now, Window: win, Size: size, GOMAXPROCS: runtime.GOMAXPROCS(0)}
	obs.Arrivals = r.arrivals - o.prev.arrivals
	obs.Completions = r.completed - o.prev.completed
	obs.Rejections = r.rejected - o.prev.rejected
	if secs := win.Seconds(); secs > 0 {
		obs.Lambda = float64(obs.Arrivals) / secs
		obs.Throughput = float64(obs.Completions) / secs
		obs.Busy = float64(r.serviceSum-o.prev.serviceSum) / float64(win)
	}
	obs.BusyNow = int(r.busy)
	// Tasks in progress at either end of the window ran in it too.
	obs.Busy = max(obs.Busy, float64(r.busy))
	if q := int64(r.arrivals) - int64(r.started); q > 0 {
		obs.Queue = int(q)
	}
	if obs.Completions > 0 {
		obs.Service = time.Duration((r.serviceSum - o.prev.serviceSum) / int64(obs.Completions))
	}
	var delta [histBuckets]uint64
	for i := range delta {
		delta[i] = r.wait[i] - o.prev.wait[i]
	}
	obs.WaitP50 = quantile(&delta, 0.5)
	obs.WaitP99 = quantile(&delta, 0.99)

	metrics.Read(o.samples)
	if counts := schedCounts(o.samples[0]); counts != nil && len(counts) == len(o.prevSchd) {
		obs.SchedP99 = schedQuantile(o.samples[0].Value.Float64Histogram().Buckets, counts, o.prevSchd, 0.99)
		o.prevSchd = counts
	}
	if o.samples[1].Value.Kind() == metrics.KindUint64 {
		obs.HeapLive = o.samples[1].Value.Uint64()
	}
	obs.MemLimit = uint64(debug.SetMemoryLimit(-1)) // a negative limit only reads it

	o.prev, o.prevAt = r, now
	return obs
}

// schedQuantile returns the q-quantile of the difference between two
// readings of a runtime/metrics histogram.
func schedQuantile(buckets []float64, now, before []uint64, q float64) time.Duration {
	var total uint64
	for i := range now {
		total += now[i] - before[i]
	}
	if total == 0 {
		return 0
	}
	rank := uint64(q*float64(total-1)) + 1
	var seen uint64
	for i := range now {
		seen += now[i] - before[i]
		if seen >= rank {
			upper := buckets[i+1]
			if math.IsInf(upper, 1) {
				upper = buckets[i]
			}
			return time.Duration(upper * float64(time.Second))
		}
	}
	return 0
}
