package autoscale

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Class is what the controller has learned about the work.
type Class string

// The classes of work. They are conclusions drawn from the pool's own
// tasks only: what an added worker bought, and how the tasks' service time
// moved with the number running. Load elsewhere in the process (other
// goroutines keeping the CPUs busy) makes every task a little slower, but
// does not make an added worker buy nothing, so it never makes work look
// CPU-bound.
const (
	Unknown Class = "unknown"
	// CPUBound: a knee at or below ceil(1.5 × GOMAXPROCS): past it, added
	// workers bought no throughput and the service time grew with them.
	CPUBound Class = "cpu-bound"
	// Limited: a knee above that: something the tasks wait on (a
	// downstream, a connection pool) serves only so many at once.
	Limited Class = "limited"
	// IOBound: workers added beyond GOMAXPROCS kept paying.
	IOBound Class = "io-bound"
)

const (
	// gainPaid: a growth step whose added workers each bought this share
	// of an existing worker's throughput paid, judged after one window;
	// one that bought less is judged over two, and found a knee if the
	// tasks' service time rose by a tenth or more meanwhile.
	gainPaid = 0.75
	// gainIO: a step beyond GOMAXPROCS that bought this much says the work
	// is I/O-bound.
	gainIO = 0.5
	// holdShare: a step down that kept this share of the throughput did
	// not cut into the capacity.
	holdShare = 0.95
	// kneeTTL is how long a knee caps growth before a small step tests it
	// again: the bottleneck may have moved.
	kneeTTL = 5 * time.Second
	// workChanged: a mean service time this many times above or below the
	// one the knee was found at means the work is no longer what the knee
	// was measured on.
	workChanged = 2.5
	// shrinkStep is the largest fraction of N removed per tick.
	shrinkStep = 0.2
	// smoothing is the EWMA weight of the newest busy reading: shrinking
	// acts on a smoothed need, so that one quiet window removes no
	// workers.
	smoothing = 0.3
	// recentWindows is how many windows' service times base looks back
	// on.
	recentWindows = 8
	// drainWindows: growth sizes for a backlog to drain within this many
	// windows, besides the arrivals.
	drainWindows = 4
	// paidWindows is the most windows a growth step that seems to pay is
	// watched for before chance is ruled out.
	paidWindows = 3
	// baseSpread: a service time this many times the least of the recent
	// windows is not the same work queueing a little more.
	baseSpread = 1.5
)

// Cause is the kind of a decision: a small set, fit to count decisions by
// (Stats.Decisions) and to label a metric with, where a Decision's Reason
// is a sentence with its figures.
type Cause string

// The causes of decisions.
const (
	// CauseGrow: pressure, and the law grew the pool.
	CauseGrow Cause = "grow"
	// CauseShrink: under-use, and the law shrank the pool.
	CauseShrink Cause = "shrink"
	// CauseKnee: a probe's verdict placed, moved or confirmed a knee, or a
	// step down tests one.
	CauseKnee Cause = "knee"
	// CauseBound: the size was outside the bounds (WithMin, WithMax, a
	// knee's cap) and was brought within them.
	CauseBound Cause = "bound"
	// CauseWorkChanged: the service time moved far from the one a knee
	// was found at, and the knee was dropped.
	CauseWorkChanged Cause = "work_changed"
	// CauseHoldBurst: a queue the size absorbs (a momentary queue, a
	// burst drained within a window): no growth.
	CauseHoldBurst Cause = "hold_burst"
	// CauseHoldLimit: pressure, but a limit stops growth: a knee, the
	// ceiling, the memory limit.
	CauseHoldLimit Cause = "hold_limit"
	// CauseSteady: nothing to do.
	CauseSteady Cause = "steady"
	// CauseFailing: the tasks' failure rate (WithFailures) rose with the
	// number of workers, or may have: the law stepped down.
	CauseFailing Cause = "failing"
)

// Causes lists every Cause, in a fixed order.
var Causes = []Cause{CauseGrow, CauseShrink, CauseKnee, CauseBound, CauseWorkChanged, CauseHoldBurst, CauseHoldLimit, CauseSteady, CauseFailing}

// law is the control law and the state it keeps between ticks. Not safe
// for concurrent use.
//
// It sizes the pool from Little's law, N = staff(λ·S), and guards that estimate
// with experiments. Every growth under pressure is a probe: the window
// after it says whether the added workers bought throughput. When they
// bought almost none and the tasks' service time rose with their number,
// the pool has passed a knee (the CPUs, or a downstream's hidden limit):
// the law goes back to the size before the step and caps growth there.
// Because service time counted from inside the pool includes waiting on
// whatever is saturated, Little's law with the current service time keeps
// asking for more workers past a knee; the probe is what stops it. A knee
// is then tested from below once (a step down that keeps the throughput
// moves the knee down), from above every kneeTTL, and dropped at once when
// the service time says the work has changed.
type law struct {
	cfg config

	class     Class
	knee      int           // the size past which added workers bought nothing; 0: none
	kneeUntil time.Time     // the knee caps growth until then
	kneeS     time.Duration // the mean service time the knee was found at
	kneeDown  bool          // the knee was tested from below
	kneeSeen  bool          // a knee was found since the work last changed: probes up are small

	probe *probe // a step waiting to be judged
	note  string // a verdict reached this tick, put before the reason
	cause Cause  // this tick's, when a path sets it; else done infers it

	failAt    map[int]failRec // recent failures by size (failures.go)
	failCap   int             // a size past which failures grew with the workers; 0: none
	failUntil time.Time       // failCap caps growth until then

	recs   []rec           // size recommendations, for the stabilisation window
	recent []time.Duration // the mean service time of the last windows with completions, newest last
	grewAt time.Time       // the last growth under pressure
	busy   float64         // busy workers, smoothed over ticks (EWMA)
	lambda float64         // arrivals per second, smoothed likewise
	ticks  int
}

type probe struct {
	from, to int
	x0       float64       // throughput at from, in a saturated window
	s0       time.Duration // mean service time at from
	sBase    time.Duration // the service time before queueing for a bottleneck inflated it (see base)
	noise0   float64       // the relative standard error of s0: (SD/mean)²/completions
	n        uint64        // completions summed at to
	sd       time.Duration // summed service-time spread at to
	windows  int           // windows seen at to
	ramp     int           // windows at to skipped as a ramp
	x        float64       // summed throughput at to
	s        time.Duration // summed service time at to
}

// gain is what each worker a growth step added bought, at throughput x,
// as a share of what a worker bought before it.
func (p *probe) gain(x float64) float64 {
	return (x - p.x0) / float64(p.to-p.from) / (p.x0 / float64(p.from))
}

// rose reports whether the mean service time at to, s, is above the one
// before the step by a tenth or more and by more than chance allows: three
// standard errors of the difference of the two means (heavy-tailed tasks
// make one window's mean stray far). Before the step is the least of s0
// and sBase, so that a climb in small steps, each within chance, is seen
// as a whole.
func (p *probe) rose(s time.Duration) bool {
	if p.windows == 0 || p.n == 0 || s <= 0 {
		return false
	}
	sd := float64(p.sd) / float64(p.windows)
	noise := p.noise0 + sd*sd/(float64(s)*float64(s))/float64(p.n)
	return float64(s) >= float64(min(p.s0, p.sBase))*max(1.1, 1+3*math.Sqrt(noise))
}

// above reports whether the mean throughput at to, x over windows of
// length w, is above x0 by more than two standard errors, counting
// completions as Poisson.
func (p *probe) above(x float64, w time.Duration) bool {
	secs := w.Seconds()
	if secs <= 0 {
		return true
	}
	c0 := p.x0 * secs
	v := c0/(secs*secs) + float64(p.n)/(float64(p.windows)*secs*float64(p.windows)*secs)
	return x-p.x0 > 2*math.Sqrt(v)
}

// newProbe starts a probe of a step from o's size to to.
func (l *law) newProbe(o Observation, to int) *probe {
	p := &probe{from: o.Size, to: to, x0: o.Throughput, s0: o.Service, sBase: l.base(o.Service), noise0: math.Inf(1)}
	if o.Service > 0 && o.Completions > 0 {
		cv := float64(o.ServiceSD) / float64(o.Service)
		p.noise0 = cv * cv / float64(o.Completions)
	}
	return p
}

type rec struct {
	at time.Time
	n  int
}

// bounds returns the sizes the law may choose from in this observation.
func (l *law) bounds(o Observation) (lo, hi int) {
	hi = l.ceiling(o)
	if l.capped(o) {
		hi = min(hi, l.knee)
	}
	if l.failCapped(o) {
		hi = min(hi, l.failCap)
	}
	lo = l.cfg.min
	return lo, max(lo, hi)
}

// ceiling is the largest size the options allow: WithMax, or 32 ×
// GOMAXPROCS.
func (l *law) ceiling(o Observation) int {
	if l.cfg.max == 0 {
		// New refused a min above this; GOMAXPROCS may fall since.
		return max(l.cfg.min, defaultCeiling(o.GOMAXPROCS))
	}
	return l.cfg.max
}

// defaultCeiling is the I/O-bound ceiling without WithMax.
func defaultCeiling(gomaxprocs int) int { return 32 * max(1, gomaxprocs) }

// capped reports whether a knee caps growth now.
func (l *law) capped(o Observation) bool { return l.knee > 0 && !o.At.After(l.kneeUntil) }

// cpuCeiling is the most workers CPU-bound work can use.
func cpuCeiling(o Observation) int { return int(math.Ceil(1.5 * float64(max(1, o.GOMAXPROCS)))) }

// decide returns the size for the next window and why ("" when it holds
// for no reason worth a log line).
func (l *law) decide(o Observation) (int, string) {
	l.ticks++
	l.note, l.cause = "", ""
	if l.ticks == 1 {
		l.busy, l.lambda = o.Busy, o.Lambda
	} else {
		l.busy = smoothing*o.Busy + (1-smoothing)*l.busy
		l.lambda = smoothing*o.Lambda + (1-smoothing)*l.lambda
	}
	if o.Service > 0 && o.Completions > 0 {
		l.recent = append(l.recent, o.Service)
		if len(l.recent) > recentWindows {
			l.recent = l.recent[1:]
		}
	}
	n := o.Size
	if why := l.expire(o); why != "" {
		l.cause = CauseWorkChanged
		return l.done(o, n, why)
	}
	if to, why, ok := l.judge(o); ok {
		if why != "" {
			l.cause = CauseKnee
		}
		return l.done(o, to, why)
	}
	lo, _ := l.bounds(o)
	if to, why, ok := l.failing(o, lo); ok {
		l.cause = CauseFailing
		l.probe = nil
		return l.done(o, to, why)
	}
	lo, hi := l.bounds(o)
	switch {
	case n > hi || n < lo:
		l.cause = CauseBound
	}
	switch {
	case n > hi:
		return l.done(o, hi, fmt.Sprintf("above the ceiling %d", hi))
	case n < lo:
		return l.done(o, lo, fmt.Sprintf("below the floor %d", lo))
	}
	u := o.Utilization()
	// Little's law on the current mean service time: the workers the
	// arrivals keep busy, at the target utilisation.
	// Unless the window is saturated (a real backlog), on the smoothed
	// arrival rate: a few tasks more in one window is Poisson noise.
	lambda := o.Lambda
	if !o.Saturated() {
		lambda = l.lambda
	}
	steady := l.need(lambda, o.Service)
	// A backlog is drained within drainWindows windows: it adds its share
	// to the arrivals, for as long as it lasts.
	need := steady
	if backlogged(o) && o.Window > 0 {
		need = l.need(lambda+float64(o.Waiting())/(drainWindows*o.Window.Seconds()), o.Service)
	}
	pressure := o.Waiting() > 0 && u >= l.cfg.high || o.Rejections > 0
	if l.cfg.targetWait > 0 && o.WaitP99 > l.cfg.targetWait && o.Queue > 0 {
		pressure = true
	}
	if pressure {
		return l.grow(o, need, steady, lo, hi)
	}
	return l.shrink(o, lo)
}

// grow answers pressure: a queue behind busy workers, rejections, or a
// wait above the target.
func (l *law) grow(o Observation, need, steady, lo, hi int) (int, string) {
	n := o.Size
	switch {
	case o.Busy < float64(n)/2 && o.Rejections == 0:
		l.cause = CauseHoldBurst
		return l.done(o, n, "queue, but fewer than half the workers busy: a burst the queue absorbs")
	case n >= hi && l.capped(o) && n == l.knee:
		if o.Saturated() && !l.kneeDown && n > lo {
			// Test the knee from below once: a step down that keeps the
			// throughput shows the knee was found too high (a growth
			// step that bought nothing says only that the knee is at or
			// below where it started). In a backlog too: a knee placed
			// from service times inflated since the start (a pool
			// started above the CPUs) is found nowhere else.
			to := max(lo, n-max(1, n/8))
			l.probe = l.newProbe(o, to)
			l.cause = CauseKnee
			return l.done(o, to, fmt.Sprintf("pressure at the knee %d: testing it from below at %d", n, to))
		}
		l.cause = CauseHoldLimit
		return l.done(o, n, fmt.Sprintf("pressure at the knee %d (%s)", n, l.class))
	case n >= hi:
		l.cause = CauseHoldLimit
		return l.done(o, n, fmt.Sprintf("pressure at the ceiling %d", hi))
	case o.MemLimit > 0 && o.MemLimit < math.MaxInt64 && float64(o.HeapLive) > l.cfg.memoryHeadroom*float64(o.MemLimit):
		l.cause = CauseHoldLimit
		return l.done(o, n, fmt.Sprintf("pressure, but the live heap is %d of the %d memory limit", o.HeapLive, o.MemLimit))
	}
	var to int
	var why string
	switch {
	case o.Rejections == 0 && l.drains(o):
		// A burst the size drains within a window, with the arrivals at
		// their smoothed rate: Poisson noise, not a change of load. The
		// stabilisation window keeps what the arrivals need.
		l.recs = append(l.recs, rec{o.At, min(n, max(1, steady))})
		l.cause = CauseHoldBurst
		return l.done(o, n, fmt.Sprintf("%s, drained within a window at %d workers", waiting(o), n))
	case need > n:
		// Applied at once, unless the window is saturated or the service
		// time rose: then it may already be inflated by a knee, and so the
		// estimate; at most double, and let the next windows judge.
		to = need
		if l.cautious(o) {
			to = min(need, 2*n)
		}
		why = fmt.Sprintf("%s at utilisation %.2f: Little's law asks for %d", waiting(o), o.Utilization(), need)
	case need == 0:
		// No task completed in the window (a cold start): every queued
		// task could use a worker; at most double on a guess.
		guess := o.BusyNow + o.Waiting() + int(o.Rejections)
		to = min(guess, 2*n)
		why = fmt.Sprintf("%s, %d refused, no service time yet: %d busy, queued or refused", waiting(o), o.Rejections, guess)
	case o.Rejections == 0 && o.WaitP50 <= o.Service:
		// The arrivals need no more workers than there are: a momentary
		// queue, which most tasks waited in for less than a service time.
		l.cause = CauseHoldBurst
		return l.done(o, n, fmt.Sprintf("%s, but Little's law asks for only %d", waiting(o), need))
	default:
		// Tasks wait or are refused although Little's law says the size
		// suffices: take one step and let the next window judge it.
		to = n + 1
		why = fmt.Sprintf("%s at utilisation %.2f, %d refused: one more worker", waiting(o), o.Utilization(), o.Rejections)
	}
	if l.kneeSeen {
		to = min(to, n+max(1, n/8)) // near a known knee, small steps
	}
	to = max(n+1, min(hi, to))
	l.grewAt = o.At
	if l.cautious(o) {
		l.probe = l.newProbe(o, to)
	}
	// The workers added to drain a backlog are not wanted once it is
	// drained: the stabilisation window keeps only what the arrivals need.
	if steady > 0 {
		l.recs = append(l.recs, rec{o.At, max(n, min(to, steady))})
	}
	return l.done(o, to, why)
}

// need is the workers Little's law asks for, with staff's headroom:
// arrivals per second λ each keeping a worker busy for s.
func (l *law) need(lambda float64, s time.Duration) int {
	if s <= 0 || lambda <= 0 {
		return 0
	}
	return l.staff(lambda * s.Seconds())
}

// staffFrom is the offered load, in busy workers, from which staff
// follows the square-root rule.
const staffFrom = 4

// staff is the number of workers that serve an offered load of r busy
// workers with headroom for the randomness of arrivals and service times:
// r/u up to staffFrom, and beyond it the square-root rule of many-server
// queues (Halfin and Whitt), r + β√r, with β = √staffFrom·(1/u − 1) so that
// the two agree at staffFrom. The headroom a pool needs grows as the
// square root of its load, not in proportion to it: at u = 0.8, a load of
// 1.7 gets 3 workers either way, and one of 21 gets 24, where r/u would
// hold 27 (the load of 21 waits about as little on 24 as that of 1.7 on 3).
func (l *law) staff(r float64) int {
	if r <= 0 {
		return 0
	}
	u := l.cfg.utilization
	n := r / u
	if r > staffFrom {
		n = r + math.Sqrt(staffFrom)*(1/u-1)*math.Sqrt(r)
	}
	return int(math.Ceil(n))
}

// cautious reports a window a growth step is a probe from: one saturated
// (its throughput is the size's capacity), or one whose service time rose
// by a quarter or more over the least of the recent windows (past a knee,
// added workers queue inside the tasks and lengthen them).
//
// Growth for a backlog outside the pool (WithBacklog) is always a probe:
// the pool has no queue whose wait would show what the added workers did.
func (l *law) cautious(o Observation) bool {
	return o.Saturated() || o.Backlog > o.Size/4 || o.Service > 0 && float64(o.Service) >= 1.25*float64(min(o.Service, l.least()))
}

// least is the least mean service time of the recent windows; the largest
// Duration when there is none.
func (l *law) least() time.Duration {
	b := time.Duration(math.MaxInt64)
	for _, r := range l.recent {
		b = min(b, r)
	}
	return b
}

// waiting describes the work waiting, for a reason: the queue, and the
// backlog outside the pool when there is one.
func waiting(o Observation) string {
	if o.Backlog > 0 {
		return fmt.Sprintf("queue %d, backlog %d", o.Queue, o.Backlog)
	}
	return fmt.Sprintf("queue %d", o.Queue)
}

// backlogged reports a queue whose typical task waits longer than it runs:
// a backlog, not a few tasks caught between submission and start.
//
// Work in the backlog outside the pool (WithBacklog) has not reached the
// pool's queue, where its wait would be measured: more of it than a
// quarter of the size is a backlog.
func backlogged(o Observation) bool {
	return o.Queue > o.Size/4 && o.WaitP50 > o.Service || o.Backlog > o.Size/4
}

// drains reports whether the queue empties within one window at the
// current size if arrivals run at their smoothed rate, which itself needs
// no more workers than there are.
func (l *law) drains(o Observation) bool {
	if o.Service <= 0 || o.Window <= 0 || l.lambda <= 0 {
		return false
	}
	if l.staff(l.lambda*o.Service.Seconds()) > o.Size {
		return false
	}
	spare := float64(o.Size)/o.Service.Seconds() - l.lambda // completions a second beyond the arrivals, all busy
	return spare > 0 && float64(o.Waiting()) <= spare*o.Window.Seconds()
}

// shrink follows the need down when the pool is under-used: to the
// largest need of the stabilisation window, a fraction of N per tick.
func (l *law) shrink(o Observation, lo int) (int, string) {
	n := o.Size
	want := n
	// The smoothed need, so that one quiet window removes no workers; but
	// within the stabilisation window of a growth, which the smoothing
	// trails, never below this window's.
	busy := l.busy
	if o.At.Sub(l.grewAt) <= l.cfg.stabilization {
		busy = max(busy, o.Busy)
	}
	idle := busy < l.cfg.low*float64(n)
	// Between the low mark and the target utilisation the pool drifts
	// down only under a load that has stopped growing: not within the
	// stabilisation window of a growth.
	settled := idle || o.At.Sub(l.grewAt) > l.cfg.stabilization
	if !backlogged(o) {
		want = min(n, max(lo, l.staff(busy)))
	}
	// The need is recorded whether or not the pool may drift down yet:
	// the wait after a growth is the stabilisation window once, not the
	// window followed by another of the size it held meanwhile.
	l.recs = append(l.recs, rec{o.At, want})
	for len(l.recs) > 0 && o.At.Sub(l.recs[0].at) > l.cfg.stabilization {
		l.recs = l.recs[1:]
	}
	if !settled {
		return l.done(o, n, "")
	}
	stable := 0
	for _, r := range l.recs {
		stable = max(stable, r.n)
	}
	if stable < n {
		// Well below the low mark, a fifth of N a tick; between it and
		// the target utilisation, a worker a tick: the need there is
		// close to the size, and one window's noise moves it.
		step := 1
		if idle {
			step = max(1, int(math.Ceil(shrinkStep*float64(n))))
		}
		to := max(stable, n-step)
		return l.done(o, to, fmt.Sprintf("utilisation %.2f: the largest need over %v is %d", o.Utilization(), l.cfg.stabilization, stable))
	}
	return l.done(o, n, "")
}

// expire drops a knee whose work has changed (its service time moved by
// workChanged or more), and says why. A knee whose time is up stays known
// but no longer caps growth: the next growth is a small step that tests
// it.
func (l *law) expire(o Observation) string {
	if l.knee == 0 {
		return ""
	}
	if s := o.Service; s > 0 && l.kneeS > 0 && (float64(s) > workChanged*float64(l.kneeS) || workChanged*float64(s) < float64(l.kneeS)) {
		k := l.knee
		l.knee, l.kneeSeen, l.kneeDown, l.class = 0, false, false, Unknown
		l.probe = nil
		return fmt.Sprintf("service time %v against %v at the knee: the work changed, knee %d dropped", s, l.kneeS, k)
	}
	return ""
}

// judge evaluates the step in flight, if any, once a window has run at the
// new size. It returns ok with the size and reason when it reached a
// verdict or holds for a second window; otherwise the law goes on.
func (l *law) judge(o Observation) (int, string, bool) {
	p := l.probe
	if p == nil {
		return 0, "", false
	}
	if o.Size != p.to || p.x0 <= 0 {
		l.probe = nil
		return 0, "", false
	}
	if !o.Saturated() && o.Waiting() > 0 && p.ramp < 2 {
		// A queue, but the workers were not all busy all the window: the
		// window that follows a step is partly a ramp (tasks longer than
		// the window had not completed on the new workers). Wait.
		p.ramp++
		return o.Size, "", true
	}
	if !o.Saturated() {
		// The queue drained: the new size serves the load, whether the
		// step was a grow that paid or a step down that sufficed.
		l.probe = nil
		if p.to < p.from {
			l.kneeDown = true
		} else if gain := p.gain(o.Throughput); gain >= gainPaid {
			// A lower bound of what the step bought, the load being
			// what limits the throughput now.
			l.paid(o, p, gain)
		}
		return 0, "", false
	}
	p.windows++
	p.x += o.Throughput
	p.s += o.Service
	p.n += o.Completions
	p.sd += o.ServiceSD
	x := p.x / float64(p.windows)
	s := p.s / time.Duration(p.windows)
	if p.to < p.from {
		return l.judgeDown(o, p, x, s)
	}
	gain := p.gain(x)
	if gain >= gainPaid {
		if !p.above(x, o.Window) {
			// What the step bought is within chance of nothing: a
			// small step's share of a noisy throughput. Look longer;
			// after paidWindows, no verdict.
			if p.windows < paidWindows {
				return o.Size, "", true
			}
			l.probe = nil
			return 0, "", false
		}
		l.paid(o, p, gain)
		return 0, "", false
	}
	if p.windows < 2 {
		return o.Size, "", true // one more window before a verdict
	}
	l.probe = nil
	// Past a knee the added workers only queue for what is saturated, so
	// the tasks' service time rises (by Little's law, in proportion to the
	// throughput the step failed to buy). A shortfall without that rise
	// is the load changing under the step, or chance: no verdict, and
	// the law goes on.
	if !p.rose(s) {
		return 0, "", false
	}
	// Where the knee is, Little's law says: the bottleneck served x tasks
	// a second, each busy for the service time they took before queueing
	// for it began; the rest of the busy workers waited. (The share of
	// the step that paid says the same more noisily, and cannot place a
	// knee below the old size; the old size's own service time may
	// already include some queueing.)
	k := min(p.to-1, max(l.cfg.min, int(math.Round(x*p.sBase.Seconds()))))
	l.setKnee(o, k, p.s0)
	return k, fmt.Sprintf("growing %d→%d bought %.2f of a worker each while the service time rose %v→%v: knee at %d (%s)",
		p.from, p.to, gain, p.s0, s, k, l.class), true
}

// paid ends a growth step that bought what it should: a knee below its
// new size has moved, and beyond GOMAXPROCS it says the work is I/O-bound.
func (l *law) paid(o Observation, p *probe, gain float64) {
	l.probe = nil
	if l.knee > 0 && p.to > l.knee {
		l.knee, l.kneeDown = 0, false
		l.class = Unknown
	}
	if p.to > o.GOMAXPROCS && gain >= gainIO && l.knee == 0 {
		l.class = IOBound
	}
	l.note = fmt.Sprintf("growing %d→%d paid (%.2f of a worker each); ", p.from, p.to, gain)
}

// base is the service time a probe from a window with mean service time s
// places a knee with: the least of the last recentWindows windows, unless
// that is below s by a factor of baseSpread or more (the work itself
// changed, or was changing): then s.
func (l *law) base(s time.Duration) time.Duration {
	b := min(s, l.least())
	if baseSpread*float64(b) <= float64(s) {
		return s
	}
	return b
}

// judgeDown evaluates a step down from a knee. The step kept the
// throughput only if two measures of it say so, over two windows at least:
// the completions counted (x), and Little's law on the sizes, to/s against
// from/s0 (every worker is busy in a saturated window). The count is noisy:
// a window of a hundred completions strays by a tenth, as much as a step of
// an eighth of the workers costs. The service time is steadier, and tells
// a knee that was too high (the tasks got faster with fewer workers, so
// fewer serve as many) from one that was right (the service time held, so
// fewer serve fewer). A false "kept" costs throughput until the knee
// expires, a false "lost" only the workers of the step: in doubt, the knee
// stays where it was.
func (l *law) judgeDown(o Observation, p *probe, x float64, s time.Duration) (int, string, bool) {
	share := x / p.x0
	if p.s0 > 0 && s > 0 {
		share = min(share, float64(p.to)*p.s0.Seconds()/(float64(p.from)*s.Seconds()))
	}
	switch {
	case share >= holdShare && p.windows >= 2:
		l.probe = nil
		l.setKnee(o, p.to, s)
		return o.Size, fmt.Sprintf("stepping down %d→%d kept %.0f%% of the throughput: knee at %d (%s)", p.from, p.to, 100*share, p.to, l.class), true
	case p.windows < 2 && share > 0.8:
		return o.Size, "", true
	}
	l.probe = nil
	l.setKnee(o, p.from, p.s0)
	l.kneeDown = true
	return p.from, fmt.Sprintf("stepping down %d→%d lost %.0f%% of the throughput: the knee is %d (%s)", p.from, p.to, 100*(1-share), p.from, l.class), true
}

// setKnee caps growth at k and classifies the work by where k lies.
func (l *law) setKnee(o Observation, k int, s time.Duration) {
	k = max(l.cfg.min, k)
	if k != l.knee {
		l.kneeDown = false
	}
	l.knee, l.kneeS, l.kneeSeen = k, s, true
	l.kneeUntil = o.At.Add(kneeTTL)
	if k <= cpuCeiling(o) {
		l.class = CPUBound
	} else {
		l.class = Limited
	}
}

// done records the decision as this tick's recommendation for the
// stabilisation window (unless the shrink path already recorded its need),
// so that a shrink never undoes a recent growth before the window passes.
func (l *law) done(o Observation, to int, why string) (int, string) {
	if n := len(l.recs); n == 0 || !l.recs[n-1].at.Equal(o.At) {
		l.recs = append(l.recs, rec{o.At, to})
	}
	if l.note != "" {
		why = strings.TrimSuffix(l.note+why, "; ")
	}
	if to != o.Size && why == "" {
		why = "adjust"
	}
	if l.cause == "" {
		switch {
		case to > o.Size:
			l.cause = CauseGrow
		case to < o.Size:
			l.cause = CauseShrink
		default:
			l.cause = CauseSteady
		}
	}
	return to, why
}
