package autoscale

import (
	"fmt"
	"math"
	"runtime/metrics"
	"time"
)

// CPU-bound work, by measurement. A window tells CPU-bound work from
// I/O-bound work without trying sizes when the process's CPUs are
// saturated: each of the pool's busy workers is then running on a CPU,
// ready to run and waiting for one, or blocked (in I/O, on a lock, on a
// downstream). The process's CPU time says how many run (at most: the rest
// of the process runs too), the scheduler's latencies how many wait for a
// CPU (at most: other goroutines wait too); what is left of the busy
// workers is the least number blocked. When that is a small share of them,
// the busy workers wait for the CPUs and for nothing else, and a worker
// added would only wait for a CPU as well: CPU-bound work on saturated
// CPUs gets no more workers than GOMAXPROCS. Workers blocked in I/O are
// the ones the rule leaves out: where many busy workers are neither
// running nor waiting for a CPU, the work is not CPU-bound, however busy
// the CPUs are (the scenario of I/O in a busy process), and Little's law
// sizes the pool as before.
const (
	// cpuSaturated is the share of GOMAXPROCS the process's CPU time must
	// reach in a window for its CPUs to count as saturated.
	cpuSaturated = 0.85
	// cpuBlockedShare is the largest share of the busy workers that may be
	// blocked for the work to count as CPU-bound: the readings are
	// estimates, and a worker blocked a quarter of its time would get
	// three quarters of a CPU's worth of work done at most anyway.
	cpuBlockedShare = 0.25
	// cpuHold is how long a knee placed at GOMAXPROCS by measurement caps
	// growth before a small step tests it from above, as a knee's tests do
	// (knee.go), each test that finds it where it was doubling the time to
	// the next. A measurement is better evidence than one step's verdict,
	// so the first test waits longer than a knee's.
	cpuHold = 20 * time.Second
	// trackingPeriod is how many of a goroutine's scheduling events the
	// runtime records one of in /sched/latencies:seconds (its
	// gTrackingPeriod, 8 since the metric was added in Go 1.17): the
	// histogram's total time is an eighth of the time goroutines waited.
	trackingPeriod = 8
)

// measuredCPUBound reports whether o measured CPU-bound work on saturated
// CPUs (see above).
func measuredCPUBound(o Observation) bool {
	return saturatedCPUs(o) && runningOrReady(o)
}

// saturatedCPUs reports whether the process used cpuSaturated of
// GOMAXPROCS in o's window. A reading beyond twice the CPUs is not a
// reading of real time (a window of a fake clock, in tests): nothing is
// concluded from it.
func saturatedCPUs(o Observation) bool {
	p := float64(max(1, o.GOMAXPROCS))
	return o.CPU >= cpuSaturated*p && o.CPU <= 2*p
}

// runningOrReady reports whether o's busy workers (one at least) were all
// but cpuBlockedShare of them running or ready to run, as far as the
// process's readings tell: the rest is the least number blocked.
func runningOrReady(o Observation) bool {
	if o.Busy < 1 {
		return false
	}
	// More goroutines waiting for a CPU than the pool has busy workers:
	// the rest of the process waits too, and how many of the waiters are
	// the pool's is unknown.
	if o.Runnable > o.Busy+1 {
		return false
	}
	blocked := o.Busy - o.CPU - o.Runnable
	return blocked <= cpuBlockedShare*o.Busy
}

// The same readings where the CPUs have room. A worker handed a task
// while parked is counted busy from the hand-off, its wake-up included
// (the pool counts it in the task's service time), and a worker's thread
// may lose its CPU for a while to another of the process's threads (the
// runtime's own, waking to find work): the worker is then ready to run,
// or running on a thread the operating system has set aside, while CPUs
// stand idle. That time is the scheduler's, not the work's, and a pool
// pays it because its workers park: at fewer workers the tasks queue
// instead, each worker takes the next without parking, and a task takes
// about the CPU time it needs. Little's law on the busy workers reads it
// as load. On a 2-CPU VM, tasks of 0.5 ms of computation at 1,600 a second
// took 0.59 ms from their own start and 0.63-0.65 ms from the hand-off at
// two workers, 0.51 ms at one; the two read 1.0-1.3 workers busy while
// the whole process used 0.81-0.93 CPUs, and the law kept two workers
// where one served the load.
//
// So where the CPUs have room and the work is CPU-bound by the measure
// above (runningOrReady), the law counts as load the CPUs the process
// used, not the busy workers, and the service time in the same
// proportion: the load the arrivals bring at the tasks' own length. The
// process's CPU time includes the rest of the process, which can only
// make the load counted larger. Where the CPUs are saturated, the wait
// for one is a queue that more workers only join (cpuKnee); where the
// work is known to be I/O-bound, the readings decide nothing; an early
// window's are too short to read. ok reports CPU-bound work on CPUs with
// room, whether or not the busy workers exceeded the CPUs used: where they
// did, the readings are partly the scheduler's, and the law may try a
// worker fewer (trial.go).
func withoutSchedWait(o Observation) (_ Observation, ok bool) {
	p := float64(max(1, o.GOMAXPROCS))
	if o.CPU <= 0 || o.CPU >= cpuSaturated*p || !runningOrReady(o) {
		return o, false
	}
	if o.Busy <= o.CPU {
		return o, true
	}
	f := o.CPU / o.Busy
	o.Busy = o.CPU
	o.Service = time.Duration(float64(o.Service) * f)
	o.ServiceSD = time.Duration(float64(o.ServiceSD) * f)
	return o, true
}

// cpuKnee places a knee at GOMAXPROCS when o measured CPU-bound work on
// saturated CPUs with more workers than CPUs, by either witness
// (measuredCPUBound, scaledWithWorkers), and brings the pool down to it:
// ok with the decision that says so. The knee is known from below (a step
// down would only idle a CPU), and is tested from above after cpuHold,
// then as any knee is. The experiments have the last word: once a growth
// beyond GOMAXPROCS has paid (IOBound), the readings, which cannot tell
// the pool's CPU time from the rest of the process's, place nothing.
func (l *law) cpuKnee(o Observation) (decision, bool) {
	k := max(l.cfg.min, o.GOMAXPROCS, 1)
	if l.class == IOBound || o.Size <= k {
		return decision{}, false
	}
	var why string
	if measuredCPUBound(o) {
		why = fmt.Sprintf("the %.1f busy workers wait for them, not for I/O (%.1f ready to run)", o.Busy, o.Runnable)
	} else if before, seen, want, ok := l.scaledWithWorkers(o); ok {
		why = fmt.Sprintf("the service time grew with the workers beyond them (%v at %d, %v at %d: %.2fx, %.2fx if CPU-bound)",
			before.service.Round(time.Microsecond), before.size, o.Service.Round(time.Microsecond), l.paced[1].size, seen, want)
	} else {
		return decision{}, false
	}
	placed := l.knee == k
	l.setKnee(o, k, o.Service, o.Size)
	if !placed {
		l.kneeTTL = max(l.kneeTTL, cpuHold)
		l.kneeUntil = o.At.Add(l.kneeTTL)
	}
	l.kneeDown = true
	l.probe = nil
	return decision{to: k, cause: CauseKnee, reason: fmt.Sprintf(
		"the CPUs are saturated (%.2f of %d in use) and %s: CPU-bound, knee at %d",
		o.CPU, o.GOMAXPROCS, why, k)}, true
}

// The second witness: the service time. The runtime samples its
// scheduling latencies (one event in trackingPeriod), and a window can
// read far fewer goroutines waiting for a CPU than there are busy workers
// beyond the CPUs: on a 2-CPU VM, 0.0001 ready to run with 7 of 8 workers
// busy on CPUs used to 1.997, in the window after a start at 4 workers
// grew the pool to 8. The first witness then reads the busy workers as
// blocked, and Little's law grows the pool again. But CPU-bound work on
// saturated CPUs shows itself in its service time too: P CPUs shared by n
// busy workers give each max(1, n/P) times its task's CPU time, so a
// growth from n' to n workers lengthens the tasks by max(1, n/P) /
// max(1, n'/P), where work that waits on I/O keeps its calls' length
// (plus a wake-up's wait for a CPU, which does not grow in proportion).
// A growth that lengthened the tasks by at least cpuScaledShare of that,
// where the CPUs were saturated in the window after it, is CPU-bound work
// on saturated CPUs.
const (
	// cpuScaledShare is the least share of the lengthening CPU-bound work
	// would show that the service time must show: the windows' means are
	// estimates, an early window's of its shortest tasks.
	cpuScaledShare = 0.75
	// cpuScaledLeast is the least lengthening CPU-bound work would show
	// for the witness to read it: below it, a service time's chance
	// reads as well as the CPUs' sharing.
	cpuScaledLeast = 1.5
)

// scaledWithWorkers reports whether the service time of o, on saturated
// CPUs, grew with the workers beyond them since the window before it with
// a service time (early or not), as CPU-bound work's would (see above):
// with the window before, the lengthening seen and the one CPU-bound work
// would show.
func (l *law) scaledWithWorkers(o Observation) (before sample, seen, want float64, ok bool) {
	// decide keeps o's own service time in l.paced[1] when it has one.
	before, now := l.paced[0], l.paced[1]
	if !saturatedCPUs(o) || o.Service <= 0 || before.service <= 0 || before.size <= 0 || now.size <= before.size {
		return before, 0, 0, false
	}
	p := float64(max(1, o.GOMAXPROCS))
	want = max(1, float64(now.size)/p) / max(1, float64(before.size)/p)
	seen = float64(now.service) / float64(before.service)
	return before, seen, want, want >= cpuScaledLeast && seen >= cpuScaledShare*want
}

// schedReading keeps the process's CPU time and the scheduler's latency
// histogram at the last reading, to turn the next one into a window's CPU
// use and average count of goroutines waiting for a CPU.
type schedReading struct {
	cpu    time.Duration
	cpuOK  bool
	counts []uint64
}

// read takes a new reading, v being the /sched/latencies:seconds sample,
// and returns what the window of length win since the last one used: CPUs
// busy and goroutines waiting for one, on average. Either is 0 when it
// cannot be read (the platform, an old runtime, the first reading).
func (s *schedReading) read(v metrics.Value, win time.Duration) (cpu, runnable float64) {
	now, ok := processCPU()
	if ok && s.cpuOK && win > 0 && now >= s.cpu {
		cpu = float64(now-s.cpu) / float64(win)
	}
	s.cpu, s.cpuOK = now, ok
	if v.Kind() != metrics.KindFloat64Histogram {
		return cpu, 0
	}
	h := v.Float64Histogram()
	if len(s.counts) == len(h.Counts) && win > 0 {
		var waited float64 // seconds
		for i, c := range h.Counts {
			d := c - s.counts[i]
			if d == 0 || c < s.counts[i] {
				continue
			}
			lo, hi := max(0, h.Buckets[i]), h.Buckets[i+1]
			if math.IsInf(hi, 1) {
				hi = lo
			}
			waited += float64(d) * (lo + hi) / 2
		}
		runnable = trackingPeriod * waited / win.Seconds()
	}
	// The runtime reuses the histogram's memory on the next read: keep a
	// copy of the counts.
	s.counts = append(s.counts[:0], h.Counts...)
	return cpu, runnable
}
