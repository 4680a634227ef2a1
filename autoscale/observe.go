package autoscale

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/poolkit/poolkit/internal/timing"
	"github.com/poolkit/poolkit/pool"
)

// Observation is what the controller saw in one window.
type Observation struct {
	At     time.Time
	Window time.Duration
	Size   int // the capacity during the window

	// Arrivals counts submissions, accepted or not; Rejections the ones
	// the pool refused (or, through a Meter, that failed). Completions
	// counts tasks that finished. All in the window.
	Arrivals, Completions, Rejections uint64
	Lambda, Throughput                float64 // arrivals and completions per second
	Busy                              float64 // average busy workers
	BusyNow                           int     // busy workers at the end
	Queue                             int     // submitted, not yet started, at the end
	// Backlog is the work waiting outside the target at the end of the
	// window, as WithBacklog's function reported it; 0 without one.
	Backlog int
	// Failures counts the tasks that failed in the window, as
	// WithFailures' counter reported them; 0 without one. They are among
	// the Completions.
	Failures uint64
	// WaitP50 and WaitP99 are the window's queue-wait quantiles, placed
	// within the wait histogram's power-of-two buckets as though each
	// bucket's waits were spread evenly (as Prometheus' histogram_quantile
	// reads buckets): the bucket's upper bound would read a p99 of 9 ms
	// as 16.8 ms, and hold a 10 ms objective at 8.4.
	WaitP50, WaitP99 time.Duration
	Service          time.Duration // mean service time of completed tasks
	// ServiceSD is the spread (standard deviation) of the completed
	// tasks' service times, estimated from the histogram's buckets: 0
	// when they all fell in one bucket. It says how far the window's mean
	// service time may stray by chance: ServiceSD/√Completions.
	ServiceSD time.Duration

	GOMAXPROCS int
	// CPU is the CPU time the whole process used in the window, in CPUs
	// (1.5: one and a half CPUs busy on average), user and system time
	// together; 0 where the platform does not report it (it is read with
	// getrusage on Unix systems).
	CPU float64
	// Runnable is how many goroutines of the whole process were, on
	// average over the window, ready to run but waiting for a CPU (P),
	// read from the runtime's scheduling latencies
	// (/sched/latencies:seconds).
	Runnable float64
	HeapLive uint64 // bytes
	MemLimit uint64 // the soft memory limit; math.MaxInt64 when unset
}

// Utilization is Busy over Size.
func (o Observation) Utilization() float64 {
	if o.Size == 0 {
		return 0
	}
	return o.Busy / float64(o.Size)
}

// Saturated reports whether the window measured the pool's capacity
// rather than its load: tasks waiting at its end (queued, or in the
// backlog) and nine tenths or more of the workers busy throughout. Only
// then does throughput say what the workers can do.
func (o Observation) Saturated() bool {
	return o.Waiting() > 0 && o.Busy >= 0.9*float64(o.Size) && o.Completions > 0
}

// Waiting is the work waiting at the end of the window: the pool's queue
// and the backlog outside it.
func (o Observation) Waiting() int { return o.Queue + o.Backlog }

// Observer turns a pool's measurements and the runtime's metrics into one
// Observation per window. A Controller has one; build your own to feed a
// control law of your own. Not safe for concurrent use.
type Observer struct {
	src     source
	prev    reading
	prevAt  time.Time
	samples []metrics.Sample
	sched   schedReading
}

const (
	heapMetric  = "/gc/heap/live:bytes"
	schedMetric = "/sched/latencies:seconds"
)

// NewObserver returns an observer of m whose first window starts now.
func NewObserver(m *Meter) *Observer { return newObserver(m, time.Now()) }

func newObserver(src source, now time.Time) *Observer {
	o := &Observer{src: src, prev: src.read(), prevAt: now,
		samples: []metrics.Sample{{Name: heapMetric}, {Name: schedMetric}}}
	metrics.Read(o.samples)
	o.sched.read(o.samples[1].Value, 0)
	return o
}

// Observe closes the window that started at the previous call (or at
// NewObserver) and returns what it saw; size is the target's capacity.
func (o *Observer) Observe(size int) Observation { return o.observe(time.Now(), size) }

func (o *Observer) observe(now time.Time, size int) Observation {
	r := o.src.read()
	win := now.Sub(o.prevAt)
	obs := Observation{At: now, Window: win, Size: size, GOMAXPROCS: runtime.GOMAXPROCS(0)}
	obs.Arrivals = r.arrivals - o.prev.arrivals
	obs.Completions = r.completed - o.prev.completed
	obs.Rejections = r.rejected - o.prev.rejected
	service := r.service.Sub(o.prev.service)
	if secs := win.Seconds(); secs > 0 {
		obs.Lambda = float64(obs.Arrivals) / secs
		obs.Throughput = float64(obs.Completions) / secs
		obs.Busy = float64(service.Sum) / float64(win)
	}
	obs.BusyNow = int(r.busy)
	// Busy counts the service of the tasks that completed in the window,
	// which is the window's average while tasks are short against it.
	// When fewer completed than are running (tasks as long as the window,
	// or starting after an idle spell), the tasks in progress ran in it
	// too: count them.
	if obs.Completions < uint64(max(r.busy, 0)) {
		obs.Busy = max(obs.Busy, float64(r.busy))
	}
	// The service of the tasks that completed in the window stands for the
	// work done in it when as many tasks start as end. When more started
	// (the pool filling up: the first window, a load rising), the tasks in
	// progress did work the completions do not count: by Little's law the
	// busy workers are the starts times the service time.
	if starts := int64(obs.Completions) + r.busy - o.prev.busy; win > 0 && starts > int64(obs.Completions) && obs.Completions > 0 {
		byStarts := float64(starts) * float64(service.Mean()) / float64(win)
		obs.Busy = max(obs.Busy, min(byStarts, float64(max(int64(size), r.busy))))
	}
	obs.Queue = r.queue
	obs.Service = service.Mean()
	obs.ServiceSD = spread(service)
	wait := r.wait.Sub(o.prev.wait)
	obs.WaitP50 = timing.Estimate(wait, 0.5)
	obs.WaitP99 = timing.Estimate(wait, 0.99)

	metrics.Read(o.samples)
	if o.samples[0].Value.Kind() == metrics.KindUint64 {
		obs.HeapLive = o.samples[0].Value.Uint64()
	}
	obs.CPU, obs.Runnable = o.sched.read(o.samples[1].Value, win)
	obs.MemLimit = uint64(debug.SetMemoryLimit(-1)) // a negative limit only reads it

	o.prev, o.prevAt = r, now
	return obs
}

// spread estimates the standard deviation of h's durations between its
// buckets, each counted at its geometric middle: the spread within a bucket
// (at most a factor of two) is left out, so that durations all alike read
// as 0 rather than as a bucket's width.
func spread(h pool.Histogram) time.Duration {
	if h.Count < 2 {
		return 0
	}
	var sum, sq float64
	for i, c := range h.Counts {
		if c == 0 {
			continue
		}
		m := float64(h.Bound(min(i, len(h.Counts)-2))) / math.Sqrt2
		sum += float64(c) * m
		sq += float64(c) * m * m
	}
	n := float64(h.Count)
	mean := sum / n
	return time.Duration(math.Sqrt(max(0, sq/n-mean*mean)))
}

// reading is a snapshot of a source's counters.
type reading struct {
	arrivals, completed, rejected uint64
	busy                          int64
	queue                         int
	wait, service                 pool.Histogram
}

// source is what an Observer reads: a Meter, or a pool that measures
// itself.
type source interface{ read() reading }

// SelfMeasuring is a target that measures its own tasks, as poolkit's
// pool.Pool and pool.FuncPool do when built with pool.WithTimings: the
// controller reads its Stats (counters, waits and service times) instead
// of a Meter. New refuses one whose Stats says it records no timings
// (ErrUntimed).
type SelfMeasuring interface {
	Stats() pool.Stats
}

// poolSource reads a self-measuring pool.
type poolSource struct{ p SelfMeasuring }

func (s poolSource) read() reading {
	st := s.p.Stats()
	return reading{
		arrivals:  st.Submitted + st.Rejected,
		completed: st.Completed,
		rejected:  st.Rejected,
		busy:      int64(st.Running),
		queue:     st.Waiting,
		wait:      st.Wait,
		service:   st.Service,
	}
}
