package autoscale

import (
	"fmt"
	"math"
	"time"
)

// Failures as a congestion signal. A downstream pushed past what it can
// take often answers with errors (timeouts, 429s, refused connections)
// rather than with slower calls, and then the service time says nothing:
// the failure rate does. But a failure rate is a signal to back off only
// when it grows with the number of workers; poison messages and a
// dependency that is simply down fail at every size, and backing off from
// them only starves the work that succeeds. So the law keeps each size's
// recent failure rate and compares:
//
//   - failing at this size, and a smaller size failed clearly less: go
//     back to the largest such size and cap growth there for kneeTTL;
//   - another size, smaller or larger, failed about as much: the failures
//     do not depend on the size, and the law goes on as if there were
//     none (they are neither pressure nor a reason to shrink);
//   - no other size measured yet: step down by β, and let the window at
//     the smaller size tell which of the two it is.
const (
	// failLimit is the failure rate from which the law looks at failures.
	failLimit = 0.1
	// failMargin is the least difference of rates that counts as clearly
	// less, besides three standard errors.
	failMargin = 0.05
	// failSample is the fewest completions a window must have for its
	// failure rate to count.
	failSample = 20
	// failDecay weighs a size's past counts each time it is measured
	// again, so that its rate follows the present.
	failDecay = 0.5
)

// failRec is a size's recent failures and completions, decayed.
type failRec struct {
	failures, completions float64
	at                    time.Time // when the size was last measured
}

func (r failRec) rate() float64 { return r.failures / r.completions }

// failing applies the rule above to a window, and reports whether it
// decided: the size to back off to, with CauseFailing.
func (l *law) failing(o Observation, lo int) (decision, bool) {
	if l.cfg.failures == nil || o.Completions < failSample {
		return decision{}, false
	}
	n := o.Size
	if l.failAt == nil {
		l.failAt = make(map[int]failRec)
	}
	r := l.failAt[n]
	r.failures = failDecay*r.failures + float64(o.Failures)
	r.completions = failDecay*r.completions + float64(o.Completions)
	r.at = o.At
	l.failAt[n] = r
	for size, rr := range l.failAt { // forget sizes not measured for long
		if o.At.Sub(rr.at) > kneeTTL {
			delete(l.failAt, size)
		}
	}
	rate := float64(o.Failures) / float64(o.Completions)
	if rate < failLimit {
		return decision{}, false
	}
	margin := max(failMargin, 3*math.Sqrt(rate*(1-rate)/float64(o.Completions)))
	better, same := 0, false
	for size, rr := range l.failAt {
		if size == n || rr.completions < failSample {
			continue
		}
		switch {
		case size < n && rr.rate()+margin < rate:
			better = max(better, size)
		case math.Abs(rr.rate()-rate) < margin:
			same = true
		}
	}
	switch {
	case better > 0:
		l.failCap, l.failUntil = better, o.At.Add(kneeTTL)
		to := max(lo, better)
		return decision{to: to, cause: CauseFailing, reason: fmt.Sprintf("failure rate %.2f at %d against %.2f at %d: back to %d", rate, n, l.failAt[better].rate(), better, to)}, true
	case same:
		return decision{}, false
	case n > lo:
		to := max(lo, min(n-1, int(math.Floor(l.cfg.backoff*float64(n)))))
		return decision{to: to, cause: CauseFailing, reason: fmt.Sprintf("failure rate %.2f at %d, no other size measured: stepping down to %d to see whether it depends on the size", rate, n, to)}, true
	}
	return decision{}, false
}

// failCapped reports whether failures cap growth now.
func (l *law) failCapped(o Observation) bool { return l.failCap > 0 && !o.At.After(l.failUntil) }
