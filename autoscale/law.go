package autoscale

import (
	"fmt"
	"time"
)

const (
	// smoothing is the EWMA weight of the newest busy reading: shrinking
	// acts on a smoothed need, so that one quiet window removes no
	// workers.
	smoothing = 0.3
	// recentWindows is how many windows' service times base looks back
	// on.
	recentWindows = 8
)

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
//
// A tick's outcome is a decision, returned by the rule that made it: the
// law keeps state about the pool and the work between ticks, never about
// the tick it is deciding.
type law struct {
	cfg config

	class     Class
	knee      int           // the size past which added workers bought nothing; 0: none
	kneeUntil time.Time     // the knee caps growth until then
	kneeTTL   time.Duration // how long it caps growth after its last test (knee.go)
	kneeS     time.Duration // the mean service time the knee was found at
	kneeSAt   int           // the size kneeS was measured at
	kneeDown  bool          // the knee was tested from below
	kneeSeen  bool          // a knee was found since the work last changed: probes up are small

	probe *probe // a step waiting to be judged

	trial      *trial        // a worker fewer on trial (trial.go)
	trialUntil time.Time     // no trial before then: the last one failed
	trialHold  time.Duration // how long the last failed trial holds off the next
	served     served        // a size a trial showed serves the load
	roomAt     int           // the size roomy counts windows at
	roomy      int           // full windows at roomAt whose readings were the scheduler's (cpu.go)

	failAt    map[int]failRec // recent failures by size (failures.go)
	failCap   int             // a size past which failures grew with the workers; 0: none
	failUntil time.Time       // failCap caps growth until then

	recs    []rec     // size recommendations, for the stabilisation window
	rates   []rate    // sustained arrival rates, for the memory (shrink.go)
	lateAt  []lateRec // growths for latency, for the memory (shrink.go)
	pulled  bool      // the last window had work waiting outside the pool
	early   bool      // the tick being decided was brought forward by a backlog (Controller.Run)
	recent  []sample  // the last windows with completions, newest last
	grewAt  time.Time // the last growth under pressure
	drainAt time.Time // the last window with a backlog (backlogged)
	paced   [2]sample // the last two windows with a service time, early ones too, newest last (cpu.go, scaledWithWorkers)
	busy    float64   // busy workers, smoothed over ticks (EWMA)
	cs2     float64   // the service times' squared coefficient of variation, smoothed (sizing.go)
	lambda  float64   // arrivals per second, smoothed likewise
	regular float64   // arrivals per second, smoothed over full windows only (trial.go)
	prior   float64   // lambda before the window being decided (sizing.go, arrivals)
	last    int       // the size of the last window decided
	beside  int       // the most workers the tasks of the window being decided ran beside
	ticks   int
	full    int // ticks of full windows, not early ones
}

// decide returns the decision for the next window: the size, its cause,
// and why ("" when it holds for no reason worth a log line).
//
// The rules are tried in order, the first that decides wins: a knee whose
// work changed is dropped; a step in flight is judged; failures that grow
// with the size are backed off from; a size outside the bounds is brought
// within them; then pressure grows the pool, and under-use shrinks it.
// A step judged to have paid does not end the tick: its verdict leads the
// reason of what the later rules decide.
func (l *law) decide(o Observation) decision {
	l.ticks++
	// A shrink is lazy: the workers above the new size end the tasks they
	// hold in the window after it, so its tasks ran beside as many as the
	// size before. A CPU-bound pool brought from 49 workers to 2 ends tasks
	// of 12ms in the next window, where its own take 0.5ms: against its
	// size of 2 that is other work (reworked), and so is the window after,
	// against that one.
	l.beside, l.last = max(o.Size, l.last), o.Size
	if o.Service > 0 {
		l.paced = [2]sample{l.paced[1], {service: o.Service, size: l.beside}}
	}
	if l.early {
		// The wake-up fired with every worker busy and a queue behind
		// them. A window this short is read from the few tasks that
		// ended in it; the long ones still running count for nothing.
		o.Busy = max(o.Busy, float64(min(o.BusyNow, o.Size)))
	} else {
		// The busy workers' wait for CPUs that have room is not load
		// (cpu.go); an early window's readings are too short to tell.
		sched := false
		if l.class != IOBound {
			o, sched = withoutSchedWait(o)
		}
		l.countRoomy(o, sched)
	}
	// The smoothing starts at the first window, and again at the first
	// full one when the windows before it were all early: an early window
	// is a few dozen tasks, too few to weigh as much as the windows after
	// it (sustained). Other work is a new start (reworked): the smoothing
	// restarts at its first full window.
	changed := l.reworked(o)
	l.prior = l.lambda
	if l.ticks == 1 || l.full == 0 && !l.early {
		l.busy, l.lambda = o.Busy, o.Lambda
	} else {
		l.busy = smoothing*o.Busy + (1-smoothing)*l.busy
		l.lambda = smoothing*o.Lambda + (1-smoothing)*l.lambda
	}
	if !l.early {
		if l.full == 0 {
			l.regular = o.Lambda
		} else {
			l.regular = smoothing*o.Lambda + (1-smoothing)*l.regular
		}
		l.full++
	}
	if backlogged(o) {
		l.drainAt = o.At
	}
	l.remember(o)
	l.variability(o)
	// An early window's mean is of the few tasks short enough to end
	// within it: it would pass for the least service time for eight
	// windows, and every growth after it for one past a knee.
	if o.Service > 0 && o.Completions > 0 && !l.early {
		l.recent = append(l.recent, sample{o.Service, l.beside, meanNoise(o)})
		if len(l.recent) > recentWindows {
			l.recent = l.recent[1:]
		}
	}
	l.watchServed(o)
	if d, ok := l.tried(o); ok {
		return l.done(o, noted(d, changed))
	}
	if l.early {
		// An early window is too short to judge the work by: its CPU and
		// scheduler readings are a few milliseconds' worth, and its
		// service times those of the short tasks. No knee is placed,
		// dropped or judged from it; it only sizes.
		return l.done(o, noted(l.size(o), changed))
	}
	if d, ok := l.expire(o); ok {
		return l.done(o, d)
	}
	if d, ok := l.cpuKnee(o); ok {
		return l.done(o, d)
	}
	d, ok, note := l.judge(o)
	if !ok {
		d = noted(l.size(o), note)
	}
	return l.done(o, noted(d, changed))
}

// noted leads d's reason with note, unless empty: a finding of the tick
// (the work changed, a step paid) that did not decide its size.
func noted(d decision, note string) decision {
	switch {
	case note == "":
	case d.reason == "":
		d.reason = note
	default:
		d.reason = note + "; " + d.reason
	}
	return d
}

// size is the law once no knee was dropped and no step awaits its
// verdict: failures, the bounds, then growth or shrinking.
func (l *law) size(o Observation) decision {
	lo, hi := l.bounds(o)
	if d, ok := l.failing(o, lo); ok {
		l.probe = nil
		return d
	}
	switch n := o.Size; {
	case n > hi:
		return decision{to: hi, cause: CauseBound, reason: fmt.Sprintf("above the ceiling %d", hi)}
	case n < lo:
		return decision{to: lo, cause: CauseBound, reason: fmt.Sprintf("below the floor %d", lo)}
	}
	steady, need := l.estimate(o)
	if l.pressure(o) {
		return l.grow(o, need, steady, lo, hi)
	}
	return l.shrink(o, lo)
}

// done keeps what every decision must: it is this tick's recommendation
// for the stabilisation window (unless the path already recorded its
// need), so that a shrink never undoes a recent growth before the window
// passes; and a change of size always has a reason, for the log.
//
// A silent hold (a step's verdict awaited) recommends nothing: it would
// keep the workers a backlog's drain added for a whole window.
func (l *law) done(o Observation, d decision) decision {
	silent := d.cause == CauseSteady && d.to == o.Size && d.reason == ""
	if n := len(l.recs); !silent && (n == 0 || !l.recs[n-1].at.Equal(o.At)) {
		to := d.to
		if backlogged(o) {
			// Held through a backlog's drain, the workers are the drain's;
			// the window keeps what the arrivals need (and so does the
			// shrink after it: drainAt).
			if a := l.need(o, l.lambda); a > 0 {
				to = min(to, a)
			}
		}
		l.recs = append(l.recs, rec{o.At, to})
	}
	if d.to != o.Size && d.reason == "" {
		d.reason = "adjust"
	}
	return d
}

// bounds returns the sizes the law may choose from in this observation.
func (l *law) bounds(o Observation) (lo, hi int) {
	hi = l.ceiling(o)
	if l.capped(o) {
		hi = min(hi, l.knee)
	}
	if l.class == CPUBound {
		// Work found CPU-bound is held below what the CPUs can use,
		// whatever a test of its knee from above makes of chance.
		hi = min(hi, cpuCeiling(o))
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
