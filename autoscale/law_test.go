package autoscale

import (
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// pressured is an observation of a saturated pool of n with a backlog.
func pressured(at time.Duration, n int, throughput float64, sched time.Duration, procs int) Observation {
	return Observation{At: t0.Add(at), Window: time.Second, Size: n, Arrivals: 10000, Completions: 1000,
		Lambda: 10000, Throughput: throughput, Busy: float64(n), BusyNow: n, Queue: 50,
		Service: time.Millisecond, SchedP99: sched, GOMAXPROCS: procs}
}

// TestLawFindsCPUKnee: a growth step past GOMAXPROCS that buys nothing and
// sends the scheduler latency up tenfold marks the work CPU-bound, reverts
// to the knee, and from then on caps growth at ceil(1.5 × GOMAXPROCS),
// following GOMAXPROCS when it changes.
func TestLawFindsCPUKnee(t *testing.T) {
	l := &law{cfg: defaultConfig(), class: Unknown}
	to, why := l.decide(pressured(0, 2, 2000, 100*time.Microsecond, 2))
	if to != 13 {
		t.Fatalf("under pressure at 2: %d (%s), want 13 = ceil(λ·S₀/u) = ceil(10000×1ms/0.8)", to, why)
	}
	to, why = l.decide(pressured(time.Second, 13, 2050, 30*time.Millisecond, 2))
	if to != 2 || l.class != CPUBound || !strings.Contains(why, "knee") {
		t.Fatalf("after a step that bought nothing: %d (%s), class %s; want back to 2, cpu-bound", to, why, l.class)
	}
	l.knee = 0 // past the knee's lifetime, the CPU ceiling still holds
	to, why = l.decide(pressured(2*time.Second, 2, 2000, 100*time.Microsecond, 2))
	if to != 3 {
		t.Fatalf("cpu-bound, pressure at 2 with GOMAXPROCS 2: %d (%s), want 3 = ceil(1.5×2)", to, why)
	}
	l.probe = nil
	to, why = l.decide(pressured(3*time.Second, 3, 2000, 100*time.Microsecond, 1))
	if to != 2 {
		t.Fatalf("GOMAXPROCS down to 1 at size 3: %d (%s), want 2 = ceil(1.5×1)", to, why)
	}
}

// TestLawKeepsGrowingIO: steps that keep paying mark the work I/O-bound,
// and growth goes on past the CPU ceiling up to WithMax.
func TestLawKeepsGrowingIO(t *testing.T) {
	cfg := defaultConfig()
	cfg.max = 64
	l := &law{cfg: cfg, class: Unknown}
	n, x := 2, 200.0
	for i := 0; n < 64; i++ {
		o := pressured(time.Duration(i)*time.Second, n, x, 50*time.Microsecond, 2)
		o.Service = time.Duration(i+1) * time.Millisecond // S₀ stays 1ms: the need grows with λ
		o.Lambda = 10000 * float64(i+1)
		to, why := l.decide(o)
		if to <= n || i > 5 {
			t.Fatalf("step %d at %d: %d (%s), want growth", i, n, to, why)
		}
		x *= float64(to) / float64(n) // each worker pays in full
		n = to
	}
	if l.class != IOBound || n != 64 {
		t.Errorf("after paying steps: size %d, class %s; want 64, io-bound", n, l.class)
	}
}

// TestLawMemoryGuard: no growth while the live heap is above 90% of the
// soft memory limit.
func TestLawMemoryGuard(t *testing.T) {
	l := &law{cfg: defaultConfig(), class: Unknown}
	o := pressured(0, 4, 4000, 0, 2)
	o.MemLimit, o.HeapLive = 1000, 950
	if to, why := l.decide(o); to != 4 || !strings.Contains(why, "memory limit") {
		t.Errorf("near the memory limit: %d (%s), want 4 held for memory", to, why)
	}
}
