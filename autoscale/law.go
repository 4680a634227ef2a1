package autoscale

import (
	"fmt"
	"math"
	"time"
)

// Class is what the controller has learned about the work.
type Class string

// The classes of work.
const (
	Unknown  Class = "unknown"
	CPUBound Class = "cpu-bound" // an added worker bought little and the scheduler queued
	IOBound  Class = "io-bound"  // added workers kept paying
)

const (
	gainCut      = 0.25             // below this marginal gain a step found a knee
	gainIO       = 0.5              // above it, work beyond GOMAXPROCS is I/O-bound
	kneeTTL      = 10 * time.Second // how long a knee caps growth
	baselineSpan = 30               // windows over which S₀ is the smallest mean
	dropHold     = 2                // windows without growth after a rejection
	shrinkStep   = 0.2              // the largest fraction of N removed per tick
	// schedSaturated is a p99 run-queue latency that means the CPUs are
	// oversubscribed whatever it was before (µs when workers ≤ GOMAXPROCS).
	schedSaturated = 10 * time.Millisecond
)

// law is the control law and the state it keeps between ticks. Not safe
// for concurrent use.
type law struct {
	cfg config

	class     Class
	knee      int
	kneeUntil time.Time
	holdUntil time.Time // no growth before this (after a rejection)

	probe *probe // a growth step waiting to be judged

	baseline []time.Duration // recent mean service times, for S₀
	recs     []rec           // size recommendations, for the stabilisation window
	busy     float64         // busy workers, smoothed over ticks (EWMA)
	since    time.Time       // the first observation the window saw
}

// smoothing is the EWMA weight of the newest busy reading: shrinking acts
// on a smoothed need, so that one quiet window does not remove workers.
const smoothing = 0.3

type probe struct {
	from, to int
	x0       float64
	sched0   time.Duration
}

type rec struct {
	at time.Time
	n  int
}

// bounds returns the sizes the law may choose from in this observation.
func (l *law) bounds(o Observation) (lo, hi int) {
	p := max(1, o.GOMAXPROCS)
	hi = l.cfg.max
	if hi == 0 {
		hi = 32 * p
	}
	if l.class == CPUBound {
		hi = min(hi, int(math.Ceil(1.5*float64(p))))
	}
	if l.knee > 0 && o.At.Before(l.kneeUntil) {
		hi = min(hi, l.knee)
	}
	lo = l.cfg.min
	return lo, max(lo, hi)
}

// s0 returns the baseline service time: the smallest recent mean, so that
// contention that inflates service times cannot feed its own growth.
func (l *law) s0(o Observation) time.Duration {
	if o.Service > 0 {
		l.baseline = append(l.baseline, o.Service)
		if len(l.baseline) > baselineSpan {
			l.baseline = l.baseline[1:]
		}
	}
	if len(l.baseline) == 0 {
		return 0
	}
	m := l.baseline[0]
	for _, s := range l.baseline[1:] {
		m = min(m, s)
	}
	return m
}

// decide returns the size for the next window and why.
func (l *law) decide(o Observation) (int, string) {
	n := o.Size
	lo, hi := l.bounds(o)
	s0 := l.s0(o)
	if j := l.judge(o); j != "" {
		_, hi = l.bounds(o)
		if n > hi {
			return l.done(o, hi, j)
		}
		return l.done(o, n, j)
	}
	u := o.Utilization()
	switch {
	case n > hi:
		return l.done(o, hi, fmt.Sprintf("above the ceiling %d (%s, GOMAXPROCS %d)", hi, l.class, o.GOMAXPROCS))
	case n < lo:
		return l.done(o, lo, fmt.Sprintf("below the floor %d", lo))
	case o.Rejections > 0:
		l.busy = o.Busy
		l.holdUntil = o.At.Add(dropHold * l.cfg.tick)
		to := max(lo, min(n-1, int(float64(n)*l.cfg.backoff)))
		return l.done(o, to, fmt.Sprintf("%d rejections: multiplicative decrease", o.Rejections))
	}
	pressure := o.Queue > 0 && u >= l.cfg.high
	if l.cfg.targetWait > 0 && o.WaitP99 > l.cfg.targetWait && o.Queue > 0 {
		pressure = true
	}
	if pressure {
		switch {
		case o.Busy < float64(n)/2:
			return l.done(o, n, "queue, but fewer than half the workers busy: a burst the queue absorbs")
		case o.At.Before(l.holdUntil):
			return l.done(o, n, "pressure, but growth held after rejections")
		case n >= hi:
			return l.done(o, n, fmt.Sprintf("pressure at the ceiling %d", hi))
		case o.MemLimit > 0 && o.MemLimit < math.MaxInt64 && float64(o.HeapLive) > l.cfg.memoryHeadroom*float64(o.MemLimit):
			return l.done(o, n, fmt.Sprintf("pressure, but the live heap is %d of the %d memory limit", o.HeapLive, o.MemLimit))
		}
		// Little's law on the baseline service time says how many workers
		// the arrival rate keeps busy (the spare capacity at utilisation u
		// drains the backlog; sizing for the backlog too overshot by a
		// fifth after steps). Before there is a baseline, every queued task
		// could use a worker.
		// The estimate from a measured service time is applied at once; a
		// guess from the queue alone at most doubles the size.
		need := max(n+1, o.BusyNow+o.Queue)
		to := n + min(need-n, max(1, n))
		if s0 > 0 && o.Lambda > 0 {
			need = max(n+1, int(math.Ceil(o.Lambda*s0.Seconds()/l.cfg.utilization)))
			to = need
		}
		to = min(hi, to)
		l.probe = &probe{from: n, to: to, x0: o.Throughput, sched0: o.SchedP99}
		return l.done(o, to, fmt.Sprintf("queue %d at utilisation %.2f: λ·S₀/u asks for %d", o.Queue, u, need))
	}
	want := n
	l.busy = smoothing*o.Busy + (1-smoothing)*l.busy
	// A few tasks caught between submission and start are not a backlog,
	// nor is a queue whose typical task starts within two service times
	// (the p99 wait of CPU-bound work includes the run queue's delay).
	backlog := o.Queue > n/4 && (s0 == 0 || o.WaitP50 > 2*s0)
	if l.busy/float64(n) < l.cfg.low && !backlog {
		want = max(lo, int(math.Ceil(l.busy/l.cfg.utilization)))
	}
	l.recs = append(l.recs, rec{o.At, want})
	for len(l.recs) > 0 && o.At.Sub(l.recs[0].at) > l.cfg.stabilization {
		l.recs = l.recs[1:]
	}
	stable := 0
	for _, r := range l.recs {
		stable = max(stable, r.n)
	}
	if l.since.IsZero() {
		l.since = o.At
	}
	if o.At.Sub(l.since) < l.cfg.stabilization {
		stable = max(stable, n) // not a whole window of history yet
	}
	if stable < n {
		to := max(stable, n-max(1, int(math.Ceil(shrinkStep*float64(n)))))
		return l.done(o, to, fmt.Sprintf("utilisation %.2f: the largest need over %v is %d", u, l.cfg.stabilization, stable))
	}
	return l.done(o, n, "")
}

// judge evaluates the last growth step, now that a window has run with it:
// a step that bought less than a quarter of a worker's throughput per
// worker, or sent the scheduler's latency up tenfold, found a knee.
func (l *law) judge(o Observation) string {
	p := l.probe
	l.probe = nil
	if p == nil || o.Size != p.to || p.x0 <= 0 || p.to <= p.from || o.Completions < 2*uint64(p.to) {
		return ""
	}
	if o.Queue == 0 || o.Utilization() < l.cfg.high {
		return "" // the backlog is gone: the step paid, or the load was what limited throughput
	}
	perWorker := p.x0 / float64(p.from)
	gain := (o.Throughput - p.x0) / float64(p.to-p.from) / perWorker
	// A tenfold rise, or a run-queue wait long enough to matter on its own:
	// a pool that was CPU-saturated from its first window has no quiet
	// baseline to rise from.
	schedJump := o.SchedP99 > 10*max(p.sched0, time.Millisecond) || o.SchedP99 >= schedSaturated
	switch {
	case schedJump:
		l.class = CPUBound
	case gain >= gainIO && p.to > o.GOMAXPROCS:
		l.class = IOBound
	}
	// Throughput per window is noisy under an open-loop load, so a small
	// gain alone does not make a knee: the scheduler's queue must say the
	// extra workers only wait for a CPU. A downstream that saturates shows
	// up as rejections and timeouts instead, which the loss rule handles.
	if gain < gainCut && schedJump {
		l.knee, l.kneeUntil = max(l.cfg.min, p.from), o.At.Add(kneeTTL)
		return fmt.Sprintf("growing %d→%d bought %.2f of a worker each (scheduler p99 %v): knee at %d", p.from, p.to, gain, o.SchedP99, p.from)
	}
	return ""
}

// done records the decision as this tick's recommendation for the
// stabilisation window (unless the idle path already recorded its need),
// so that a shrink never undoes a recent growth before the window passes.
func (l *law) done(o Observation, to int, why string) (int, string) {
	if n := len(l.recs); n == 0 || !l.recs[n-1].at.Equal(o.At) {
		l.recs = append(l.recs, rec{o.At, to})
	}
	if to != o.Size && why == "" {
		why = "adjust"
	}
	return to, why
}
