package autoscale

import (
	"slices"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// saturated is an observation of a pool of n with every worker busy and a
// queue (not a backlog: the typical task waited half a service time),
// serving x tasks a second of mean service time s, with λ arriving.
func saturated(at time.Duration, n int, lambda, x float64, s time.Duration) Observation {
	return Observation{At: t0.Add(at), Window: 250 * time.Millisecond, Size: n,
		Arrivals: uint64(lambda / 4), Completions: uint64(x / 4), Lambda: lambda, Throughput: x,
		Busy: float64(n), BusyNow: n, Queue: 50, WaitP50: s / 2, WaitP99: 20 * s, Service: s, GOMAXPROCS: 2}
}

func newLaw(max int) *law {
	cfg := defaultConfig()
	cfg.max = max
	return &law{cfg: cfg, class: Unknown}
}

// decideT fails the test unless the law moves to want, with a reason
// containing sub and one of the causes Stats counts.
func decideT(t *testing.T, l *law, o Observation, want int, sub string) decision {
	t.Helper()
	d := l.decide(o)
	if d.to != want || !strings.Contains(d.reason, sub) {
		t.Fatalf("at %d (x %.0f/s, S %v): %d (%q), want %d with %q", o.Size, o.Throughput, o.Service, d.to, d.reason, want, sub)
	}
	if !slices.Contains(Causes, d.cause) {
		t.Fatalf("at %d: cause %q is not one of %v", o.Size, d.cause, Causes)
	}
	return d
}

// TestLawKneeFromAStepThatBoughtNothing: CPU-bound work on 2 CPUs. Little's
// law asks for more workers; the step buys no throughput and the service
// time doubles with the workers: the law goes back, then tests the knee
// from below until a step down costs throughput, and calls the work
// CPU-bound once the knee is within ceil(1.5 × GOMAXPROCS).
func TestLawKneeFromAStepThatBoughtNothing(t *testing.T) {
	l := newLaw(64)
	ms := time.Millisecond
	decideT(t, l, saturated(0, 4, 6000, 4000, ms), 8, "Little's law asks for 8")
	decideT(t, l, saturated(250*ms, 8, 6000, 4000, 2*ms), 8, "") // one window is not a verdict
	decideT(t, l, saturated(500*ms, 8, 6000, 4000, 2*ms), 4, "knee at 4")
	if l.class != Limited || l.knee != 4 {
		t.Fatalf("class %s, knee %d; want limited at 4 (above ceil(1.5×2))", l.class, l.knee)
	}
	decideT(t, l, saturated(750*ms, 4, 6000, 4000, ms), 3, "testing it from below at 3")
	decideT(t, l, saturated(time.Second, 3, 6000, 3990, 750*time.Microsecond), 3, "") // "kept" takes two windows
	decideT(t, l, saturated(1250*ms, 3, 6000, 4000, 750*time.Microsecond), 3, "knee at 3")
	decideT(t, l, saturated(1500*ms, 3, 6000, 4000, 750*time.Microsecond), 2, "testing it from below at 2")
	decideT(t, l, saturated(1750*ms, 2, 6000, 3950, 500*time.Microsecond), 2, "")
	decideT(t, l, saturated(2*time.Second, 2, 6000, 3990, 500*time.Microsecond), 2, "knee at 2")
	if l.class != CPUBound {
		t.Fatalf("class %s at knee 2 on 2 CPUs, want cpu-bound", l.class)
	}
	decideT(t, l, saturated(2250*ms, 2, 6000, 4000, 500*time.Microsecond), 1, "testing it from below at 1")
	decideT(t, l, saturated(2500*ms, 1, 6000, 2000, 500*time.Microsecond), 2, "lost 50%")
	decideT(t, l, saturated(2750*ms, 2, 6000, 4000, 500*time.Microsecond), 2, "pressure at the knee 2")
}

// TestLawStepDownJudgedByLittle: a knee at 32 is right (a downstream with
// 32 slots, 80ms a call). Testing it from below at 28 costs an eighth of
// the throughput, but the completions counted in two windows stray as far
// as that and show none of it. The service time held while the busy
// workers fell, which by Little's law is a loss: the knee stays at 32.
func TestLawStepDownJudgedByLittle(t *testing.T) {
	l := newLaw(64)
	l.knee, l.kneeS, l.kneeSeen, l.class = 32, 80*time.Millisecond, true, Limited
	l.kneeUntil = t0.Add(5 * time.Second)
	ms := time.Millisecond
	decideT(t, l, saturated(0, 32, 600, 400, 80*ms), 28, "testing it from below at 28")
	decideT(t, l, saturated(250*ms, 28, 600, 404, 80*ms), 28, "")
	decideT(t, l, saturated(500*ms, 28, 600, 392, 80*ms), 32, "the knee is 32")
}

// TestLawIgnoresSlowTasksThatScale: tasks slowed down by CPU load
// elsewhere in the process (a service time far above its best) are not
// CPU-bound as long as added workers buy throughput: the law keeps
// growing to what Little's law asks, and calls the work I/O-bound.
func TestLawIgnoresSlowTasksThatScale(t *testing.T) {
	l := newLaw(64)
	s := 30 * time.Millisecond // 20ms of downstream, 10ms of waiting for a CPU
	n, lambda := 4, 800.0
	for i := 0; ; i++ {
		o := saturated(time.Duration(i)*250*time.Millisecond, n, lambda, float64(n)/s.Seconds(), s)
		if o.Throughput >= lambda { // enough workers: the backlog drains
			o.Throughput, o.Queue, o.Busy, o.BusyNow = lambda, 0, lambda*s.Seconds(), int(lambda*s.Seconds())
		}
		d := l.decide(o)
		if strings.Contains(d.reason, "knee") {
			t.Fatalf("step %d at %d: %q", i, n, d.reason)
		}
		if d.to == n {
			break
		}
		n = d.to
	}
	// 800/s × 30ms keeps 24 workers busy: ceil(24 + 0.5·√24) = 27 (staff).
	if n != 27 || l.class != IOBound {
		t.Errorf("settled at %d, class %s; want 27, io-bound", n, l.class)
	}
}

// TestStaff: the workers for an offered load of r busy workers: r/u up to
// a load of 4, the square-root rule beyond (at u = 0.8, β = 0.5).
func TestStaff(t *testing.T) {
	l := newLaw(64)
	for _, c := range []struct {
		r    float64
		want int
	}{{0, 0}, {0.5, 1}, {1.7, 3}, {4, 5}, {9, 11}, {16, 18}, {21, 24}, {100, 105}} {
		if got := l.staff(c.r); got != c.want {
			t.Errorf("staff(%v) at u 0.8 = %d, want %d", c.r, got, c.want)
		}
	}
	l.cfg.utilization = 1
	if got := l.staff(21); got != 21 {
		t.Errorf("staff(21) at u 1 = %d, want 21", got)
	}
	l.cfg.utilization = 0.5 // β = 2
	if got := l.staff(16); got != 24 {
		t.Errorf("staff(16) at u 0.5 = %d, want 24", got)
	}
}

// TestLawKneeFromAPartialGain: a step from 16 to 32 against a downstream
// that serves 24 at once buys half a worker per added worker: the knee is
// half way, at 24.
func TestLawKneeFromAPartialGain(t *testing.T) {
	l := newLaw(64)
	ms := time.Millisecond
	// 1500/s × 20ms = 30 busy: ceil(30 + 0.5·√30) = 33, at most doubling
	// from a saturated window
	decideT(t, l, saturated(0, 16, 1500, 800, 20*ms), 32, "asks for 33")
	decideT(t, l, saturated(250*ms, 32, 1500, 1200, 26*ms), 32, "")
	d := l.decide(saturated(500*ms, 32, 1500, 1200, 27*ms))
	if d.to != 24 || !strings.Contains(d.reason, "knee at 24") {
		t.Fatalf("after the step: %d (%q), want 24", d.to, d.reason)
	}
}

// TestLawUnderPressureWithoutGrowthLeavesNoKnee: a step whose windows are
// no longer saturated (the backlog drained) paid; no knee.
func TestLawUnderPressureWithoutGrowthLeavesNoKnee(t *testing.T) {
	l := newLaw(64)
	ms := time.Millisecond
	decideT(t, l, saturated(0, 8, 600, 400, 20*ms), 14, "asks for 14") // 12 + 0.5·√12
	o := saturated(250*ms, 14, 600, 600, 20*ms)
	o.Queue, o.Busy = 0, 12
	l.decide(o)
	if l.knee != 0 || l.probe != nil {
		t.Errorf("knee %d, probe %v after a step that drained the queue", l.knee, l.probe)
	}
}

// TestLawDropsKneeWhenWorkChanges: a service time 2.5 times the one the
// knee was found at (a CPU phase gives way to I/O) drops the knee, and
// growth goes on at once.
func TestLawDropsKneeWhenWorkChanges(t *testing.T) {
	l := newLaw(64)
	l.setKnee(saturated(0, 2, 0, 0, 0), 2, 500*time.Microsecond)
	decideT(t, l, saturated(250*time.Millisecond, 2, 960, 100, 20*time.Millisecond), 2, "the work changed")
	if l.knee != 0 || l.class != Unknown {
		t.Fatalf("knee %d, class %s after the work changed", l.knee, l.class)
	}
	decideT(t, l, saturated(500*time.Millisecond, 2, 960, 100, 20*time.Millisecond), 4, "asks for 22")
}

// TestLawKneeExpires: after kneeTTL a knee no longer caps growth, and
// growth near it goes in small steps.
func TestLawKneeExpires(t *testing.T) {
	l := newLaw(64)
	ms := time.Millisecond
	l.setKnee(saturated(0, 16, 0, 0, 0), 16, 20*ms)
	l.kneeDown = true
	decideT(t, l, saturated(time.Second, 16, 1200, 800, 20*ms), 16, "pressure at the knee 16")
	decideT(t, l, saturated(kneeTTL+time.Second, 16, 1200, 800, 20*ms), 18, "asks for 27") // 16 + 16/8
}

// TestLawHoldsOnAMomentaryQueue: a queue most tasks did not wait in, with
// Little's law asking for no more workers, is no reason to grow.
func TestLawHoldsOnAMomentaryQueue(t *testing.T) {
	l := newLaw(64)
	o := saturated(0, 10, 300, 300, 20*time.Millisecond) // needs ceil(7.5) = 8
	o.WaitP50, o.Queue = time.Millisecond, 80            // 10 workers drain 50 in a window
	decideT(t, l, o, 10, "asks for only 8")
}

// TestLawHoldsOnABurstItDrains: a queue the size drains within a window,
// the arrivals at their smoothed rate, is no reason to grow, even if the
// tasks in it waited longer than a service time.
func TestLawHoldsOnABurstItDrains(t *testing.T) {
	l := newLaw(64)
	o := saturated(0, 10, 300, 300, 20*time.Millisecond)
	o.WaitP50 = 40 * time.Millisecond // 10 workers serve 500/s: 200/s spare, 50 a window
	decideT(t, l, o, 10, "drained within a window")
	o.At, o.Queue = o.At.Add(250*time.Millisecond), 51
	decideT(t, l, o, 11, "one more worker")
}

// TestLawSizesForTheBacklog: a backlog (its typical task waited longer
// than it runs) adds the rate that drains it in drainWindows windows to
// the arrivals; the stabilisation window keeps only what the arrivals
// need, so the pool comes back down once the backlog is gone.
func TestLawSizesForTheBacklog(t *testing.T) {
	l := newLaw(64)
	ms := time.Millisecond
	o := saturated(0, 4, 400, 200, 20*ms)
	o.Queue, o.WaitP50, o.Busy = 400, 100*ms, 3.5 // not saturated: applied at once
	// (400 + 400/(4 × 0.25s)) × 20ms = 16 busy: 16 + 0.5·√16 = 18; without
	// the backlog, 8 busy: ceil(8 + 0.5·√8) = 10
	decideT(t, l, o, 18, "asks for 18")
	idle := Observation{At: t0.Add(500 * ms), Window: 250 * ms, Size: 18, Busy: 8, Lambda: 400, Throughput: 400,
		Service: 20 * ms, GOMAXPROCS: 2}
	decideT(t, l, idle, 14, "the largest need over 5s is 10")
}

// TestLawNoKneeFromHeavyTailedNoise: tasks whose service times spread far
// (lognormal, σ = 1) make one window's mean stray: a first window of few,
// short completions, then longer ones at the doubled size, is chance, not
// a knee. The same means with tasks all alike are a knee.
func TestLawNoKneeFromHeavyTailedNoise(t *testing.T) {
	ms := time.Millisecond
	run := func(sd0, sd time.Duration) *law {
		l := newLaw(64)
		o := saturated(0, 4, 1000, 144, 25*ms)
		o.ServiceSD = sd0
		decideT(t, l, o, 8, "asks for")
		for i := 1; i <= 2; i++ {
			o := saturated(time.Duration(i)*250*ms, 8, 1000, 244, 38*ms)
			o.ServiceSD = sd
			l.decide(o)
		}
		return l
	}
	if l := run(33*ms, 45*ms); l.knee != 0 {
		t.Errorf("heavy-tailed tasks: knee at %d from chance", l.knee)
	}
	if l := run(0, 0); l.knee == 0 {
		t.Errorf("tasks all alike: the same means found no knee")
	}
}

// TestLawShrinksToTheNeed: an under-used pool shrinks to the busy workers
// over the target utilisation, a fifth of N at most per tick.
func TestLawShrinksToTheNeed(t *testing.T) {
	l := newLaw(64)
	n := 8
	var sizes []int
	for i := range 8 {
		o := Observation{At: t0.Add(time.Duration(i) * 250 * time.Millisecond), Size: n, Busy: 1.7, Lambda: 100,
			Throughput: 100, Service: 17 * time.Millisecond, GOMAXPROCS: 2}
		n = l.decide(o).to
		sizes = append(sizes, n)
	}
	if want := []int{6, 4, 3, 3, 3, 3, 3, 3}; !equal(sizes, want) {
		t.Errorf("sizes %v, want %v", sizes, want)
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestLawMemoryGuard: no growth while the live heap is above 90% of the
// soft memory limit.
func TestLawMemoryGuard(t *testing.T) {
	l := newLaw(0)
	o := saturated(0, 4, 6000, 4000, time.Millisecond)
	o.MemLimit, o.HeapLive = 1000, 950
	decideT(t, l, o, 4, "memory limit")
}

// failingAt is a saturated window at n whose tasks fail at the given rate.
func failingAt(at time.Duration, n int, rate float64) Observation {
	o := saturated(at, n, 4000, 100*float64(n), 10*time.Millisecond)
	o.Failures = uint64(rate * float64(o.Completions))
	return o
}

func newFailureLaw(max int) *law {
	l := newLaw(max)
	l.cfg.failures = func() uint64 { return 0 }
	return l
}

// TestLawBacksOffFailuresThatGrowWithSize: a downstream that answers with
// errors past its limit. At 8 workers nothing fails; the law grows to 16,
// where a third fail: back to 8, and growth is capped there while the cap
// lasts, pressure or not.
func TestLawBacksOffFailuresThatGrowWithSize(t *testing.T) {
	ms := time.Millisecond
	l := newFailureLaw(64)
	to := l.decide(failingAt(0, 8, 0)).to
	if to <= 8 {
		t.Fatalf("pressure at 8 without failures: %d, want growth", to)
	}
	decideT(t, l, failingAt(250*ms, to, 0.33), 8, "back to 8")
	if d := decideT(t, l, failingAt(500*ms, 8, 0), 8, ""); d.cause != CauseHoldLimit {
		t.Errorf("pressure under the failure cap: cause %s, want %s", d.cause, CauseHoldLimit)
	}
	// The cap expires with the knee's TTL; the law may probe again.
	if to := l.decide(failingAt(kneeTTL+time.Second, 8, 0)).to; to <= 8 {
		t.Errorf("after the cap expired, pressure at 8: %d, want growth", to)
	}
}

// TestLawIgnoresFailuresAtEverySize: a fifth of the tasks fail whatever
// the size (poison messages). With no other size measured the law steps
// down once to find out; the smaller size fails as much, so failures are
// no reason to stay down, and the pressure grows the pool again.
func TestLawIgnoresFailuresAtEverySize(t *testing.T) {
	ms := time.Millisecond
	l := newFailureLaw(64)
	decideT(t, l, failingAt(0, 10, 0.2), 9, "stepping down to 9")
	d := l.decide(failingAt(250*ms, 9, 0.2))
	if d.to <= 9 || d.cause == CauseFailing {
		t.Errorf("failing as much at 9 as at 10: %d (%s, %q), want growth under pressure", d.to, d.cause, d.reason)
	}
}

// TestLawFailuresNeedASample: a window of few completions says nothing
// about its failure rate, and failures below a tenth are not looked at.
func TestLawFailuresNeedASample(t *testing.T) {
	l := newFailureLaw(64)
	o := failingAt(0, 10, 0.5)
	o.Completions, o.Failures = failSample-1, failSample/2
	if d := l.decide(o); d.cause == CauseFailing {
		t.Errorf("%d of %d failed: the law acted on failures", o.Failures, o.Completions)
	}
	l = newFailureLaw(64)
	if d := l.decide(failingAt(0, 10, 0.05)); d.cause == CauseFailing {
		t.Error("5% failed: the law acted on failures")
	}
}
