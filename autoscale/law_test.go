package autoscale

import (
	"math"
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

// queued is o with a queue of q whose typical task waited w: a backlog
// once w passes the service time.
func queued(o Observation, q int, w time.Duration) Observation {
	o.Queue, o.WaitP50 = q, w
	return o
}

// newLaw is a law without a latency objective to speak of (a target wait
// of an hour) and a utilisation of 0.8, so that the tests of its knees and
// probes size by the square-root rule alone, in figures that can be
// worked out by hand; newObjectiveLaw is the default law.
func newLaw(max int) *law {
	l := newObjectiveLaw(max)
	l.cfg.targetWait, l.cfg.utilization = time.Hour, 0.8
	return l
}

func newObjectiveLaw(max int) *law {
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
// from below (straight at GOMAXPROCS from within twice it) until a step
// down costs throughput, and calls the work CPU-bound once the knee is
// within ceil(1.5 × GOMAXPROCS).
func TestLawKneeFromAStepThatBoughtNothing(t *testing.T) {
	l := newLaw(64)
	ms := time.Millisecond
	decideT(t, l, saturated(0, 4, 6000, 4000, ms), 8, "Little's law asks for 8")
	decideT(t, l, saturated(250*ms, 8, 6000, 4000, 2*ms), 8, "") // one window is not a verdict
	decideT(t, l, saturated(500*ms, 8, 6000, 4000, 2*ms), 4, "knee at 4")
	if l.class != Limited || l.knee != 4 {
		t.Fatalf("class %s, knee %d; want limited at 4 (above ceil(1.5×2))", l.class, l.knee)
	}
	// Within twice GOMAXPROCS the knee is tested straight at GOMAXPROCS.
	decideT(t, l, saturated(750*ms, 4, 6000, 4000, ms), 2, "testing it from below at 2")
	decideT(t, l, saturated(time.Second, 2, 6000, 3950, 500*time.Microsecond), 2, "") // "kept" takes two windows
	decideT(t, l, saturated(1250*ms, 2, 6000, 3990, 500*time.Microsecond), 2, "knee at 2")
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
	l.knee, l.kneeS, l.kneeSAt, l.kneeSeen, l.class = 32, 80*time.Millisecond, 32, true, Limited
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
		if got := l.staff(Observation{}, c.r); got != c.want {
			t.Errorf("staff(%v) at u 0.8 = %d, want %d", c.r, got, c.want)
		}
	}
	l.cfg.utilization = 1
	if got := l.staff(Observation{}, 21); got != 21 {
		t.Errorf("staff(21) at u 1 = %d, want 21", got)
	}
	l.cfg.utilization = 0.5 // β = 2
	if got := l.staff(Observation{}, 16); got != 24 {
		t.Errorf("staff(16) at u 0.5 = %d, want 24", got)
	}
}

// TestLawKneeFromAPartialGain: a step from 16 to 32 against a downstream
// that serves 24 at once buys half a worker per added worker: the knee is
// half way, at 24.
func TestLawKneeFromAPartialGain(t *testing.T) {
	l := newLaw(64)
	ms := time.Millisecond
	// 1500/s × 20ms = 30 busy: ceil(30 + 0.5·√30) = 33, applied at once:
	// nothing suggests a knee yet
	decideT(t, l, saturated(0, 16, 1500, 800, 20*ms), 33, "asks for 33")
	decideT(t, l, saturated(250*ms, 33, 1500, 1200, 26*ms), 33, "")
	d := l.decide(saturated(500*ms, 33, 1500, 1200, 27*ms))
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
	l.setKnee(saturated(0, 2, 0, 0, 0), 2, 500*time.Microsecond, 2)
	decideT(t, l, saturated(250*time.Millisecond, 2, 960, 100, 20*time.Millisecond), 2, "the work changed")
	if l.knee != 0 || l.class != Unknown {
		t.Fatalf("knee %d, class %s after the work changed", l.knee, l.class)
	}
	decideT(t, l, saturated(500*time.Millisecond, 2, 960, 100, 20*time.Millisecond), 22, "asks for 22")
}

// TestLawKneeExpires: after kneeTTL a knee no longer caps growth, and
// growth near it goes in small steps.
func TestLawKneeExpires(t *testing.T) {
	l := newLaw(64)
	ms := time.Millisecond
	l.setKnee(saturated(0, 16, 0, 0, 0), 16, 20*ms, 16)
	l.kneeDown = true
	decideT(t, l, saturated(time.Second, 16, 1200, 800, 20*ms), 16, "pressure at the knee 16")
	decideT(t, l, saturated(kneeTTL+time.Second, 16, 1200, 800, 20*ms), 18, "asks for 27") // 16 + 16/8
}

// TestLawHoldsOnAMomentaryQueue: a queue most tasks did not wait in, with
// Little's law asking for no more workers, is no reason to grow.
func TestLawHoldsOnAMomentaryQueue(t *testing.T) {
	l := newLaw(64)
	l.cfg.targetWait = 100 * time.Millisecond            // the last of the 80 queued starts in 160ms
	o := saturated(0, 10, 300, 300, 20*time.Millisecond) // needs ceil(7.5) = 8
	o.WaitP50, o.Queue = time.Millisecond, 80            // 10 workers drain 50 in a window
	decideT(t, l, o, 10, "asks for only 8")
}

// TestLawHoldsOnABurstItDrains: a queue the size drains within a window,
// the arrivals at their smoothed rate, is no reason to grow, even if the
// tasks in it waited longer than a service time.
func TestLawHoldsOnABurstItDrains(t *testing.T) {
	l := newLaw(64)
	l.cfg.targetWait = 80 * time.Millisecond // shorter than the 50 queued take to start: 100ms
	o := saturated(0, 10, 300, 300, 20*time.Millisecond)
	o.WaitP50 = 40 * time.Millisecond // 10 workers serve 500/s: 200/s spare, 50 a window
	decideT(t, l, o, 10, "drained within a window")
	o.At, o.Queue = o.At.Add(250*time.Millisecond), 51
	decideT(t, l, o, 12, "Little's law asks for 12") // 300/s and 51 in 250ms
	// Refusals are no noise: with the size enough for the arrivals and no
	// backlog, one step, for the next window to judge.
	o.At, o.Queue, o.WaitP50, o.Rejections = o.At.Add(250*time.Millisecond), 5, time.Millisecond, 3
	decideT(t, l, o, 11, "3 refused: one more worker")
}

// TestLawSizesForTheBacklog: a backlog (its typical task waited longer
// than it runs) adds the rate that drains it within a window (the default
// objective, 80ms here, is shorter) to the arrivals; the stabilisation
// window keeps only what the arrivals need, so the pool comes back down
// once the backlog is gone.
func TestLawSizesForTheBacklog(t *testing.T) {
	l := newObjectiveLaw(64)
	ms := time.Millisecond
	o := saturated(0, 4, 400, 200, 20*ms)
	o.Queue, o.WaitP50, o.Busy = 400, 100*ms, 3.5 // not saturated: applied at once
	// (400 + 400/0.25s) × 20ms = 40 busy. Tasks all alike wait half as long
	// as exponential ones (Allen-Cunneen), so the 80ms objective is 8
	// service times: Erlang's C formula has 41 keep 99% within it.
	decideT(t, l, o, 41, "asks for 41")
	// Without the backlog, 8 busy: 9 keep 99% within 8 service times.
	idle := Observation{At: t0.Add(500 * ms), Window: 250 * ms, Size: 41, Busy: 8, Lambda: 400, Throughput: 400,
		Service: 20 * ms, Completions: 100, GOMAXPROCS: 2}
	decideT(t, l, idle, 9, "the largest need over 5s is 9")
}

// TestLawDrainsWithTheArrivalsNeed: a backlog that the arrivals' own need
// drains (its last task starting within the objective at that size, the
// spare workers emptying it within a tick) grows the pool to that need,
// not to the need with the drain's workers added, which a shrink would take
// back a window later. A backlog the need does not drain within the tick
// gets the drain's workers as before.
func TestLawDrainsWithTheArrivalsNeed(t *testing.T) {
	ms := time.Millisecond
	at := func(q int) Observation {
		// 2000/s of 6ms: 12 busy, 14 at the utilisation of 0.8 by the
		// square-root rule (12 + 0.5·√12).
		o := queued(saturated(0, 4, 2000, 667, 6*ms), q, 20*ms)
		return o
	}
	law := func() *law {
		l := newLaw(64)
		l.cfg.targetWait = 50 * ms // 4 workers start the 60th queued in 90ms
		return l
	}
	// 14 start the 60th in 26ms, and their 333 completions a second beyond
	// the arrivals empty the queue in 180ms; (2000 + 60/0.25s) × 6ms with
	// the drain asks for 16.
	decideT(t, law(), at(60), 14, "asks for 14, which drain the queue within the objective")
	// 100 queued: 14 start the last in 43ms but take 300ms to empty the
	// queue: (2000 + 400) × 6ms, 17 with the headroom.
	decideT(t, law(), at(100), 17, "asks for 17")
	// A window of a second, 150 queued: 14 empty the queue within it, but
	// start its last task in 64ms, beyond the objective; with the drain,
	// (2000 + 150/s) × 6ms asks for 15.
	o := at(150)
	o.Window = time.Second
	decideT(t, law(), o, 15, "asks for 15")
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
		l.kneeSeen = true // near a knee found before: growth is cautious
		decideT(t, l, o, 5, "asks for")
		for i := 1; i <= 2; i++ {
			o := saturated(time.Duration(i)*250*ms, 5, 1000, 150, 38*ms)
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
// over the target utilisation, in one step.
func TestLawShrinksToTheNeed(t *testing.T) {
	l := newLaw(64)
	n := 8
	var sizes []int
	for i := 0; i < 8; i++ {
		o := Observation{At: t0.Add(time.Duration(i) * 250 * time.Millisecond), Size: n, Busy: 1.7, Lambda: 100,
			Throughput: 100, Service: 17 * time.Millisecond, GOMAXPROCS: 2}
		n = l.decide(o).to
		sizes = append(sizes, n)
	}
	if want := []int{3, 3, 3, 3, 3, 3, 3, 3}; !equal(sizes, want) {
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

// TestErlang: the fewest workers that keep 99% of the tasks within k
// service times, by Erlang's C formula. Worked by hand: a load of 0.5 on
// one worker has a task wait with chance C = 0.5, and longer than 4 service
// times with 0.5·e^−2 = 6.8%; on two, 0.1·e^−6 = 0.025%. A longer
// objective needs fewer workers, never fewer than the load.
func TestErlang(t *testing.T) {
	if got := erlang(0.5, 4); got != 2 {
		t.Errorf("erlang(0.5, 4) = %d, want 2", got)
	}
	for _, r := range []float64{0.3, 1.7, 6.4, 16.8, 21, 100} {
		prev := math.MaxInt
		for _, k := range []float64{0.5, 1, 2, 4, 8, 100} {
			n := erlang(r, k)
			if float64(n) <= r || n > prev {
				t.Errorf("erlang(%v, %v) = %d: want above the load, and no more than %d for a shorter objective", r, k, n, prev)
			}
			prev = n
		}
	}
	if got := erlang(16.8, 4); got != 18 {
		t.Errorf("erlang(16.8, 4) = %d, want 18", got)
	}
	// A load beyond any size the law sets (an absurd window) ends the
	// search at once rather than counting to it.
	for _, r := range []float64{math.Inf(1), math.NaN(), 1e12} {
		if got := erlang(r, 4); got != maxErlang {
			t.Errorf("erlang(%v, 4) = %d, want %d", r, got, maxErlang)
		}
	}
}

// steadyAt is an observation of a pool of n serving λ tasks a second of
// mean service time s with no backlog, every completion in the window.
func steadyAt(at time.Duration, n int, lambda float64, s time.Duration) Observation {
	busy := lambda * s.Seconds()
	return Observation{At: t0.Add(at), Window: 250 * time.Millisecond, Size: n,
		Arrivals: uint64(lambda / 4), Completions: uint64(lambda / 4), Lambda: lambda, Throughput: lambda,
		Busy: busy, BusyNow: int(busy), Service: s, WaitP50: time.Microsecond, WaitP99: time.Millisecond, GOMAXPROCS: 2}
}

// steadyFrom has l decide a window of steadyAt every quarter second from
// from until to, starting at size n, and returns the size it ends at.
func steadyFrom(l *law, n int, from, to time.Duration, lambda float64, s time.Duration) int {
	for at := from; at < to; at += 250 * time.Millisecond {
		n = l.decide(steadyAt(at, n, lambda, s)).to
	}
	return n
}

// TestLawGrowsForLatency: a queue that Little's law says the size serves
// (most tasks did not wait, the workers are not all busy), but whose p99
// wait broke the objective (four service times by default), grows an
// I/O-bound pool by one worker, for latency. Under an objective set with
// WithTargetWait that the wait keeps, it does not grow; nor where the busy
// workers are as many as the CPUs and the work is not known to be
// I/O-bound: the wait is then for a CPU, which another worker would wait
// for too.
func TestLawGrowsForLatency(t *testing.T) {
	ms := time.Millisecond
	o := steadyAt(0, 8, 300, 20*ms) // 6 busy
	o.Queue, o.WaitP99 = 3, 120*ms
	l := newObjectiveLaw(64)
	l.class = IOBound
	d := decideT(t, l, o, 9, "for latency")
	if d.cause != CauseLatency {
		t.Errorf("cause %q, want %q", d.cause, CauseLatency)
	}
	l = newObjectiveLaw(64)
	l.class, l.cfg.targetWait = IOBound, 200*ms
	if d := l.decide(o); d.to > 8 {
		t.Errorf("within a 200ms objective: grew to %d (%q)", d.to, d.reason)
	}
	if d := newObjectiveLaw(64).decide(o); d.to > 8 {
		t.Errorf("6 busy on 2 CPUs, work not known I/O-bound: grew to %d (%q)", d.to, d.reason)
	}
}

// TestLawRemembersTheLastBurst: load that comes in bursts with lulls
// shorter than the memory (six stabilisation windows) keeps the workers
// the bursts need through the lulls: each burst would otherwise meet a
// pool shrunk to the lull's need, and queue until the next tick grows it.
// Past the memory's span the pool shrinks.
func TestLawRemembersTheLastBurst(t *testing.T) {
	l := newObjectiveLaw(64)
	ms := time.Millisecond
	n, at := 25, time.Duration(0)
	for ; at < 15*time.Second; at += 250 * ms {
		n = l.decide(steadyAt(at, n, 1120, 20*ms)).to // 22.4 busy
	}
	burst := n
	for ; at < 30*time.Second; at += 250 * ms {
		if n = l.decide(steadyAt(at, n, 30, 20*ms)).to; n < burst-1 {
			t.Fatalf("%v into a 15 s lull: %d workers, want the burst's %d", at-15*time.Second, n, burst)
		}
	}
	for ; at < 60*time.Second; at += 250 * ms {
		n = l.decide(steadyAt(at, n, 30, 20*ms)).to
	}
	if n > 3 {
		t.Errorf("after 45 s of lull: %d workers, want the lull's 3 at most", n)
	}
}

// cpuAt is a saturated observation of CPU-bound work on 2 CPUs: 4000
// tasks a second at most, each 0.5ms of CPU, longer in proportion when
// more than 2 workers share the CPUs.
func cpuAt(at time.Duration, n int) Observation {
	s := time.Duration(float64(500*time.Microsecond) * max(1, float64(n)/2))
	x := 4000.0
	if n < 2 {
		x = 2000
	}
	return saturated(at, n, 4800, x, s)
}

// TestLawSettlesOnCPUBoundOverload: CPU-bound work offered at 1.2 times
// what 2 CPUs serve settles at the CPUs: it is never held above ceil(1.5 ×
// GOMAXPROCS), and each test of the knee that finds it where it was
// doubles the time to the next, so that a minute at steady load has at
// most a few size changes, not one test every few seconds.
func TestLawSettlesOnCPUBoundOverload(t *testing.T) {
	l := newObjectiveLaw(64)
	n, changes := 4, 0
	for i := 0; i < 8*60; i++ { // 2 minutes
		at := time.Duration(i) * 250 * time.Millisecond
		to := l.decide(cpuAt(at, n)).to
		if l.class == CPUBound && to > cpuCeiling(cpuAt(at, n)) {
			t.Fatalf("%v: %d workers for work found CPU-bound on 2 CPUs", at, to)
		}
		if to != n && at >= time.Minute {
			changes++
		}
		n = to
	}
	if l.class != CPUBound || changes > 4 {
		t.Errorf("class %s, %d size changes in the second minute; want cpu-bound and at most 4", l.class, changes)
	}
}

// TestLawKeepsANeededKnee: a knee at 24 (a downstream's hidden limit) under
// a load that needs 22 of them at the service time before queueing is not
// tested from below: the step down would queue tasks to test what the load
// needs anyway. Under overload it is, since no size serves that load.
func TestLawKeepsANeededKnee(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		lambda float64
		want   int
		why    string
	}{{1050, 24, "pressure at the knee 24"}, {1500, 21, "testing it from below at 21"}} {
		l := newObjectiveLaw(64)
		l.recent = []sample{{20 * ms, 8, 0}}
		l.knee, l.kneeS, l.kneeSAt, l.kneeSeen, l.class = 24, 20*ms, 24, true, Limited
		l.kneeUntil, l.lambda, l.ticks = t0.Add(5*time.Second), c.lambda, 1
		decideT(t, l, saturated(0, 24, c.lambda, 1100, 21*ms), c.want, c.why)
	}
}

// TestLawKneeServiceComparedAtItsSize: a CPU knee placed at 2 from a step
// whose service time was measured at 4 workers on 2 CPUs (twice as long as
// at 2) is not dropped as a change of work when the tasks run at their own
// speed at 2: that once dropped the knee under an overload and let Little's
// law on a backlog of thousands grow the pool to its ceiling.
func TestLawKneeServiceComparedAtItsSize(t *testing.T) {
	l := newObjectiveLaw(64)
	us := time.Microsecond
	l.setKnee(cpuAt(0, 4), 2, 1200*us, 4)
	l.kneeDown = true
	for i := 1; i <= 20; i++ {
		o := saturated(time.Duration(i)*250*time.Millisecond, 2, 6000, 4000, 450*us)
		o.Queue = 1000 * i
		d := l.decide(o)
		if d.cause == CauseWorkChanged || d.to > cpuCeiling(o) {
			t.Fatalf("tick %d: %d workers (%s: %q), want the knee at 2 kept", i, d.to, d.cause, d.reason)
		}
	}
}

// TestLawStepDownFirstWindowMixesSizes: the first window after stepping
// down from a CPU knee of 4 to 2 completes tasks that ran while 4 shared
// the CPUs, so its mean service time is still long; the counted throughput
// held. That window is no verdict: the next, at the tasks' own speed,
// keeps the throughput, and the knee moves to 2. (Judged on the first, the
// step once read as a loss and left a CPU-bound pool at twice the workers
// it could use.)
func TestLawStepDownFirstWindowMixesSizes(t *testing.T) {
	l := newObjectiveLaw(64)
	us := time.Microsecond
	l.setKnee(cpuAt(0, 4), 4, time.Millisecond, 4)
	decideT(t, l, saturated(250*time.Millisecond, 4, 4800, 4000, time.Millisecond), 2, "testing it from below at 2")
	decideT(t, l, saturated(500*time.Millisecond, 2, 4800, 3980, 900*us), 2, "")
	decideT(t, l, saturated(750*time.Millisecond, 2, 4800, 3990, 500*us), 2, "knee at 2")
}

// TestLawKeepsAWorkerAddedForLatency: at a load the objective's sizing
// serves with one worker, the waits broke the objective and the law added
// a second. At the same load the pool keeps it past the stabilisation
// window, where it used to give it back and break the objective again,
// once a window and a half; at half the load it shrinks.
func TestLawKeepsAWorkerAddedForLatency(t *testing.T) {
	ms := time.Millisecond
	l := newObjectiveLaw(64)
	l.class = IOBound // a wait for latency is not a wait for a CPU
	o := steadyAt(0, 1, 1000, 600*time.Microsecond)
	o.Queue, o.WaitP99 = 5, 16*ms
	decideT(t, l, o, 2, "for latency")
	n := 2
	at := 250 * ms
	for ; at < 10*time.Second; at += 250 * ms {
		o := steadyAt(at, n, 1000, 600*time.Microsecond)
		if n = l.decide(o).to; n != 2 {
			t.Fatalf("at %v, the same load: size %d, want the 2 latency asked for", at, n)
		}
	}
	for ; at < 20*time.Second && n == 2; at += 250 * ms {
		n = l.decide(steadyAt(at, n, 500, 600*time.Microsecond)).to
	}
	if n != 1 {
		t.Fatalf("at half the load for 10 s: size %d, want 1", n)
	}
}

// TestLawForgetsLatencyRightAfterAGrowth: a window within the
// stabilisation window of a growth still shows the waits of the backlog
// that growth drained; a worker added for latency then stands for the
// window, and is not kept after it.
func TestLawForgetsLatencyRightAfterAGrowth(t *testing.T) {
	ms := time.Millisecond
	l := newObjectiveLaw(64)
	l.class = IOBound
	l.grewAt = t0.Add(-time.Second)
	o := steadyAt(0, 1, 1000, 600*time.Microsecond)
	o.Queue, o.WaitP99 = 5, 16*ms
	decideT(t, l, o, 2, "for latency")
	n := 2
	for at := 250 * ms; at < 10*time.Second && n == 2; at += 250 * ms {
		n = l.decide(steadyAt(at, n, 1000, 600*time.Microsecond)).to
	}
	if n != 1 {
		t.Fatalf("the same load for 10 s after a latency step taken right after a growth: size %d, want 1", n)
	}
}

// TestLawShrinkBand: a need within a tenth of the size is noise the pool
// holds through; one below it is shrunk to at once.
func TestLawShrinkBand(t *testing.T) {
	ms := time.Millisecond
	at := func(busy float64) Observation {
		return Observation{At: t0, Window: 250 * ms, Size: 40, Busy: busy, Lambda: busy / 0.03, Throughput: busy / 0.03,
			Service: 30 * ms, Completions: 100, GOMAXPROCS: 2}
	}
	// The busy workers whose need, fresh, is want.
	busyFor := func(want int) float64 {
		for b := 1.0; b < 40; b += 0.01 {
			if newLaw(64).staff(at(b), b) == want {
				return b
			}
		}
		t.Fatalf("no busy count needs %d", want)
		return 0
	}
	if d := newLaw(64).decide(at(busyFor(37))); d.to != 40 {
		t.Errorf("need 37 at 40: to %d (%q), want a hold", d.to, d.reason)
	}
	if d := newLaw(64).decide(at(busyFor(36))); d.to != 36 {
		t.Errorf("need 36 at 40: to %d (%q), want 36", d.to, d.reason)
	}
}

// decideEarly is l's decision on o in a tick a backlog brought forward
// (Controller.Run's early tick).
func decideEarly(l *law, o Observation) decision {
	l.early = true
	defer func() { l.early = false }()
	return l.decide(o)
}

// TestLawEarlyTick: a tick a backlog brought forward reads the workers busy
// at its end as busy through its short window, where the few tasks that
// ended say little (heavy-tailed work: short ones end first); and that
// window's mean service time is not taken for the least the work takes, or
// the next growth would be capped as if past a knee.
func TestLawEarlyTick(t *testing.T) {
	ms := time.Millisecond
	l := newLaw(64)
	// 4 workers busy, 22 queued, 4 short tasks ended in 31ms.
	o := Observation{At: t0.Add(31 * ms), Window: 31 * ms, Size: 4, Busy: 2.05, BusyNow: 4, Queue: 22,
		Arrivals: 30, Completions: 4, Lambda: 960, Throughput: 128, Service: 8 * ms, WaitP50: ms, WaitP99: 30 * ms, GOMAXPROCS: 2}
	d := decideEarly(l, o)
	if d.to <= 4 {
		t.Fatalf("early tick, every worker busy with a queue: to %d (%q), want growth", d.to, d.reason)
	}
	// The next full window: the tasks take 30ms; Little's law asks for
	// 960/s × 30ms = 29 and more for the backlog, at once.
	n := d.to
	o = saturated(281*ms, n, 960, float64(n)/0.03, 30*ms)
	o.Queue, o.WaitP50 = 200, 100*ms
	if d := l.decide(o); d.to <= 2*n {
		t.Errorf("after an early window of short tasks: %d -> %d (%q), want Little's law's need, past double", n, d.to, d.reason)
	}
}

// TestLawEarlyTickPlacesNoKnee: an early window of I/O tasks in a process
// whose other goroutines keep the CPUs busy reads, over its few
// milliseconds, like CPU-bound work on saturated CPUs (every worker busy,
// the CPUs in use, few goroutines seen waiting). A knee placed from it
// would cap the pool at GOMAXPROCS for cpuHold: none is.
func TestLawEarlyTickPlacesNoKnee(t *testing.T) {
	ms := time.Millisecond
	o := Observation{At: t0.Add(31 * ms), Window: 31 * ms, Size: 4, Busy: 1.5, BusyNow: 4, Queue: 40,
		Arrivals: 25, Completions: 3, Lambda: 800, Throughput: 96, Service: 20 * ms, WaitP50: ms, WaitP99: 20 * ms,
		GOMAXPROCS: 2, CPU: 2, Runnable: 1.5}
	l := newLaw(64)
	d := decideEarly(l, o)
	if l.knee != 0 || d.cause == CauseKnee {
		t.Errorf("early window: knee %d, decision %d (%s: %q); want no knee", l.knee, d.to, d.cause, d.reason)
	}
	if d.to <= 4 {
		t.Errorf("early window with every worker busy and 40 queued: to %d (%q), want growth", d.to, d.reason)
	}
}

// TestLawGrowBand: a need at most a tenth above the size, with the waits
// within the objective, is the size give or take a window's noise: it
// holds, where growing would walk the pool up and, a stabilisation window
// later, down again (heavy-tailed service times at a steady load). A need
// beyond the tenth grows to it; so does any need above a pool below ten
// workers, and one whose p99 wait broke the objective.
func TestLawGrowBand(t *testing.T) {
	ms := time.Millisecond
	at := func(n int, lambda float64) Observation { return saturated(0, n, lambda, lambda, 30*ms) }
	lambdaFor := func(mk func() *law, n, want int) float64 {
		for lambda := 1.0; lambda < 5000; lambda += 0.25 {
			l, o := mk(), at(n, lambda)
			l.decide(o)
			if _, need := l.estimate(o); need == want { // as the decision saw it
				return lambda
			}
		}
		t.Fatalf("no arrival rate needs %d at %d", want, n)
		return 0
	}
	quiet := func() *law { // waits within its objective, a queue it does not keep (AUTO-17)
		l := newLaw(64)
		l.cfg.targetWait = 20 * ms // the 50 queued behind 40 workers start within 38ms
		return l
	}
	if d := quiet().decide(at(40, lambdaFor(quiet, 40, 44))); d.to != 40 || d.cause != CauseHoldBurst {
		t.Errorf("need 44 at 40: to %d (%s: %q), want a hold", d.to, d.cause, d.reason)
	}
	if d := quiet().decide(at(40, lambdaFor(quiet, 40, 45))); d.to != 45 {
		t.Errorf("need 45 at 40: to %d (%q), want 45", d.to, d.reason)
	}
	if d := quiet().decide(at(8, lambdaFor(quiet, 8, 9))); d.to != 9 {
		t.Errorf("need 9 at 8: to %d (%q), want 9", d.to, d.reason)
	}
	late := func() *law { // saturated's p99 wait, 20 service times, breaks its objective
		l := newObjectiveLaw(64)
		l.class = IOBound // late counts for work not bound by the CPUs
		return l
	}
	if d := late().decide(at(40, lambdaFor(late, 40, 42))); d.to != 42 {
		t.Errorf("need 42 at 40 with the p99 wait above the objective: to %d (%q), want 42", d.to, d.reason)
	}
}

// heavyTailed is a law that has sized a pool of 35 through 3 s of calls
// of a mean 32ms and a spread of 42ms (lognormal-like, cs² 1.7) at
// 1000/s: 32 busy, no queue.
func heavyTailed() *law {
	l := newObjectiveLaw(64)
	l.class = IOBound
	for at := time.Duration(0); at < 3*time.Second; at += 250 * time.Millisecond {
		o := steadyAt(at, 35, 1000, 32*time.Millisecond)
		o.ServiceSD = 42 * time.Millisecond
		l.decide(o)
	}
	return l
}

// queuedAt is a window of heavyTailed's load with q tasks queued behind
// all 35 workers busy: mean service time s, arrivals a (1000/s brings in
// 250), the median task waiting wait and the p99 within the objective
// (four times 32ms).
func queuedAt(s time.Duration, a uint64, q int, wait time.Duration) Observation {
	o := steadyAt(3*time.Second, 35, 1000, s)
	o.ServiceSD, o.Completions = 48*time.Millisecond, 240
	o.Arrivals, o.Lambda = a, float64(4*a)
	o.Busy, o.BusyNow, o.Queue, o.WaitP50, o.WaitP99 = 35, 35, q, wait, 100*time.Millisecond
	return o
}

// TestLawSizesBeyondTheSpreadOnly: a window's mean service time and
// arrivals are its own only beyond their sampling spread, three standard
// errors in a regular window, from what the windows before it bring in:
// within it, a cluster of long calls (37ms against 32, within three
// standard errors of 240 completions spread 48ms) or a few arrivals more
// (290 where 1000/s brings in 250: 2.5 of the Poisson spread's 16) at a
// steady load sizes with the recent windows' mean and the smoothed rate,
// and holds; sized from the window's own, it would grow past a tenth and
// shrink a stabilisation window later. Beyond the spread (a 50ms mean; 320
// arrivals), the window's own figures are the news, and the pool grows.
func TestLawSizesBeyondTheSpreadOnly(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name string
		o    Observation
		grow bool
	}{
		{"a mean of 37ms", queuedAt(37*ms, 250, 20, 5*ms), false},
		{"290 arrivals", queuedAt(32*ms, 290, 20, 5*ms), false},
		{"a mean of 50ms", queuedAt(50*ms, 250, 20, 5*ms), true},
		{"320 arrivals", queuedAt(32*ms, 320, 20, 5*ms), true},
	} {
		d := heavyTailed().decide(c.o)
		if grew := d.to > 35; grew != c.grow {
			t.Errorf("%s at 35 workers: to %d (%q), want growth %v", c.name, d.to, d.reason, c.grow)
		}
	}
}

// TestLawKeepsTheObjectivesQueue: a queue whose last task starts within
// the objective at the current size (60 behind 35 workers of 32ms calls:
// 55ms, of an objective of 128ms), with the arrivals needing no more than
// the size, is the queue the objective's sizing leaves now and then at this
// load, not a backlog: no workers are added to drain it, though its median
// task waited longer than a call. A queue the size cannot start within the
// objective (160: 146ms) is drained. Where the arrivals need more than
// the size (a step to 1400/s), the pool grows to their need, without the
// drain that would treat the queue as a backlog.
func TestLawKeepsTheObjectivesQueue(t *testing.T) {
	ms := time.Millisecond
	if d := heavyTailed().decide(queuedAt(32*ms, 250, 60, 40*ms)); d.to != 35 || d.cause != CauseHoldBurst {
		t.Errorf("60 queued at 35: to %d (%s: %q), want a hold", d.to, d.cause, d.reason)
	}
	l := heavyTailed()
	o := queuedAt(32*ms, 350, 60, 40*ms)
	d := l.decide(o)
	steady, need := l.estimate(o) // as the decision saw them
	if need <= steady {
		t.Fatalf("60 queued at 1400/s: need %d, steady %d; want the drain to add workers", need, steady)
	}
	if d.to != steady {
		t.Errorf("60 queued at 35, 1400/s: to %d (%q), want the arrivals' need %d, not %d with the drain", d.to, d.reason, steady, need)
	}
	if d := heavyTailed().decide(queuedAt(32*ms, 250, 160, 80*ms)); d.to <= 38 {
		t.Errorf("160 queued at 35: to %d (%q), want growth to drain them", d.to, d.reason)
	}
}

// TestLawMemoryKeepsSustainedRates: a pool woken early by its first
// backlog reads the arrival rate from a few dozen tasks, here 1300/s for a
// load that runs at 1050/s. The growth it makes is the window's to make,
// but the memory keeps only rates smoothed over full windows: once the
// stabilisation window has passed, the pool comes down to what 1050/s
// needs instead of holding the early peak for the memory's whole span
// (which, with a service time of 20ms, is 26 workers).
func TestLawMemoryKeepsSustainedRates(t *testing.T) {
	ms := time.Millisecond
	l := newObjectiveLaw(64)
	o := Observation{At: t0.Add(31 * ms), Window: 31 * ms, Size: 4, Busy: 4, BusyNow: 4, Queue: 32,
		Arrivals: 40, Completions: 4, Lambda: 1300, Throughput: 128, Service: 20 * ms, WaitP50: ms, WaitP99: 30 * ms, GOMAXPROCS: 2}
	n := decideEarly(l, o).to
	if n < 26 {
		t.Fatalf("early window at 1300/s: to %d, want the growth to 26 or more", n)
	}
	if n = steadyFrom(l, n, 281*ms, 12*time.Second, 1050, 20*ms); n > 24 {
		t.Errorf("12 s at 1050/s after an early window at 1300/s: %d workers, want 24 at most (21 busy)", n)
	}
}

// TestLawDrainIsNotANeed: a pool held at its ceiling through a backlog's
// drain (the queue's typical task waited longer than it ran) records, for
// the stabilisation window, what the arrivals need, not the size: once the
// backlog is gone, it comes down within a second rather than after the
// window.
func TestLawDrainIsNotANeed(t *testing.T) {
	ms := time.Millisecond
	l := newObjectiveLaw(33)
	n, at := 33, time.Duration(0)
	for ; at < 3*time.Second; at += 250 * ms {
		if d := l.decide(queued(saturated(at, n, 600, 1600, 20*ms), 2000, time.Second)); d.to != 33 {
			t.Fatalf("%v into the drain: %d -> %d (%q), want a hold at the ceiling", at, n, d.to, d.reason)
		}
	}
	if n = steadyFrom(l, n, at, at+time.Second, 600, 20*ms); n > 20 {
		t.Errorf("a second after the drain at 600/s (12 busy): %d workers, want 20 at most", n)
	}
}

// TestLawEarlyGrowthExtendsTheStep: a growth from a full saturated window
// (44 -> 60) is a step whose next windows judge it; a growth in a tick
// brought forward by a backlog before that verdict (60 -> 64) extends the
// step instead of dropping it. The throughput stays at the downstream's
// 400/s while the service time rises with the workers: the verdict is a
// knee, below 64, where with the step dropped the pool stayed at the
// ceiling.
func TestLawEarlyGrowthExtendsTheStep(t *testing.T) {
	ms := time.Millisecond
	l := newObjectiveLaw(64)
	n := l.decide(saturated(0, 44, 480, 392, 112*ms)).to
	if n <= 44 || n >= 64 {
		t.Fatalf("saturated at 44 with 480/s arriving: to %d, want a step below the ceiling", n)
	}
	o := queued(saturated(281*ms, n, 600, 400, 150*ms), 400, 300*ms)
	o.Window = 31 * ms
	if n = decideEarly(l, o).to; n != 64 {
		t.Fatalf("early window, saturated: to %d, want 64", n)
	}
	var d decision
	for at := 531 * ms; at < 2*time.Second && d.cause != CauseKnee; at += 250 * ms {
		d = l.decide(queued(saturated(at, n, 600, 400, 160*ms), 600, 400*ms))
		n = d.to
	}
	if d.cause != CauseKnee || n >= 64 || !strings.Contains(d.reason, "growing 44→64") {
		t.Errorf("two windows at 64 serving what 44 did, the service time up: %d (%s: %q), want the step 44→64 judged a knee below 64", n, d.cause, d.reason)
	}
}

// TestLawOtherWork: a pool whose tasks took 0.5ms for eight seconds (2,400
// a second: one and a bit busy) meets tasks of 20ms (1,000 a second: 20
// busy) in a tick a backlog of them brought forward. Two workers cannot lengthen a
// task fortyfold by sharing a bottleneck, so the work changed: the pool
// grows at once to what Little's law asks for, not by doubling steps as if
// past a knee; and once the backlog is drained it comes down to what the new
// work needs, neither held by the old arrival rate at the new service time
// (the memory) nor by the smoothing's trail of it.
func TestLawOtherWork(t *testing.T) {
	ms := time.Millisecond
	l := newObjectiveLaw(64)
	n := steadyFrom(l, 4, 0, 8*time.Second, 2400, ms/2)
	o := Observation{At: t0.Add(8*time.Second + 31*ms), Window: 31 * ms, Size: n, Busy: float64(n), BusyNow: n,
		Queue: 120, Arrivals: 31, Completions: 4, Lambda: 1000, Throughput: 128, Service: 20 * ms,
		WaitP50: 25 * ms, WaitP99: 30 * ms, GOMAXPROCS: 2}
	d := decideEarly(l, o)
	if d.to < 20 || !strings.Contains(d.reason, "work changed") {
		t.Fatalf("at %d, tasks of 20ms where they took 0.5ms: to %d (%q), want 20 or more at once, the work changed", n, d.to, d.reason)
	}
	// The next window drains the backlog: the workers were busier than
	// the arrivals keep them.
	o = steadyAt(8*time.Second+281*ms, d.to, 1000, 20*ms)
	o.Busy, o.Completions, o.Throughput = 36, 370, 1480
	n = l.decide(o).to
	if n = steadyFrom(l, n, 8*time.Second+531*ms, 9*time.Second, 1000, 20*ms); n > 26 {
		t.Errorf("0.7 s at 1000/s of 20ms tasks after growing to %d: %d workers, want 26 at most (20 busy)", d.to, n)
	}
}

// TestLawOtherWorkFalls: a pool serving 1,000 calls a second of 20ms meets
// tasks of 0.5ms (2,400 a second: one and a bit busy). No step down from a
// knee shortens a task fortyfold: the work changed, and the old work's busy
// workers, which the smoothing would trail for a dozen windows, are not
// recorded a tick at a time: the pool keeps its size for the stabilisation
// window and then comes down in one or two steps, not a worker or two a
// tick.
func TestLawOtherWorkFalls(t *testing.T) {
	ms := time.Millisecond
	l := newObjectiveLaw(64)
	n := steadyFrom(l, 24, 0, 8*time.Second, 1000, 20*ms)
	var sizes []int
	for at := 8 * time.Second; at < 20*time.Second; at += 250 * ms {
		d := l.decide(steadyAt(at, n, 2400, ms/2))
		if d.to != n {
			sizes = append(sizes, d.to)
		}
		n = d.to
	}
	if len(sizes) > 2 || n > 4 {
		t.Errorf("12 s of 0.5ms tasks after 20ms ones: sizes %v, want two changes at most, to 4 or fewer", sizes)
	}
}

// TestLawEarlyWindowShorterThanTheTasks: a pool that has seen its tasks
// end (20ms calls) meets a backlog in a tick brought forward, in whose 31ms
// no task ended: the calls now take longer (a downstream slowed). That is
// not a cold start: the law holds for the next window to say how long they
// take, where a guess from the queue would grow the pool to its ceiling.
// A pool that never saw a task end still guesses.
func TestLawEarlyWindowShorterThanTheTasks(t *testing.T) {
	ms := time.Millisecond
	o := Observation{At: t0.Add(4*time.Second + 31*ms), Window: 31 * ms, Size: 28, Busy: 28, BusyNow: 28,
		Queue: 36, Arrivals: 19, Lambda: 600, WaitP50: 40 * ms, WaitP99: 60 * ms, GOMAXPROCS: 2}
	l := newObjectiveLaw(64)
	steadyFrom(l, 28, 0, 4*time.Second, 600, 20*ms)
	if d := decideEarly(l, o); d.to != 28 || !strings.Contains(d.reason, "no task ended") {
		t.Errorf("early window with no task ended, tasks seen before: to %d (%q), want a hold at 28", d.to, d.reason)
	}
	l = newObjectiveLaw(64)
	o.At = t0.Add(31 * ms)
	if d := decideEarly(l, o); d.to <= 28 {
		t.Errorf("early window at the start, no task ever ended: to %d (%q), want a guess above 28", d.to, d.reason)
	}
}

// TestLawNoLatencyWorkerForADrainedBacklog: a growth from 13 to 38 drained
// a backlog of 20 ms calls arriving at 800 a second (19 busy); the window
// after it still shows the backlog's waits, p99 268 ms against an
// objective of about 96, with a few tasks queued. Those waits are the
// drain's, not a shortfall of workers: the law holds, and shrinks to what
// the arrivals need within a second. A worker for latency there (39) stood
// for the stabilisation window and held the drain's workers with it, five
// seconds of 38 where about 21 do.
func TestLawNoLatencyWorkerForADrainedBacklog(t *testing.T) {
	ms := time.Millisecond
	l := newObjectiveLaw(64)
	l.class = IOBound
	s := 24 * ms
	steadyFrom(l, 20, 0, time.Second, 800, s)
	l.grewAt = t0.Add(time.Second)
	o := steadyAt(1250*ms, 38, 800, s)
	o.Queue, o.WaitP50, o.WaitP99 = 16, 2*ms, 268*ms
	decideT(t, l, o, 38, "drained by the growth")
	n := 38
	at := 1500 * ms
	for ; at < 2500*ms && n == 38; at += 250 * ms {
		n = l.decide(steadyAt(at, n, 800, s)).to
	}
	if n >= 25 {
		t.Fatalf("a second after the drain: %d workers, want what 19 busy need (about 21)", n)
	}
}

// TestLawEarlyLeapIsJudged: a pool of 15 at 480 calls a second of 20ms
// (its need about 12) meets a burst of ten times that in a tick a backlog
// brought forward, and leaps to its ceiling of 64 with no step under way. The downstream serves
// 32 at once: at 64 the throughput is 32 workers' worth and the calls take
// twice as long. The leap is judged against what the size before it serves
// saturated (its workers over 20ms), and the pool comes back to the knee at 32, where without a
// verdict it would hold the ceiling under the queue's pressure.
func TestLawEarlyLeapIsJudged(t *testing.T) {
	ms := time.Millisecond
	l := newObjectiveLaw(64)
	n := steadyFrom(l, 15, 0, 4*time.Second, 480, 20*ms)
	if n < 10 || n > 15 {
		t.Fatalf("480/s of 20ms from 15: %d after 4s, want 10-15", n)
	}
	o := queued(saturated(4*time.Second+31*ms, n, 4800, 576, 20*ms), 160, 20*ms)
	o.Window = 31 * ms
	if n = decideEarly(l, o).to; n != 64 {
		t.Fatalf("early window with 4800/s arriving: to %d, want the ceiling 64", n)
	}
	var d decision
	for at := 4*time.Second + 281*ms; at < 5*time.Second && d.cause != CauseKnee; at += 250 * ms {
		d = l.decide(queued(saturated(at, 64, 1000, 1600, 40*ms), 800, 300*ms))
	}
	if d.cause != CauseKnee || d.to != 32 {
		t.Errorf("at 64 serving 1600/s of calls taking 40ms: %d (%s: %q), want the leap judged, knee at 32", d.to, d.cause, d.reason)
	}
}

// TestLawNoKneeFromSlowerWork: a downstream whose calls slow fourfold, 20ms
// to 80ms, meets a pool of 14 at 600 calls a second; a tick the backlog
// brings forward grows it. At the new size the throughput falls to the
// downstream's 400/s and the service time rises fourfold: not a knee, where
// the bottleneck serves what it did before the step, but slower work. A
// knee placed from it (400/s × 20ms: 8) would cap the pool below what the
// slower calls need.
func TestLawNoKneeFromSlowerWork(t *testing.T) {
	ms := time.Millisecond
	l := newObjectiveLaw(64)
	n := steadyFrom(l, 14, 0, 4*time.Second, 600, 20*ms)
	o := queued(saturated(4*time.Second+31*ms, n, 600, 400, 80*ms), 40, 60*ms)
	o.Window = 31 * ms
	if n = decideEarly(l, o).to; n <= 14 {
		t.Fatalf("early window of slower calls: to %d, want growth", n)
	}
	for at := 4*time.Second + 281*ms; at < 6*time.Second; at += 250 * ms {
		d := l.decide(queued(saturated(at, n, 600, 400, 80*ms), 400, 300*ms))
		if d.cause == CauseKnee || l.knee != 0 {
			t.Fatalf("at %d serving 400/s of calls that slowed 20ms→80ms: %d (%s: %q), knee %d; want no knee", n, d.to, d.cause, d.reason, l.knee)
		}
		n = d.to
	}
}
