// Package eval replays the same seeded, open-loop load through fixed pool
// sizes and through autoscaling controllers, and measures each run: the
// harness behind poolkit's autoscaler results. Runs use time.Now and
// time.Sleep, so a test can run the deterministic scenarios inside a
// testing/synctest bubble, in fake time, while the CPU-bound ones run in
// real time.
package eval

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
)

// Work is what one task does.
type Work struct {
	CPU        time.Duration // busy computation
	Downstream time.Duration // a call to the scenario's downstream service
}

// Scenario is a load to replay.
type Scenario struct {
	Name     string
	Duration time.Duration
	// Rate is the offered load, in tasks per second, at t.
	Rate func(t time.Duration) float64
	// Work draws the work of a task arriving at t.
	Work func(t time.Duration, rng *rand.Rand) Work
	// Slots is the downstream's concurrency; calls beyond it wait, and
	// time out after Timeout, which counts as a rejection.
	Slots   int
	Timeout time.Duration
	// Optimum is the best size at t, where the scenario knows it (0: it
	// does not); settling and overshoot are measured against it.
	Optimum func(t time.Duration) int
	// Changes are the times the load changes, for settling times.
	Changes []time.Duration
	// SLO is the p99 queue wait a size must keep to qualify as the oracle.
	SLO time.Duration
	// CPUBound marks scenarios whose work burns CPU: they need real time.
	CPUBound bool
	// Grid is the fixed sizes the oracle is chosen from (nil: FixedSizes).
	Grid []int
	// Procs, when set, changes the number of CPUs the process may use
	// during the run: at each Procs.At[i] it calls Procs.Set(Procs.N[i]).
	// The harness never sets GOMAXPROCS itself; the application running it
	// passes runtime.GOMAXPROCS here if it wants this scenario.
	Procs *ProcsChange
}

// ProcsChange is a schedule of GOMAXPROCS changes for a scenario.
type ProcsChange struct {
	At  []time.Duration
	N   []int
	Set func(n int)
}

// Controller sizes a pool during a run.
type Controller interface {
	Name() string
	// Start returns the meter to wrap tasks with and the function to call
	// every tick; r is the pool, already at Initial size.
	Start(r resize.Resizer) (m *autoscale.Meter, tick func())
	// Initial is the size to start at.
	Initial() int
}

// Tick is how often controllers decide and sizes are sampled.
const Tick = 250 * time.Millisecond

// Point is one sample of a run.
type Point struct {
	T       time.Duration
	Size    int
	Offered float64 // tasks per second
	WaitP99 time.Duration
}

// Result is what one run measured.
type Result struct {
	Scenario, Controller string
	Arrivals, Completed  int
	Rejected             int
	Throughput           float64 // completions per second
	WaitP50, WaitP99     time.Duration
	WorkerSeconds        float64 // the integral of the size over the run
	Flaps                float64 // direction reversals of the size per minute
	Resizes              int
	SettleUp, SettleDown time.Duration // the longest settling after a step up / down (-1: never, 0: none)
	Overshoot            float64       // the largest (size - optimum) / optimum after a change
	Series               []Point
}

// Run replays s once through c with the given seed.
func Run(s Scenario, c Controller, seed uint64) Result {
	p, err := pool.New(c.Initial(), pool.WithQueueSize(1<<16), pool.WithNonblocking(true),
		pool.WithExpiryDuration(10*time.Second))
	if err != nil {
		panic(err)
	}
	m, tick := c.Start(p)
	down := make(chan struct{}, max(1, s.Slots))
	rng := rand.New(rand.NewPCG(seed, 1))
	var mu sync.Mutex
	var waits []time.Duration
	var rejected, completed int
	reject := func() {
		m.Reject()
		mu.Lock()
		rejected++
		mu.Unlock()
	}
	run := func(w Work, arrived time.Time) {
		wait := time.Since(arrived)
		mu.Lock()
		waits = append(waits, wait)
		mu.Unlock()
		if w.CPU > 0 {
			burn(w.CPU)
		}
		if w.Downstream > 0 {
			t := time.NewTimer(s.Timeout)
			select {
			case down <- struct{}{}:
				t.Stop()
				time.Sleep(w.Downstream)
				<-down
			case <-t.C:
				reject()
				return
			}
		}
		mu.Lock()
		completed++
		mu.Unlock()
	}

	start := time.Now()
	done := make(chan struct{})
	if pc := s.Procs; pc != nil {
		go func() {
			for i, at := range pc.At {
				select {
				case <-done:
					return
				case <-time.After(time.Until(start.Add(at))):
					pc.Set(pc.N[i])
				}
			}
		}()
	}
	var series []Point
	var ticker sync.WaitGroup
	ticker.Go(func() {
		t := time.NewTicker(Tick)
		defer t.Stop()
		var lastWaits int
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				tick()
				el := now.Sub(start)
				mu.Lock()
				recent := slices.Clone(waits[lastWaits:])
				lastWaits = len(waits)
				mu.Unlock()
				series = append(series, Point{T: el, Size: p.Cap(), Offered: s.Rate(el), WaitP99: percentile(recent, 0.99)})
			}
		}
	})

	// Open loop: arrivals follow the rate whatever the pool does, in 1ms
	// steps, each with a Poisson number of arrivals.
	const step = time.Millisecond
	arrivals := 0
	for el := time.Duration(0); el < s.Duration; el += step {
		for range poisson(rng, s.Rate(el)*step.Seconds()) {
			arrivals++
			w := s.Work(el, rng)
			arrived := time.Now()
			if err := p.Submit(m.Wrap(func() { run(w, arrived) })); err != nil {
				reject()
			}
		}
		time.Sleep(time.Until(start.Add(el + step)))
	}
	close(done)
	ticker.Wait()
	// Work still queued when the load ends was not served in time: count it
	// as rejected rather than let an undersized pool run on for minutes.
	unserved := len(p.ReleaseNow())
	_ = p.ReleaseTimeout(time.Hour)
	mu.Lock()
	rejected += unserved
	mu.Unlock()

	r := Result{Scenario: s.Name, Controller: c.Name(), Arrivals: arrivals, Series: series}
	mu.Lock()
	r.Completed, r.Rejected = completed, rejected
	r.WaitP50, r.WaitP99 = percentile(waits, 0.5), percentile(waits, 0.99)
	mu.Unlock()
	r.Throughput = float64(r.Completed) / s.Duration.Seconds()
	r.summarise(s)
	return r
}

func (r *Result) summarise(s Scenario) {
	dir := 0
	flips := 0
	for i, pt := range r.Series {
		r.WorkerSeconds += float64(pt.Size) * Tick.Seconds()
		if i == 0 {
			continue
		}
		d := pt.Size - r.Series[i-1].Size
		if d != 0 {
			r.Resizes++
			if nd := sign(d); dir != 0 && nd != dir {
				flips++
			}
			dir = sign(d)
		}
	}
	r.Flaps = float64(flips) / s.Duration.Minutes()
	if s.Optimum == nil {
		return
	}
	for ci, ch := range s.Changes {
		end := s.Duration
		if ci+1 < len(s.Changes) {
			end = s.Changes[ci+1]
		}
		opt := s.Optimum(ch)
		up := ch == 0 || opt > s.Optimum(ch-Tick)
		tol := max(1, int(math.Ceil(0.1*float64(opt))))
		settled := time.Duration(-1)
		peak := 0
		for _, pt := range r.Series {
			if pt.T < ch || pt.T >= end {
				continue
			}
			peak = max(peak, pt.Size)
			if abs(pt.Size-opt) > tol {
				settled = -1
			} else if settled < 0 {
				settled = pt.T - ch
			}
		}
		worst := &r.SettleDown
		if up {
			worst = &r.SettleUp
		}
		switch {
		case settled < 0:
			*worst = -1
		case *worst >= 0:
			*worst = max(*worst, settled)
		}
		if up && opt > 0 && peak > opt {
			r.Overshoot = max(r.Overshoot, float64(peak-opt)/float64(opt))
		}
	}
}

func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}

func abs(x int) int { return max(x, -x) }

func percentile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}

// poisson draws a Poisson-distributed count with mean mu (Knuth's method,
// fine for the small means of a 1ms step).
func poisson(rng *rand.Rand, mu float64) int {
	if mu <= 0 {
		return 0
	}
	if mu > 30 {
		return max(0, int(math.Round(mu+math.Sqrt(mu)*rng.NormFloat64())))
	}
	l, k, p := math.Exp(-mu), 0, 1.0
	for {
		p *= rng.Float64()
		if p <= l {
			return k
		}
		k++
	}
}

// burn spins for about d of CPU time (wall time on an idle core).
func burn(d time.Duration) {
	end := time.Now().Add(d)
	x := uint64(1)
	for time.Now().Before(end) {
		for range 200 {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
	}
	sinkBurn.Store(x)
}

var sinkBurn atomic.Uint64
