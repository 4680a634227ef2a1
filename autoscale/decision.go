package autoscale

// Cause is the kind of a decision: a small set, fit to count decisions by
// (Stats.Decisions) and to label a metric with, where a Decision's Reason
// is a sentence with its figures.
type Cause string

// The causes of decisions.
const (
	// CauseGrow: pressure, and the law grew the pool.
	CauseGrow Cause = "grow"
	// CauseLatency: the p99 queue wait broke the objective (WithTargetWait,
	// or by default a few service times) where the size suffices by
	// Little's law, and the law grew the pool for latency.
	CauseLatency Cause = "latency"
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
var Causes = []Cause{CauseGrow, CauseLatency, CauseShrink, CauseKnee, CauseBound, CauseWorkChanged, CauseHoldBurst, CauseHoldLimit, CauseSteady, CauseFailing}

// decision is what the law concludes from one window. Every path of the
// law returns one whole, its cause named where the size is chosen: the
// controller counts and logs exactly what the path that decided said, and
// a path added later cannot leave the cause of an earlier tick in place.
type decision struct {
	to     int    // the size for the next window
	cause  Cause  // never empty: a hold with nothing to report is CauseSteady
	reason string // a sentence with the figures; "" for a hold not worth a log line
}

// hold keeps o's size.
func hold(o Observation, c Cause, reason string) decision {
	return decision{to: o.Size, cause: c, reason: reason}
}
