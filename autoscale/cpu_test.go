package autoscale

import (
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
)

// withCPU is o with the process's CPU use and
// the goroutines ready to run read as well.
func withCPU(o Observation, cpu, runnable float64) Observation {
	o.CPU, o.Runnable = cpu, runnable
	return o
}

// TestLawCPUBoundByMeasurement: four busy workers on two saturated CPUs,
// with about two of them waiting for a CPU, leave none blocked: the law
// brings the pool to GOMAXPROCS in one step and places the knee there,
// known from below (no step down to test it) and CPU-bound; it holds
// there under the pressure, and tests the knee from above only after
// cpuHold.
func TestLawCPUBoundByMeasurement(t *testing.T) {
	l := newObjectiveLaw(64)
	ms := time.Millisecond
	decideT(t, l, withCPU(saturated(0, 4, 6000, 3900, ms), 1.95, 1.8), 2, "CPU-bound, knee at 2")
	if l.class != CPUBound || l.knee != 2 || !l.kneeDown || l.probe != nil {
		t.Fatalf("class %s, knee %d, known from below %v, probe %v; want cpu-bound at 2, known from below, no probe", l.class, l.knee, l.kneeDown, l.probe)
	}
	for at := 250 * ms; at < cpuHold; at += 250 * ms {
		decideT(t, l, withCPU(saturated(at, 2, 6000, 3950, 500*time.Microsecond), 2, 0.1), 2, "")
	}
	d := decideT(t, l, withCPU(saturated(cpuHold+250*ms, 2, 6000, 3950, 500*time.Microsecond), 2, 0.1), 3, "")
	if d.cause != CauseGrow {
		t.Fatalf("after the hold: %q (%s), want a small growth step testing the knee", d.reason, d.cause)
	}
	// The test finds the work CPU-bound again: back to 2, and the next
	// test waits twice as long.
	decideT(t, l, withCPU(saturated(cpuHold+500*ms, 3, 6000, 3950, 750*time.Microsecond), 2, 1), 2, "knee at 2")
	if l.kneeTTL != 2*cpuHold {
		t.Fatalf("the knee's next test in %v, want %v", l.kneeTTL, 2*cpuHold)
	}
}

// TestLawKneeSurvivesTheShrinksTail: a CPU-bound pool grown past its CPUs
// before the measurement told comes down to 2; in the window after, the
// workers above 2 end the tasks they held, lengthened by sharing two CPUs
// with all of them. Neither that window nor the next is other work: the
// knee stays, and the pool with it. Read against the window's size alone,
// they were: from 16 workers, the tail's mean of 1.6ms and then the work's
// own 0.5ms, less by more than the 2.5 a pool of two strays; from 49, the
// tail's 12ms, more than 2.5 times the least before it (1.8ms, at 8). The
// law forgot the knee, grew (to the ceiling, from 49), and found it again a
// window later, over and over.
func TestLawKneeSurvivesTheShrinksTail(t *testing.T) {
	ms, us := time.Millisecond, time.Microsecond
	for _, c := range []struct {
		name   string
		before []Observation // the windows that grew the pool
		knee   Observation   // the window that found the CPUs saturated
		tail   time.Duration // the next window's mean at 2
	}{
		{"from 16", nil, withCPU(saturated(0, 16, 6000, 4000, 4*ms), 2, 14), 1600 * us},
		{"from 49", []Observation{withCPU(saturated(0, 8, 6000, 3900, 1800*us), 2, 1)},
			withCPU(saturated(250*ms, 49, 6000, 3900, 12600*us), 2, 47), 12250 * us},
	} {
		l := newObjectiveLaw(64)
		for _, o := range c.before {
			l.decide(o)
		}
		decideT(t, l, c.knee, 2, "CPU-bound, knee at 2")
		at := c.knee.At.Sub(t0) + 250*ms
		o := withCPU(saturated(at, 2, 6000, 4000, c.tail), 2, 0.1)
		o.Busy = 6.4
		if d := l.decide(o); d.to != 2 || l.knee != 2 {
			t.Fatalf("%s, the tail's window: to %d (%q), knee %d; want the knee at 2 kept", c.name, d.to, d.reason, l.knee)
		}
		for end := at + 2*time.Second; at < end; {
			at += 250 * ms
			if d := l.decide(withCPU(saturated(at, 2, 6000, 4000, 500*us), 2, 0.1)); d.to != 2 || l.knee != 2 {
				t.Fatalf("%s, at %v: to %d (%q), knee %d; want the knee at 2 kept", c.name, at, d.to, d.reason, l.knee)
			}
		}
	}
}

// TestLawCPUBoundByItsServiceTime: CPU-bound work at 1.5 times what two
// CPUs serve, on a pool started at 4 (the readings of a real start on a
// 2-CPU VM). The tick the backlog brought forward grows the pool by
// Little's law; in the full window after it, the scheduler's sampled
// latencies read no goroutine waiting for a CPU, so the busy workers beyond
// the CPUs look blocked. The service time grew as the CPUs' sharing says
// (n/2 over 4/2): the law places the knee at 2 in that window. Where the
// tasks kept nearer their length (I/O calls, on CPUs the rest of the
// process saturates), or the CPUs had room, it does not.
func TestLawCPUBoundByItsServiceTime(t *testing.T) {
	ms := time.Millisecond
	start := Observation{At: t0.Add(80 * ms), Window: 80 * ms, Size: 4, Arrivals: 465, Completions: 271,
		Lambda: 5815, Throughput: 3391, Busy: 2.84, BusyNow: 4, Queue: 189, WaitP50: 11 * ms, WaitP99: 33 * ms,
		Service: 824 * time.Microsecond, GOMAXPROCS: 2, CPU: 1.81, Runnable: 3.9}
	for _, c := range []struct {
		name      string
		lengthens float64 // the service time's lengthening, as a share of the CPUs' sharing
		cpu       float64
		knee      bool
	}{
		{"CPU-bound", 1.1, 2, true},
		{"a little less than the sharing", 0.8, 2, true},
		{"less than three quarters of the sharing", 0.7, 2, false},
		{"I/O calls that kept their length", 0.5, 2, false},
		{"CPUs with room", 1.1, 1.5, false},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			l := newObjectiveLaw(64)
			n := decideEarly(l, start).to
			if n < 6 {
				t.Fatalf("the early tick: 4 → %d, want growth by Little's law to 6 at least", n)
			}
			share := float64(n) / 4 // max(1, n/2) / max(1, 4/2)
			o := Observation{At: start.At.Add(262 * ms), Window: 262 * ms, Size: n, Arrivals: 1375, Completions: 996,
				Lambda: 5248, Throughput: 3802, Busy: float64(n) - 0.9, BusyNow: n, Queue: 565,
				WaitP50: 62 * ms, WaitP99: 133 * ms, GOMAXPROCS: 2, CPU: c.cpu, Runnable: 0.0001,
				Service: time.Duration(float64(start.Service) * c.lengthens * share)}
			d := l.decide(o)
			if got := d.cause == CauseKnee && d.to == 2 && l.knee == 2 && l.class == CPUBound; got != c.knee {
				t.Fatalf("%d → %d (%s, %q), knee %d, class %s; want the knee at 2: %v", n, d.to, d.cause, d.reason, l.knee, l.class, c.knee)
			}
			if c.knee && !strings.Contains(d.reason, "grew with the workers") {
				t.Fatalf("reason %q does not name the service time's witness", d.reason)
			}
		})
	}
}

// TestLawIOInABusyProcess: the CPUs are saturated by the rest of the
// process, but most of the pool's busy workers are neither running nor
// ready to run: they wait on I/O, and the law sizes the pool by Little's
// law, as it would without the readings.
func TestLawIOInABusyProcess(t *testing.T) {
	for _, c := range []struct {
		name          string
		cpu, runnable float64
	}{
		{"blocked workers", 2, 1},
		{"more ready to run than the pool has busy", 2, 40},
		{"CPUs not saturated", 1.2, 0},
		{"not a reading of real time", 9, 0},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			l := newObjectiveLaw(64)
			o := withCPU(saturated(0, 16, 1200, 800, 20*time.Millisecond), c.cpu, c.runnable)
			if c.name != "blocked workers" {
				o.Busy = 4 // otherwise the first case alone would leave most of them blocked
				o.Size = 4
			}
			d := l.decide(o)
			if d.to <= o.Size || l.knee != 0 {
				t.Fatalf("%d → %d (%q), knee %d; want growth by Little's law and no knee", o.Size, d.to, d.reason, l.knee)
			}
		})
	}
}

// TestLawCPUReadingsYieldToExperiments: once a growth beyond GOMAXPROCS
// has paid (the work is I/O-bound), readings that look CPU-bound place no
// knee: the process's CPU time cannot be told apart from the pool's.
func TestLawCPUReadingsYieldToExperiments(t *testing.T) {
	l := newObjectiveLaw(64)
	l.class = IOBound
	o := withCPU(saturated(0, 4, 6000, 3900, time.Millisecond), 2, 2)
	if d := l.decide(o); d.to <= 4 || l.knee != 0 {
		t.Fatalf("I/O-bound work: 4 → %d (%q), knee %d; want growth and no knee", d.to, d.reason, l.knee)
	}
}

// TestSchedReading: a window's CPU use is the process's CPU time over the
// window's length; the goroutines ready to run are the histogram's new
// waits, times the runtime's sampling, over it. A first reading, or one of
// a zero window, says nothing.
func TestSchedReading(t *testing.T) {
	var s schedReading
	sample := []metrics.Sample{{Name: schedMetric}}
	metrics.Read(sample)
	if cpu, r := s.read(sample[0].Value, time.Second); cpu != 0 || r != 0 {
		t.Fatalf("first reading: %v CPUs, %v ready; want nothing", cpu, r)
	}
	// Spin until the process has used 50ms of CPU since that reading,
	// however long the other tests running beside this one make it take:
	// the window's reading must then account for at least that much, and
	// for no more than every CPU busy throughout.
	const spun = 50 * time.Millisecond
	c0, ok := processCPU()
	start := time.Now()
	for ok && time.Since(start) < time.Minute {
		if c, _ := processCPU(); c-c0 >= spun {
			break
		}
	}
	for !ok && time.Since(start) < spun {
	}
	metrics.Read(sample)
	win := time.Since(start)
	cpu, r := s.read(sample[0].Value, win)
	if ok && (cpu*float64(win) < float64(spun) || cpu > float64(runtime.NumCPU())+0.5) {
		t.Errorf("a window of %v in which the process used at least %v of CPU read as %.2f CPUs (of %d)", win, spun, cpu, runtime.NumCPU())
	}
	if r < 0 {
		t.Errorf("%v goroutines ready to run", r)
	}
	if cpu, r := s.read(sample[0].Value, 0); cpu != 0 || r != 0 {
		t.Errorf("a zero window: %v CPUs, %v ready; want nothing", cpu, r)
	}
}

// TestLawSchedWaitIsNotLoad: two workers on two CPUs that have room serve
// 1,650 tasks a second and read 1.2 busy, but the process used 0.87 CPUs
// and next to none of the busy workers were blocked: the rest was the
// scheduler's (wake-ups, threads set aside), which one worker would not
// pay. Under an objective one worker keeps, the law comes down to one
// within the stabilisation window. Where the readings leave a third of
// the busy workers blocked (I/O), where the CPUs are saturated, or where
// the work is known to be I/O-bound, the busy workers are the load, and
// it keeps two.
func TestLawSchedWaitIsNotLoad(t *testing.T) {
	ms := time.Millisecond
	window := func(at time.Duration, n int, cpu, runnable float64) Observation {
		o := steadyAt(at, n, 1650, 727*time.Microsecond) // 1.2 busy
		return withCPU(o, cpu, runnable)
	}
	for _, c := range []struct {
		name          string
		cpu, runnable float64
		class         Class
		want          int
	}{
		{"CPU-bound, CPUs with room", 0.87, 0.25, Unknown, 1},
		{"a third blocked", 0.6, 0.2, Unknown, 2},
		{"CPUs saturated", 1.9, 0.1, Unknown, 2},
		{"known I/O-bound", 0.87, 0.25, IOBound, 2},
		{"no readings", 0, 0, Unknown, 2},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			l := newObjectiveLaw(64)
			l.cfg.targetWait = 100 * ms
			l.class = c.class
			n := 2
			for at := time.Duration(0); at < 2*l.cfg.stabilization; at += 250 * ms {
				n = l.decide(window(at, n, c.cpu, c.runnable)).to
			}
			if n != c.want {
				t.Fatalf("ends at %d workers, want %d", n, c.want)
			}
		})
	}
}

// TestLawEarlyTickQueueDrainsBeforeTheTick: one worker at nine tenths
// busy queues thirty tasks now and then; a tick a backlog brought
// forward 40 ms into its window sees such a queue with the worker busy,
// and 75 arrivals where 66 were due, within the Poisson spread. The queue
// drains at the smoothed arrival rate well before the next regular tick:
// the law holds, where judging the drain by the 40 ms window, or the
// window's own rate, would grow the pool for Poisson noise. (The objective
// is shorter than the queue's last task waits to start, 15.6ms, so that
// the queue is not one AUTO-17 keeps whatever its drain.) The same queue
// behind arrivals that stepped up to 2,200 a second, which the smoothing
// trails, does not drain: the law grows.
func TestLawEarlyTickQueueDrainsBeforeTheTick(t *testing.T) {
	ms := time.Millisecond
	l := newObjectiveLaw(64)
	l.cfg.targetWait = 15 * ms
	s := 520 * time.Microsecond
	n := steadyFrom(l, 1, 0, 2*time.Second, 1650, s)
	if n != 1 {
		t.Fatalf("steady at 0.86 of one worker: %d workers, want 1", n)
	}
	o := steadyAt(2*time.Second+40*ms, 1, 1880, s)
	o.Window, o.Arrivals, o.Completions = 40*ms, 75, 60
	o.Busy, o.BusyNow, o.Queue, o.WaitP50, o.WaitP99 = 0.8, 1, 30, 2*ms, 5*ms
	if l.queueKept(o) {
		t.Fatalf("a queue of 30 of %v at one worker, objective %v: kept", s, l.objective(o))
	}
	if d := decideEarly(l, o); d.to != 1 {
		t.Fatalf("early tick, a queue of 30 at one worker: to %d (%q), want a hold", d.to, d.reason)
	}
	o.At, o.Lambda, o.Arrivals = o.At.Add(40*ms), 2200, 88
	if d := decideEarly(l, o); d.to < 2 {
		t.Fatalf("early tick, a queue of 30 behind arrivals of 2,200/s at one worker: to %d (%q), want growth", d.to, d.reason)
	}
}
