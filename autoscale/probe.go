package autoscale

import (
	"math"
	"time"
)

// baseSpread: a service time this many times the least of the recent
// windows is not the same work queueing a little more.
const baseSpread = 1.5

// probe is a step in size whose following windows say what it did:
// whether the workers a growth added bought throughput, whether a step
// down from a knee kept it. Its tests allow for chance, since one window's
// counts and means stray: a verdict drawn from noise would place a knee
// where there is none, or drop one that is there.
type probe struct {
	from, to int
	x0       float64       // throughput at from, in a saturated window; or what from serves saturated (capacityProbe)
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
	return &probe{from: o.Size, to: to, x0: o.Throughput, s0: o.Service, sBase: l.base(o.Service), noise0: meanNoise(o)}
}

// meanNoise is the relative variance of o's mean service time,
// (SD/mean)²/completions; +Inf with none.
func meanNoise(o Observation) float64 {
	if o.Service <= 0 || o.Completions == 0 {
		return math.Inf(1)
	}
	cv := float64(o.ServiceSD) / float64(o.Service)
	return cv * cv / float64(o.Completions)
}

// capacityProbe starts a probe of a growth decided in a window a backlog
// brought forward, with no step under way: that window is too short to
// compare the next one with (its throughput is of the few tasks that ended
// in a few milliseconds), so the step is judged against what the size
// before it serves saturated by Little's law, n workers over the last full
// window's mean service time at n. Without it, a leap an early window made
// (a burst read as a need of a hundred workers) would go unjudged: at the
// ceiling nothing else tests what the added workers bought. nil when the
// last full window ran at another size, or there is none.
func (l *law) capacityProbe(o Observation, to int) *probe {
	if len(l.recent) == 0 {
		return nil
	}
	r := l.recent[len(l.recent)-1]
	if r.size != o.Size || r.service <= 0 {
		return nil
	}
	return &probe{from: o.Size, to: to, x0: float64(o.Size) / r.service.Seconds(), s0: r.service, sBase: l.base(r.service), noise0: r.noise}
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

// sample is a window's mean service time and the most workers its tasks
// ran beside: its size, or the size before it where a shrink left workers
// ending their tasks in it.
type sample struct {
	service time.Duration
	size    int
	noise   float64 // the mean's relative variance: (SD/mean)²/completions
}

// least is the least mean service time of the recent windows; the largest
// Duration when there is none.
func (l *law) least() time.Duration {
	b := time.Duration(math.MaxInt64)
	for _, r := range l.recent {
		b = min(b, r.service)
	}
	return b
}
