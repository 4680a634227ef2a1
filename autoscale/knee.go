package autoscale

import (
	"fmt"
	"math"
	"time"
)

// Class is what the controller has learned about the work.
type Class string

// The classes of work. They are conclusions drawn from the pool's own
// tasks: what an added worker bought, and how the tasks' service time
// moved with the number running; and, for CPU-bound work, from the
// process's CPU time and the scheduler's latencies (cpu.go). Load
// elsewhere in the process (other goroutines keeping the CPUs busy) makes
// every task a little slower, but does not make an added worker buy
// nothing, nor the pool's workers blocked in I/O wait for a CPU, so it
// does not make work look CPU-bound.
const (
	Unknown Class = "unknown"
	// CPUBound: a knee at or below ceil(1.5 × GOMAXPROCS): past it, added
	// workers bought no throughput and the service time grew with them, or
	// the busy workers were measured waiting for the CPUs and for nothing
	// else.
	CPUBound Class = "cpu-bound"
	// Limited: a knee above that: something the tasks wait on (a
	// downstream, a connection pool) serves only so many at once.
	Limited Class = "limited"
	// IOBound: workers added beyond GOMAXPROCS kept paying.
	IOBound Class = "io-bound"
)

// A knee is the size past which added workers bought nothing: the CPUs, or
// a downstream that serves only so many at once and queues the rest inside
// itself. Little's law cannot see it, since past it the service time, and
// with it the estimate, grows with every worker added; the probes find it.
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
	// again: the bottleneck may have moved. Each test that finds it where
	// it was doubles the time to the next, up to kneeTTLMax: a saturated
	// pool re-tested every few seconds would change its size more often
	// than its load does.
	kneeTTL    = 5 * time.Second
	kneeTTLMax = 80 * time.Second
	// workChanged: a mean service time this many times above or below the
	// one the knee was found at means the work is no longer what the knee
	// was measured on.
	workChanged = 2.5
	// kneeKeeps: past a knee, a growth step keeps at least this share of
	// the throughput before it; one that kept less met slower work.
	kneeKeeps = 0.75
	// paidWindows is the most windows a growth step that seems to pay is
	// watched for before chance is ruled out.
	paidWindows = 3
)

// capped reports whether a knee caps growth now.
func (l *law) capped(o Observation) bool { return l.knee > 0 && !o.At.After(l.kneeUntil) }

// cpuCeiling is the most workers CPU-bound work can use.
func cpuCeiling(o Observation) int { return int(math.Ceil(1.5 * float64(max(1, o.GOMAXPROCS)))) }

// expire drops a knee whose work has changed (its service time moved by
// workChanged or more): ok with the decision that says so. A knee whose
// time is up stays known but no longer caps growth: the next growth is a
// small step that tests it.
//
// Service times are compared at the knee's size only: at another size the
// tasks share the bottleneck with more or fewer others (past a CPU knee,
// four workers on two CPUs take twice as long as two), which is not a
// change of work. A knee placed from a service time measured at another
// size takes its first window at its own size as the reference. The window
// after a change of size is at neither: a shrink is lazy, and the workers
// above the new size end their tasks in it (see beside).
func (l *law) expire(o Observation) (decision, bool) {
	if l.knee == 0 || o.Size != l.knee || l.beside != l.knee || o.Service <= 0 {
		return decision{}, false
	}
	if l.kneeSAt != l.knee {
		l.kneeS, l.kneeSAt = o.Service, l.knee
		return decision{}, false
	}
	if s := o.Service; s > 0 && l.kneeS > 0 && (float64(s) > workChanged*float64(l.kneeS) || workChanged*float64(s) < float64(l.kneeS)) {
		k := l.knee
		l.forgetKnee()
		return hold(o, CauseWorkChanged, fmt.Sprintf("service time %v against %v at the knee: the work changed, knee %d dropped", s, l.kneeS, k)), true
	}
	return decision{}, false
}

// forgetKnee drops what the law concluded about the work it no longer
// has: the knee, its tests, the class, a step awaiting its verdict, and
// a trial's (trial.go).
func (l *law) forgetKnee() {
	l.knee, l.kneeSeen, l.kneeDown, l.kneeTTL, l.class = 0, false, false, 0, Unknown
	l.probe, l.trial, l.served = nil, nil, served{}
}

// reworked forgets what the law learned of the work when a window's mean
// service time moved further than a knee can explain: past a knee of k
// units, the n workers share them and each task lengthens n/k times at
// most (k ≥ 1; n counts the workers a shrink left ending their tasks in
// the window: beside), so a mean more than n times the least of the recent
// windows, or less by that factor than one of them that ran at n workers
// (workChanged, for the smallest pools, whose windows stray that far by
// chance), is other work, as when a pool's tasks turn from computing to
// calling out, or back. The recent service times, the knee, the class and
// a step's verdict were the old work's: kept, the old short service time
// would make every growth look like one past a knee (at most doubling, a
// window at a time) and keep the old work's objective of four service
// times. The memory's rates and the sizes kept for latency go too: a rate
// is a need only at its own work's service time, and the old work's peak
// at the new one's would hold the pool far above both. The work's
// arrivals start afresh, as at the pool's start: the smoothing from its
// first full window (the old work's busy workers, trailing for a dozen
// windows, would be recorded a tick at a time and walk the pool down a
// worker or two a tick), the memory two full windows on. It returns what
// it found, for the reason; "" when the work is the same. Early windows
// count too: their mean is of the tasks short enough to end within them,
// so one that rose this far rose.
func (l *law) reworked(o Observation) string {
	if o.Service <= 0 || len(l.recent) == 0 {
		return ""
	}
	var was time.Duration
	if lo := l.least(); float64(o.Service) > max(float64(l.beside), workChanged)*float64(lo) {
		was = lo
	} else if !l.early {
		for _, r := range l.recent {
			if max(float64(r.size), workChanged)*float64(o.Service) < float64(r.service) {
				was = max(was, r.service)
			}
		}
	}
	if was == 0 {
		return ""
	}
	l.recent, l.rates, l.lateAt, l.full = l.recent[:0], nil, nil, 0
	l.forgetKnee()
	return fmt.Sprintf("service time %v against %v before: the work changed", o.Service, was)
}

// judge evaluates the step in flight, if any, once a window has run at the
// new size. It returns ok with the decision when it reached a verdict or
// holds for another window. Otherwise the law goes on, and note, unless
// empty, says what a growth step found to pay bought: it leads the reason
// of whatever the law decides next, so that the verdict is not lost.
func (l *law) judge(o Observation) (d decision, ok bool, note string) {
	p := l.probe
	if p == nil {
		return decision{}, false, ""
	}
	if o.Size != p.to || p.x0 <= 0 {
		l.probe = nil
		return decision{}, false, ""
	}
	if !o.Saturated() && o.Waiting() > 0 && p.ramp < 2 {
		// A queue, but the workers were not all busy all the window: the
		// window that follows a step is partly a ramp (tasks longer than
		// the window had not completed on the new workers). Wait.
		p.ramp++
		return hold(o, CauseSteady, ""), true, ""
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
			note = l.paid(o, p, gain)
		}
		return decision{}, false, note
	}
	p.windows++
	p.x += o.Throughput
	p.s += o.Service
	p.n += o.Completions
	p.sd += o.ServiceSD
	x := p.x / float64(p.windows)
	s := p.s / time.Duration(p.windows)
	if p.to < p.from {
		return l.judgeDown(o, p, x, s), true, ""
	}
	gain := p.gain(x)
	if gain >= gainPaid {
		if !p.above(x, o.Window) {
			// What the step bought is within chance of nothing: a
			// small step's share of a noisy throughput. Look longer;
			// after paidWindows, no verdict.
			if p.windows < paidWindows {
				return hold(o, CauseSteady, ""), true, ""
			}
			l.probe = nil
			return decision{}, false, ""
		}
		return decision{}, false, l.paid(o, p, gain)
	}
	if p.windows < 2 {
		return hold(o, CauseSteady, ""), true, "" // one more window before a verdict
	}
	l.probe = nil
	if x < kneeKeeps*p.x0 {
		// Past a knee the bottleneck serves what it served before the
		// step, and the added workers wait for it. A throughput that fell
		// by a quarter or more is every task slowing (a downstream that
		// slowed, fewer CPUs): other work, whose rise in service time
		// would place a knee where its own throughput puts it, far below
		// any. No verdict, on a test of a known knee from above too: the
		// slower work may need more workers than the knee (a downstream's
		// slots at its slower pace), and the knee, its time up, no longer
		// caps growth; the law goes on.
		return decision{}, false, ""
	}
	// Past a knee the added workers only queue for what is saturated, so
	// the tasks' service time rises (by Little's law, in proportion to the
	// throughput the step failed to buy). A shortfall without that rise
	// is the load changing under the step, or chance: no verdict, and
	// the law goes on.
	if !p.rose(s) {
		if l.knee > 0 && p.from == l.knee {
			// A test of a known knee from above that bought too little
			// to pay, whatever chance did to the service time: the knee
			// stays, and the next test waits longer.
			l.setKnee(o, l.knee, l.kneeS, l.kneeSAt)
			return decision{to: p.from, cause: CauseKnee, reason: fmt.Sprintf("growing %d→%d bought %.2f of a worker each: the knee stays at %d (%s)",
				p.from, p.to, gain, p.from, l.class)}, true, ""
		}
		return decision{}, false, ""
	}
	// Where the knee is, Little's law says: the bottleneck served x tasks
	// a second, each busy for the service time they took before queueing
	// for it began; the rest of the busy workers waited. (The share of
	// the step that paid says the same more noisily, and cannot place a
	// knee below the old size; the old size's own service time may
	// already include some queueing.)
	k := min(p.to-1, max(l.cfg.min, int(math.Round(x*p.sBase.Seconds()))))
	l.setKnee(o, k, p.s0, p.from)
	return decision{to: k, cause: CauseKnee, reason: fmt.Sprintf("growing %d→%d bought %.2f of a worker each while the service time rose %v→%v: knee at %d (%s)",
		p.from, p.to, gain, p.s0, s, k, l.class)}, true, ""
}

// paid ends a growth step that bought what it should: a knee below its
// new size has moved, and beyond GOMAXPROCS it says the work is I/O-bound.
// It returns the verdict, for the reason of the tick.
func (l *law) paid(o Observation, p *probe, gain float64) string {
	l.probe = nil
	if l.knee > 0 && p.to > l.knee {
		l.knee, l.kneeDown, l.kneeTTL = 0, false, 0
		l.class = Unknown
	}
	if p.to > o.GOMAXPROCS && gain >= gainIO && l.knee == 0 {
		l.class = IOBound
	}
	return fmt.Sprintf("growing %d→%d paid (%.2f of a worker each)", p.from, p.to, gain)
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
//
// Little's law is taken on the newest window's service time: the first
// window after a step down also completes tasks that ran while more
// workers shared the bottleneck, which would read as a loss the step did
// not cause. While the counted throughput holds, the first window is not a
// verdict.
func (l *law) judgeDown(o Observation, p *probe, x float64, s time.Duration) decision {
	counted := x / p.x0
	share := counted
	if p.s0 > 0 && o.Service > 0 {
		share = min(share, float64(p.to)*p.s0.Seconds()/(float64(p.from)*o.Service.Seconds()))
	}
	switch {
	case share >= holdShare && p.windows >= 2:
		l.probe = nil
		l.setKnee(o, p.to, s, p.to)
		return hold(o, CauseKnee, fmt.Sprintf("stepping down %d→%d kept %.0f%% of the throughput: knee at %d (%s)", p.from, p.to, 100*share, p.to, l.class))
	case p.windows < 2 && (share > 0.8 || counted >= holdShare):
		return hold(o, CauseSteady, "")
	}
	l.probe = nil
	l.setKnee(o, p.from, p.s0, p.from)
	l.kneeDown = true
	return decision{to: p.from, cause: CauseKnee, reason: fmt.Sprintf("stepping down %d→%d lost %.0f%% of the throughput: the knee is %d (%s)", p.from, p.to, 100*(1-share), p.from, l.class)}
}

// setKnee caps growth at k and classifies the work by where k lies; s is
// the mean service time measured at size at.
func (l *law) setKnee(o Observation, k int, s time.Duration, at int) {
	k = max(l.cfg.min, k)
	ttl := kneeTTL
	if k != l.knee {
		l.kneeDown = false
	} else if l.kneeTTL > 0 {
		ttl = min(kneeTTLMax, 2*l.kneeTTL)
	}
	l.knee, l.kneeS, l.kneeSAt, l.kneeSeen, l.kneeTTL = k, s, at, true, ttl
	l.kneeUntil = o.At.Add(ttl)
	if k <= cpuCeiling(o) {
		l.class = CPUBound
	} else {
		l.class = Limited
	}
}
