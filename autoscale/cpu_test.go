package autoscale

import (
	"runtime"
	"runtime/metrics"
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
