package autoscale

import (
	"fmt"
	"math"
)

// pressure reports whether o calls for growth: work waiting behind busy
// workers, refusals, or a p99 wait above the objective.
func (l *law) pressure(o Observation) bool {
	return o.Waiting() > 0 && o.Utilization() >= l.cfg.high || o.Rejections > 0 || l.late(o)
}

// grow answers pressure: a queue behind busy workers, rejections, or a
// wait above the target. need is what Little's law asks for with the
// backlog's drain, steady without it; lo and hi are the bounds. Pressure
// that a limit or a burst explains holds the size (CauseHoldLimit,
// CauseHoldBurst), and at a knee not yet tested from below it steps down
// to test it (CauseKnee); any other answer is a growth (CauseGrow).
func (l *law) grow(o Observation, need, steady, lo, hi int) decision {
	n := o.Size
	// A window within the stabilisation window of a growth still shows
	// the waits of the backlog that growth was for.
	settled := o.At.Sub(l.grewAt) > l.cfg.stabilization
	switch {
	case o.Busy < float64(n)/2 && o.Rejections == 0:
		return hold(o, CauseHoldBurst, "queue, but fewer than half the workers busy: a burst the queue absorbs")
	case n >= hi && l.capped(o) && n == l.knee:
		if to := l.below(o, lo); o.Saturated() && !l.kneeDown && n > lo && !l.needs(o, to) {
			// Test the knee from below once: a step down that keeps the
			// throughput shows the knee was found too high (a growth
			// step that bought nothing says only that the knee is at or
			// below where it started). In a backlog too: a knee placed
			// from service times inflated since the start (a pool
			// started above the CPUs) is found nowhere else.
			l.probe = l.newProbe(o, to)
			return decision{to: to, cause: CauseKnee, reason: fmt.Sprintf("pressure at the knee %d: testing it from below at %d", n, to)}
		}
		return hold(o, CauseHoldLimit, fmt.Sprintf("pressure at the knee %d (%s)", n, l.class))
	case n >= hi:
		return hold(o, CauseHoldLimit, fmt.Sprintf("pressure at the ceiling %d", hi))
	case o.MemLimit > 0 && o.MemLimit < math.MaxInt64 && float64(o.HeapLive) > l.cfg.memoryHeadroom*float64(o.MemLimit):
		return hold(o, CauseHoldLimit, fmt.Sprintf("pressure, but the live heap is %d of the %d memory limit", o.HeapLive, o.MemLimit))
	}
	var to int
	var why string
	cause := CauseGrow
	switch {
	case o.Rejections == 0 && !l.late(o) && l.drains(o):
		// A burst the size drains within a window, with the arrivals at
		// their smoothed rate: Poisson noise, not a change of load. The
		// stabilisation window keeps what the arrivals need.
		return l.holdBurst(o, steady, fmt.Sprintf("%s, drained within a window at %d workers", waiting(o), n))
	case o.Rejections == 0 && l.serves(o):
		// A trial showed the size serves this load within the objective
		// (trial.go): a window that reads its arrivals high is noise.
		return l.holdBurst(o, steady, fmt.Sprintf("%s, which %d workers empty within a tick: they served this load in a trial", waiting(o), n))
	case o.Rejections == 0 && !l.late(o) && l.queueKept(o) && steady <= n+growBand(n):
		// The queue's last task starts within the objective, and the
		// arrivals need no more than the size, give or take a tenth: the
		// queue is the objective's, not a backlog. Draining it would add
		// workers for a window and take them away a stabilisation window
		// later, at a load that never changed.
		return l.holdBurst(o, steady, fmt.Sprintf("%s, its last task starting within the objective %v at %d workers: the arrivals need %d", waiting(o), l.objective(o), n, steady))
	case o.Rejections == 0 && !l.late(o) && l.queueKept(o):
		// The arrivals need more than the size, but the queue is within
		// the objective: the arrivals' need, without a drain.
		to = l.upTo(o, steady)
		why = fmt.Sprintf("%s at utilisation %.2f: Little's law asks for %d, the queue within the objective", waiting(o), o.Utilization(), steady)
	case o.Rejections == 0 && !l.late(o) && need > n && need <= n+growBand(n):
		// Little's law asks for a tenth more at most, with the waits
		// within the objective: the size, give or take one window's
		// noise (a heavy-tailed service time queues now and then at a
		// steady load). Following it would walk the pool up a few
		// workers, and down again a stabilisation window later.
		return l.holdBurst(o, steady, fmt.Sprintf("%s at utilisation %.2f: Little's law asks for %d, within a tenth of the size", waiting(o), o.Utilization(), need))
	case o.Rejections == 0 && !l.late(o) && need > steady && steady > n && l.drainedBy(o, steady):
		// The arrivals' need drains the queue by itself: its last task
		// starts within the objective at that size, and the workers the
		// arrivals leave spare empty it before the next regular tick.
		// Workers added to drain it faster would be taken back a window
		// later: two changes of size where one does.
		to = l.upTo(o, steady)
		why = fmt.Sprintf("%s at utilisation %.2f: Little's law asks for %d, which drain the queue within the objective", waiting(o), o.Utilization(), steady)
	case need > n:
		// Applied at once, unless a knee may be near (one was found, or
		// the service time rose): then the service time may already be
		// inflated by it, and so the estimate; at most double, and let the
		// next windows judge.
		to = l.upTo(o, need)
		why = fmt.Sprintf("%s at utilisation %.2f: Little's law asks for %d", waiting(o), o.Utilization(), need)
	case need == 0 && l.early && len(l.recent) > 0:
		// No task ended in a window a backlog brought forward, though
		// tasks have ended before: they now take longer than the window
		// (a downstream that slowed), and the workers a growth just added
		// may not have finished one yet. The queue is the one that growth
		// was for; the next window says how long the tasks take.
		return hold(o, CauseHoldBurst, fmt.Sprintf("%s, but no task ended in the %v since the last tick: the next window says how long they take", waiting(o), o.Window))
	case need == 0:
		// No task completed in the window (a cold start): every queued
		// task could use a worker; on a guess, at most four times the
		// size, or twice where a knee may be near.
		guess := o.BusyNow + o.Waiting() + int(o.Rejections)
		to = min(guess, 4*n)
		if l.suspect(o) {
			to = min(guess, 2*n)
		}
		why = fmt.Sprintf("%s, %d refused, no service time yet: %d busy, queued or refused", waiting(o), o.Rejections, guess)
	case o.Rejections == 0 && !l.late(o) && o.WaitP50 <= o.Service:
		// The arrivals need no more workers than there are: a momentary
		// queue, which most tasks waited in for less than a service time.
		return hold(o, CauseHoldBurst, fmt.Sprintf("%s, but Little's law asks for only %d", waiting(o), need))
	case o.Rejections == 0 && l.late(o) && !settled && steady < n:
		// Within the stabilisation window of a growth, with more workers
		// than the arrivals need, the waits are those of the backlog the
		// growth drained, not a shortfall of workers: one more would stand
		// for the window, and hold the drain's workers with it.
		return l.holdBurst(o, steady, fmt.Sprintf("%s, p99 wait %v above the objective %v: the backlog's, drained by the growth %v ago; the arrivals need %d", waiting(o), o.WaitP99, l.objective(o), o.At.Sub(l.grewAt), steady))
	case o.Rejections == 0 && l.late(o):
		// Little's law says the size suffices, but the p99 wait broke the
		// objective: one worker more, for latency.
		to = n + 1
		cause = CauseLatency
		why = fmt.Sprintf("%s, p99 wait %v above the objective %v: one more worker, for latency", waiting(o), o.WaitP99, l.objective(o))
	default:
		// Tasks wait or are refused although Little's law says the size
		// suffices: take one step and let the next window judge it.
		to = n + 1
		why = fmt.Sprintf("%s at utilisation %.2f, %d refused: one more worker", waiting(o), o.Utilization(), o.Rejections)
	}
	if l.kneeSeen {
		to = min(to, n+max(1, n/8)) // near a known knee, small steps
	}
	// n < hi here, so the step is at least one worker.
	to = max(n+1, min(hi, to))
	l.grewAt = o.At
	switch {
	case l.cautious(o) && !l.early:
		l.probe = l.newProbe(o, to)
	case l.early && l.probe != nil && l.probe.to == n && l.probe.from < n:
		// A growth in a tick a backlog brought forward is no experiment:
		// its window is too short to compare the next one with. It
		// extends the step under way instead, whose window before is
		// still the one to compare with: dropped, it would leave a pool
		// grown into a knee with no verdict on it.
		l.probe.to = to
	case l.early && l.probe == nil:
		// Nor is one with no step under way: it is judged against what
		// the size before it serves saturated (capacityProbe).
		l.probe = l.capacityProbe(o, to)
	}
	// The workers added to drain a backlog are not wanted once it is
	// drained: the stabilisation window keeps only what the arrivals need.
	// A worker added for latency is what the arrivals need: it stands for
	// the window; and, added at a steady load (no growth within the
	// window before), the memory keeps it while the load stays as high
	// (shrink.go), so that the pool does not give it back only to break
	// the objective again.
	switch {
	case cause == CauseLatency:
		l.recs = append(l.recs, rec{o.At, to})
		if settled {
			l.lateAt = append(l.lateAt, lateRec{o.At, l.load(o), to})
		}
	case steady > 0:
		l.recs = append(l.recs, rec{o.At, max(n, min(to, steady))})
	}
	return decision{to: to, cause: cause, reason: why}
}

// holdBurst holds o's size through a queue that is noise, not a change of
// load, and records for the stabilisation window what the arrivals need,
// steady, at most the size: not the size itself, which would keep the
// workers the noise seemed to ask for.
func (l *law) holdBurst(o Observation, steady int, reason string) decision {
	l.recs = append(l.recs, rec{o.At, min(o.Size, max(1, steady))})
	return hold(o, CauseHoldBurst, reason)
}

// cautious reports a window a growth step is a probe from: one saturated
// (its throughput is the size's capacity), or one whose service time rose
// by a quarter or more over the least of the recent windows (past a knee,
// added workers queue inside the tasks and lengthen them).
//
// Growth for a backlog outside the pool (WithBacklog) is always a probe:
// the pool has no queue whose wait would show what the added workers did.
func (l *law) cautious(o Observation) bool {
	return o.Saturated() || o.Backlog > o.Size/4 || l.serviceRose(o)
}

// below is the size a knee at o's size is tested from below at: an eighth
// less, or straight at GOMAXPROCS from a knee within twice it (the CPUs are
// the likeliest knee there, and a pool started above them placed its knee
// from service times they inflated: one step finds out what three would).
func (l *law) below(o Observation, lo int) int {
	n, p := o.Size, max(1, o.GOMAXPROCS)
	if n > p && n <= 2*p {
		return max(lo, p)
	}
	return max(lo, n-max(1, n/8))
}

// needs reports whether the arrivals need more than to workers at the
// service time the tasks took before queueing for a bottleneck inflated it
// (see base): a step down to to from a knee would then queue them, to test
// what they need anyway. A knee found too high costs only idle workers;
// testing it there costs the objective.
//
// An overload (more arrivals than the pool completes) is not servable at
// any size past the knee: there the test goes ahead, since a knee placed
// from service times inflated since the start (a pool started above the
// CPUs) is lowered by nothing else.
//
// A knee within twice GOMAXPROCS may be the CPUs, where the service time
// of every window since the start may be inflated by workers sharing
// them, and with it the need: it is tested.
func (l *law) needs(o Observation, to int) bool {
	s := l.base(o.Service)
	if o.Service <= 0 || s <= 0 || l.lambda > 1.05*o.Throughput || l.knee <= 2*max(1, o.GOMAXPROCS) {
		return false
	}
	return l.staff(o, max(l.lambda, o.Lambda)*s.Seconds()) > to
}

// upTo is a growth towards want: at once, or at most double the size
// where a knee may be near (suspect), for the next windows to judge.
func (l *law) upTo(o Observation, want int) int {
	if l.suspect(o) {
		return min(want, 2*o.Size)
	}
	return want
}

// suspect reports a window in which growth may run into a knee: one was
// found since the work last changed, the service time rose by a quarter
// or more over the least of the recent windows, or the work waits outside
// the pool (WithBacklog), where no queue wait shows what added workers did.
// There, growth is cautious; elsewhere Little's law is taken at its word.
func (l *law) suspect(o Observation) bool {
	return l.kneeSeen || o.Backlog > o.Size/4 || l.serviceRose(o)
}

// serviceRose reports a mean service time a quarter or more above the
// least of the recent windows: past a knee, added workers queue inside
// the tasks and lengthen them.
func (l *law) serviceRose(o Observation) bool {
	return o.Service > 0 && float64(o.Service) >= 1.25*float64(min(o.Service, l.least()))
}

// waiting describes the work waiting, for a reason: the queue, and the
// backlog outside the pool when there is one.
func waiting(o Observation) string {
	if o.Backlog > 0 {
		return fmt.Sprintf("queue %d, backlog %d", o.Queue, o.Backlog)
	}
	return fmt.Sprintf("queue %d", o.Queue)
}
