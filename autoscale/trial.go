package autoscale

import (
	"fmt"
	"math"
)

// A worker fewer, on trial. Where CPU-bound work runs on CPUs with room
// (withoutSchedWait), the readings at n workers are partly the
// scheduler's: the busy workers' wake-ups and the threads set aside
// lengthen a few tasks in every few hundred by milliseconds, and spread
// the service times as far as exponential ones, or further. At fewer
// workers each takes the next task without parking, and the same tasks
// are alike. On a 2-CPU VM, tasks of 0.5 ms of computation at 0.87 of a
// CPU's load read a squared coefficient of variation of 1.0-1.7 at two
// workers and 0.02-0.1 at one. Fed the first, Erlang's formula puts one
// worker's p99 wait at about 20 ms and asks for two under an objective of
// 10 ms; one worker's measured p99 wait was 5-7 ms. What the tasks are like
// at n-1 workers the readings at n cannot say, so the law tries it.
//
// Where the load fits n-1 workers and only the objective asks for the
// n-th, after trialAfter windows at n whose readings were the scheduler's,
// the law takes one worker away and watches the windows at n-1: a p99 wait
// above the objective in trialLate windows in a row (or once beyond twice
// it), a refusal, or a queue n-1 do not empty within a tick (keepsUp), and
// the worker comes back (CauseGrow), and the next trial waits trialHold,
// doubling with each failure up to kneeTTLMax, so that a trial that keeps
// failing costs two size changes a minute at most, then fewer.
// trialWindows regular windows within it, and the trial passed: the law
// reads the service times' spread afresh from the trial's windows (the
// smoothing's memory of it was n's), and remembers that n-1 served the
// load (served): an early window at n-1 that reads its few dozen arrivals
// high no longer grows the pool while n-1 keep up with the queue and their
// p99 wait holds as it did in the trial. Only the objective decides the
// verdict: it is what asked for the n-th worker, and the throughput is the
// arrivals' while no queue grows.
const (
	trialAfter   = 2
	trialWindows = 2
	trialHold    = cpuHold
	// trialLate: windows at n-1 whose p99 wait broke the objective fail
	// a trial at this many, or at one that broke twice the objective: the
	// p99 of a window is its few slowest tasks.
	trialLate = 2
)

// trial is a worker fewer on trial: from, the size before it; to, the
// size tried; the regular windows seen at to and their summed squared
// coefficients of variation.
type trial struct {
	from, to int
	windows  int
	cs2      float64
	late     int // windows in a row at to whose p99 wait broke the objective (strike)
	procs    int // GOMAXPROCS in the trial's windows
}

// served is a size a trial showed serves the load; n is 0 for none.
type served struct {
	n    int
	late int // windows in a row at n whose p99 wait broke the objective (strike)
}

// countRoomy counts the full windows at o's size whose readings were the
// scheduler's (sched), past the window after a change of size, whose
// tasks ran beside the workers a shrink left.
func (l *law) countRoomy(o Observation, sched bool) {
	if o.Size != l.roomAt {
		l.roomAt, l.roomy = o.Size, 0
	}
	if sched && l.beside == o.Size {
		l.roomy++
	}
}

// tryFewer starts a trial of a worker fewer in o, where shrink would hold:
// ok with the decision that says so.
func (l *law) tryFewer(o Observation, lo int) (decision, bool) {
	n, to := o.Size, o.Size-1
	if l.early || l.trial != nil || l.probe != nil || to < max(1, lo) || l.roomAt != n || l.roomy < trialAfter ||
		o.At.Before(l.trialUntil) || backlogged(o) || o.Rejections > 0 || o.Waiting() > 0 && !l.emptiedAt(o, to) ||
		o.At.Sub(l.grewAt) <= l.cfg.stabilization || o.At.Sub(l.drainAt) <= l.cfg.stabilization {
		return decision{}, false
	}
	// The load the arrivals bring at the tasks' usual service time fits
	// to at the target utilisation (the smoothed busy workers count the
	// early windows', whose readings are the scheduler's too), the
	// objective alone asks for n, and the memory keeps no more than to.
	r := l.load(o)
	if math.Ceil(r/l.cfg.utilization) > float64(to) || l.staff(o, r) != n || max(l.recalled(o), l.keptForLatency(o)) > to {
		return decision{}, false
	}
	l.trial = &trial{from: n, to: to, procs: o.GOMAXPROCS}
	return decision{to: to, cause: CauseShrink, reason: fmt.Sprintf(
		"a load of %.2f, the CPUs with room: only the objective %v asks for %d on service times the scheduler spread (cs² %.2f); trying %d",
		r, l.objective(o), n, l.cs2, to)}, true
}

// tried judges a trial in flight with o's window: ok with the decision
// while it holds or ends it.
func (l *law) tried(o Observation) (decision, bool) {
	t := l.trial
	if t == nil {
		return decision{}, false
	}
	if o.Size != t.to {
		l.trial = nil // the size was changed under it (its bounds)
		return decision{}, false
	}
	if o.GOMAXPROCS != t.procs {
		// The CPUs changed under it, and stopped the world to: the trial
		// starts again on the new ones.
		t.procs, t.windows, t.cs2, t.late = o.GOMAXPROCS, 0, 0, 0
		return hold(o, CauseSteady, ""), true
	}
	obj := l.objective(o)
	if l.strike(o, &t.late) || o.Rejections > 0 || !l.keepsUp(o) {
		l.trial = nil
		l.trialHold = min(kneeTTLMax, max(trialHold, 2*l.trialHold))
		l.trialUntil = o.At.Add(l.trialHold)
		l.grewAt = o.At
		l.recs = append(l.recs, rec{o.At, t.from})
		return decision{to: t.from, cause: CauseGrow, reason: fmt.Sprintf(
			"%d workers on trial: p99 wait %v against the objective %v, queue %d, %d refused; back to %d, no trial for %v",
			t.to, o.WaitP99, obj, o.Queue, o.Rejections, t.from, l.trialHold)}, true
	}
	if l.early || l.beside != o.Size || o.Completions < 2 || o.Service <= 0 {
		// Too short to judge by, or tasks that ran beside the worker the
		// trial took away.
		return hold(o, CauseSteady, ""), true
	}
	cs := float64(o.ServiceSD) / float64(o.Service)
	t.windows++
	t.cs2 += min(3, cs*cs)
	if t.windows < trialWindows {
		return hold(o, CauseSteady, ""), true
	}
	l.trial = nil
	l.cs2 = t.cs2 / float64(t.windows)
	l.served = served{n: t.to}
	return hold(o, CauseSteady, fmt.Sprintf("%d workers on trial kept the p99 wait within the objective %v for %d windows (cs² %.2f): kept",
		t.to, l.objective(o), t.windows, l.cs2)), true
}

// keepsUp reports whether o's size empties o's queue within a regular
// tick with the arrivals at the rate of the regular windows: the queue is
// Poisson noise at a high utilisation, not a load beyond the size. (A
// window a backlog brought forward begins where arrivals clustered: its
// rate reads high, and at a utilisation of nine tenths, the smoothed rate
// with it reads the size short.)
func (l *law) keepsUp(o Observation) bool {
	return o.Waiting() == 0 || l.emptiedAt(o, o.Size)
}

// emptiedAt reports whether n workers empty o's queue within a regular
// tick with the arrivals at the rate of the regular windows (keepsUp at
// another size).
func (l *law) emptiedAt(o Observation, n int) bool {
	return emptiedBy(n, l.sizing(o), l.regular, o.Waiting(), max(o.Window, l.cfg.tick))
}

// serves reports that a trial showed o's size serves the load o is under:
// its p99 wait has not broken the objective since as strike counts it, and
// the size keeps up with the queue.
func (l *law) serves(o Observation) bool {
	return l.served.n > 0 && l.served.n == o.Size && l.served.late < trialLate && l.keepsUp(o)
}

// strike counts o's window in late, the windows in a row at a size on
// trial or served whose p99 wait broke the objective, and reports whether
// they are enough to say the size is short: trialLate in a row, or one
// beyond twice the objective.
//
// A window a backlog brought forward neither counts nor clears: its p99
// is the slowest of the few dozen tasks that arrived clustered, not of a
// tick's worth of the load; a queue the size cannot keep up with is
// keepsUp's to judge.
func (l *law) strike(o Observation, late *int) bool {
	obj := l.objective(o)
	switch {
	case l.early:
	case obj <= 0 || o.WaitP99 <= obj:
		*late = 0
	case o.WaitP99 > 2*obj:
		*late = trialLate
	default:
		*late++
	}
	return *late >= trialLate
}

// watchServed counts o's window against the size a trial showed serves
// the load, where o ran at it.
func (l *law) watchServed(o Observation) {
	if l.served.n > 0 && o.Size == l.served.n {
		l.strike(o, &l.served.late)
	}
}
