package autoscale

import (
	"math"
	"time"
)

// drainWindows: growth sizes for a backlog to drain within this many
// windows, besides the arrivals.
const drainWindows = 4

// estimate is what Little's law on the current mean service time asks for
// in o: steady, the workers the arrivals keep busy at the target
// utilisation; need, that with a backlog's drain added. Unless the window
// is saturated (a real backlog), the arrivals are taken at their smoothed
// rate: a few tasks more in one window is Poisson noise.
func (l *law) estimate(o Observation) (steady, need int) {
	lambda := o.Lambda
	if !o.Saturated() {
		lambda = l.lambda
	}
	steady = l.need(lambda, o.Service)
	// A backlog is drained within drainWindows windows: it adds its share
	// to the arrivals, for as long as it lasts.
	need = steady
	if backlogged(o) && o.Window > 0 {
		need = l.need(lambda+float64(o.Waiting())/(drainWindows*o.Window.Seconds()), o.Service)
	}
	return steady, need
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
