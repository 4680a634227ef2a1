package autoscale

import (
	"fmt"
	"math"
	"time"
)

// shrinkBand is the least a shrink removes from a pool of n: a tenth of
// it, one worker at least. A need within a tenth of the size is the size
// give or take one window's noise; following it would walk the pool down
// a worker a tick and back up at the next queue.
func shrinkBand(n int) int { return max(1, n/10) }

// growBand is how far above n a need may lie and still be n, for a pool
// whose waits keep to the objective: a tenth of it, in whole workers, so
// none below 10 workers, where every worker is a tenth or more.
func growBand(n int) int { return n / 10 }

// memorySpan is how many stabilisation windows the memory spans: the law
// keeps the workers the highest arrival rate of that span keeps busy at the
// tasks' current service time, so that a lull shorter than it meets the
// next burst with the workers the last one needed, rather than a quarter
// of a second of queueing while the next growth catches up. Idle workers
// cost little; a burst met short costs the objective.
const memorySpan = 6

// rate is one tick's smoothed arrival rate, for the memory.
type rate struct {
	at     time.Time
	lambda float64
}

// remember records o's smoothed arrival rate and forgets those older than
// the memory's span.
//
// While work waits outside the pool (WithBacklog), and in the window after
// it emptied, the pool's arrivals are what it pulls, not the load: they
// are not remembered.
func (l *law) remember(o Observation) {
	pulled := l.pulled
	l.pulled = o.Backlog > 0
	if !l.pulled && !pulled && l.sustained() {
		// The lesser of the window's rate and the smoothed one: a rate
		// sustained over windows, not one window's burst, nor the
		// smoothing's trail after the rate fell.
		l.rates = append(l.rates, rate{o.At, min(l.lambda, o.Lambda)})
	}
	span := memorySpan * l.cfg.stabilization
	for len(l.rates) > 0 && o.At.Sub(l.rates[0].at) > span {
		l.rates = l.rates[1:]
	}
}

// lateRec is a growth for latency: when, the load then (load), and the
// size grown to.
type lateRec struct {
	at   time.Time
	load float64
	n    int
}

// lateKeep is how far the load may fall below the one a growth for
// latency was made at for the memory to keep its size: the same load,
// give or take its noise.
const lateKeep = 0.9

// load is the busy workers the smoothed arrival rate keeps busy at the
// tasks' usual service time: the load, in the terms of the work, so that
// arrivals of other work (a regime of short CPU tasks after one of long
// calls) are not taken for the same load.
func (l *law) load(o Observation) float64 { return l.lambda * l.usual(o).Seconds() }

// keptForLatency is the largest size a growth for latency went to within
// the memory's span at a load the current one still reaches (lateKeep):
// the objective's sizing (Erlang's formula) asked for fewer, and the waits
// said otherwise, at this load. Entries older than the span are
// forgotten.
func (l *law) keptForLatency(o Observation) int {
	span := memorySpan * l.cfg.stabilization
	for len(l.lateAt) > 0 && o.At.Sub(l.lateAt[0].at) > span {
		l.lateAt = l.lateAt[1:]
	}
	n, load := 0, l.load(o)
	for _, r := range l.lateAt {
		if load > 0 && load >= lateKeep*r.load {
			n = max(n, r.n)
		}
	}
	return n
}

// recalled is the size the memory keeps: the workers the highest arrival
// rate of its span keeps busy at the least recent mean service time (a
// rate measured while a knee inflated the service time would otherwise be
// counted at the inflated one), without headroom: enough that a burst
// meets a pool that serves it, if hotly, until the next tick sizes it;
// 0 with no service time known.
func (l *law) recalled(o Observation) int {
	s := l.least()
	if s <= 0 || s == time.Duration(math.MaxInt64) {
		return 0
	}
	peak := 0.0
	for _, r := range l.rates {
		peak = max(peak, r.lambda)
	}
	return int(math.Ceil(peak * s.Seconds()))
}

// rec is one tick's size recommendation, kept for the stabilisation
// window: a shrink goes no lower than the largest of the window's, so that
// it never undoes a recent growth before the window passes.
type rec struct {
	at time.Time
	n  int
}

// shrink follows the need down when the pool is under-used: to the
// largest need of the stabilisation window, a fraction of N per tick
// (CauseShrink); until the window allows it, a hold (CauseSteady).
func (l *law) shrink(o Observation, lo int) decision {
	n := o.Size
	want := n
	// The smoothed need, so that one quiet window removes no workers; but
	// within the stabilisation window of a growth, which the smoothing
	// trails, never below this window's.
	//
	// Workers busy draining the backlog a growth was for are not a need
	// once it is drained, and nor are those a pool held at its size
	// drained one with: there the arrivals' own load, λ·S, bounds it,
	// at the service time before a bottleneck the drain crowded inflated
	// it (see base); the smoothed busy trails a drain for several windows,
	// and each would be recorded.
	recent := o.At.Sub(l.grewAt) <= l.cfg.stabilization
	busy := l.busy
	if recent || o.At.Sub(l.drainAt) <= l.cfg.stabilization {
		busy = max(busy, o.Busy)
		if o.Service > 0 && o.Completions > 0 {
			busy = min(busy, max(l.lambda, o.Lambda)*l.base(o.Service).Seconds())
		}
	}
	idle := busy < l.cfg.low*float64(n)
	// Between the low mark and the target utilisation the pool drifts
	// down only under a load that has stopped growing: not within the
	// stabilisation window of a growth.
	//
	// Within that window, arrivals above their smoothed rate say the load
	// is still rising: the workers the last growth drained a backlog with
	// will be needed again, so they stay.
	settled := idle && !(recent && o.Lambda > l.lambda) || !recent
	if !backlogged(o) {
		want = min(n, max(lo, l.staff(o, busy)))
	}
	// The need is recorded whether or not the pool may drift down yet:
	// the wait after a growth is the stabilisation window once, not the
	// window followed by another of the size it held meanwhile.
	l.recs = append(l.recs, rec{o.At, want})
	for len(l.recs) > 0 && o.At.Sub(l.recs[0].at) > l.cfg.stabilization {
		l.recs = l.recs[1:]
	}
	if !settled {
		return hold(o, CauseSteady, "")
	}
	stable := max(l.recalled(o), l.keptForLatency(o))
	for _, r := range l.recs {
		stable = max(stable, r.n)
	}
	if stable <= n-shrinkBand(n) {
		return decision{to: stable, cause: CauseShrink, reason: fmt.Sprintf("utilisation %.2f: the largest need over %v is %d", o.Utilization(), l.cfg.stabilization, stable)}
	}
	if d, ok := l.tryFewer(o, lo); ok {
		return d
	}
	return hold(o, CauseSteady, "")
}

// sustained reports whether this tick's smoothed arrival rate is one the
// memory may keep: a rate smoothed over two full windows at least. An
// early window's is a few dozen arrivals, whose Poisson noise is a sixth
// of the rate, and the first full window's is that window's alone; either
// would hold the pool at a peak of noise for the memory's whole span.
func (l *law) sustained() bool { return l.full > 1 && !l.early }
