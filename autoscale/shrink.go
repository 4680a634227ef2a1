package autoscale

import (
	"fmt"
	"math"
	"time"
)

// shrinkStep is the largest fraction of N removed per tick.
const shrinkStep = 0.2

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
		return hold(o, CauseSteady, "")
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
		return decision{to: to, cause: CauseShrink, reason: fmt.Sprintf("utilisation %.2f: the largest need over %v is %d", o.Utilization(), l.cfg.stabilization, stable)}
	}
	return hold(o, CauseSteady, "")
}
