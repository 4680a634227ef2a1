// Package eval replays the same seeded, open-loop load through fixed pool
// sizes and through autoscaling controllers, and measures each run: the
// harness behind poolkit's autoscaler results. Runs use time.Now and
// time.Sleep, so a test can run the deterministic scenarios inside a
// testing/synctest bubble, in fake time, while those that need the CPU
// (RealTime) run in real time.
package eval

import (
	"context"
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
	Slots int
	// Timeout is how long a downstream call waits for a slot. Zero means
	// no limit: the downstream queues calls beyond its Slots inside itself,
	// first come first served (they wait in a blocked channel send, which
	// Go serves in FIFO order), and never rejects one.
	Timeout time.Duration
	// Slowdown, when set, multiplies a downstream call's duration by
	// Slowdown(t), t being when the call gets its slot: a downstream that
	// slows down for a while, whenever its callers' tasks arrived.
	Slowdown func(t time.Duration) float64
	// Optimum is the best size at t, where the scenario knows it (0: it
	// does not); settling and overshoot are measured against it.
	Optimum func(t time.Duration) int
	// Changes are the times the load changes, for settling times. A change
	// at 0 measures how the controllers find the optimum from their start
	// size (Initial, or theirs): a step up, unless Initial is above the
	// optimum.
	Changes []time.Duration
	// SLO is the p99 queue wait the scenario's users ask for: the
	// baselines that take one (AIMD) get it, and Beats counts meeting it.
	// The reference is chosen with RefWait, the same in every scenario.
	SLO time.Duration
	// RealTime marks scenarios that need real time: their work burns CPU,
	// or Hogs compete for it. They cannot run in a testing/synctest bubble
	// (a goroutine that never blocks would stop fake time).
	RealTime bool
	// Hogs is a number of goroutines of the same process that spin on the
	// CPU for the whole run, competing with the pool's workers: an
	// application busy with other work. They are stopped, and waited for,
	// before Run returns. A scenario with Hogs needs RealTime.
	Hogs int
	// Initial, when above 0, is the size every controller starts at instead
	// of its own Initial(): the pool is created at this size, and the
	// controller is told nothing. Fixed sizes keep their size.
	Initial int
	// MaxFixed is the largest fixed size the reference is searched among
	// (0: 64).
	MaxFixed int
	// Queue, when above 0, bounds the pool's queue: arrivals that find it
	// full are rejected (a service that sheds load rather than queue
	// without end). 0: a queue of 1<<16.
	Queue int
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
	// Start returns the meter to wrap tasks with, the function to call
	// every tick, and the function that stops a controller that drives
	// itself; r is the pool, already at its start size (Initial, or the
	// scenario's Initial). A nil meter means the controller reads the
	// pool's own measurements: the harness then submits tasks unwrapped and
	// never calls Reject (it still counts rejections for the Result). A
	// nil tick means the controller drives itself (poolkit's, as a service
	// runs it: Controller.Run); the harness calls stop, when not nil, once
	// the load has ended, before it closes the pool.
	Start(r resize.Resizer) (m *autoscale.Meter, tick func(), stop func())
	// Initial is the size to start at, unless the scenario sets one.
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

// Result is what one run measured. Durations are in nanoseconds in JSON.
type Result struct {
	Scenario   string        `json:"scenario"`
	Controller string        `json:"controller"`
	Arrivals   int           `json:"arrivals"`
	Completed  int           `json:"completed"`
	Rejected   int           `json:"rejected"`
	Throughput float64       `json:"throughput"` // completions per second
	WaitP50    time.Duration `json:"wait_p50"`
	WaitP99    time.Duration `json:"wait_p99"`
	// EndWaitP99 is the p99 end-to-end wait: the queue wait and the wait
	// for a downstream slot together, all a task waited before its own
	// work ran (a task whose call timed out waited its timeout). Workers
	// past a downstream's hidden limit move waiting from the pool's queue
	// into the downstream, where only this sees it. Equal to WaitP99 where
	// the work calls no downstream.
	EndWaitP99 time.Duration `json:"end_wait_p99"`
	// WorkerSeconds is the integral of the size over the run.
	WorkerSeconds float64 `json:"worker_seconds"`
	// Flaps counts direction reversals of the size per minute.
	Flaps float64 `json:"flaps_per_min"`
	// Resizes counts the changes of size the controller made while the
	// load lasted, each one, however soon another followed.
	Resizes int `json:"resizes"`
	// ResizesPerMinute is Resizes over the run's length in minutes.
	ResizesPerMinute float64 `json:"resizes_per_min"`
	// SettleUp and SettleDown are the longest settling times after the
	// scenario's steps up and down of its optimum: the time from the step
	// until the size stops moving (see settleTime). Never (-1) when it was
	// still moving at the end of a phase; 0 also when the scenario has no
	// such step (ScenarioResult.StepsUp and StepsDown tell which).
	SettleUp   time.Duration `json:"settle_up"`
	SettleDown time.Duration `json:"settle_down"`
	// Overshoot is the largest (size - optimum) / optimum after a step up.
	Overshoot float64 `json:"overshoot"`
	// Offset is where the size settled against the optimum, (level -
	// optimum) / optimum, the largest in magnitude over the phases that
	// settled: how far from the optimum the controller rests, which
	// settling time does not say. Nil when no phase settled, or the
	// scenario does not know its optimum.
	Offset *float64 `json:"offset,omitempty"`
	// Final is the size at the end of the run.
	Final int `json:"final"`
	// Series holds a sample per tick. It is what the plots draw and is not
	// written as JSON.
	Series []Point `json:"-"`
}

// Never is a settling time that did not happen: the size was still
// moving at the end of the phase.
const Never time.Duration = -1

// settleHold is the least time a size must stay still, at the end of a
// phase, to count as settled: a controller still ramping when the load
// changes again has not settled, however slowly it moves.
const settleHold = 2 * time.Second

// Run replays s once through c with the given seed.
func Run(s Scenario, c Controller, seed uint64) Result {
	if s.RealTime {
		// burn's rate is measured at its first call, for 40ms: here, before
		// the run's clock starts, not in the first task of a process's first
		// run, which would leave every task queued that long (a fake-time
		// bubble must not measure it: its clock stands still while a
		// goroutine spins).
		burnRate()
	}
	size := c.Initial()
	if _, fixed := c.(Fixed); !fixed && s.Initial > 0 {
		size = s.Initial
	}
	queue := 1 << 16
	if s.Queue > 0 {
		queue = s.Queue
	}
	p, err := pool.New(size, pool.WithQueueSize(queue), pool.WithMaxWaiting(0),
		pool.WithIdleTimeout(10*time.Second), pool.WithTimings())
	if err != nil {
		panic(err)
	}
	sized := &sized{Pool: p, size: size, since: time.Now()}
	m, tick, stop := c.Start(sized)
	if tick == nil {
		tick = func() {}
	}
	wrap := func(task func()) func() { return task }
	if m != nil {
		wrap = m.Wrap
	}
	down := make(chan struct{}, max(1, s.Slots))
	rng := rand.New(rand.NewPCG(seed, 1))
	var mu sync.Mutex
	var waits, endWaits []time.Duration
	var rejected, completed int
	reject := func() {
		if m != nil {
			m.Reject()
		}
		mu.Lock()
		rejected++
		mu.Unlock()
	}
	start := time.Now()
	call := func(d time.Duration) {
		if s.Slowdown != nil {
			d = time.Duration(float64(d) * s.Slowdown(time.Since(start)))
		}
		time.Sleep(d)
		<-down
	}
	// endWait records a task's end-to-end wait: its queue wait plus how
	// long it waited for a downstream slot since admit.
	endWait := func(wait time.Duration, admit time.Time) {
		mu.Lock()
		endWaits = append(endWaits, wait+time.Since(admit))
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
		admit := time.Now()
		if w.Downstream > 0 {
			if s.Timeout <= 0 {
				down <- struct{}{}
				endWait(wait, admit)
				call(w.Downstream)
			} else {
				t := time.NewTimer(s.Timeout)
				select {
				case down <- struct{}{}:
					t.Stop()
					endWait(wait, admit)
					call(w.Downstream)
				case <-t.C:
					endWait(wait, admit)
					reject()
					return
				}
			}
		} else {
			endWait(wait, admit)
		}
		mu.Lock()
		completed++
		mu.Unlock()
	}

	stopHogs := startHogs(s.Hogs)
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
			if err := p.Submit(context.Background(), wrap(func() { run(w, arrived) })); err != nil {
				reject()
			}
		}
		time.Sleep(time.Until(start.Add(el + step)))
	}
	ws, sizes := sized.end()
	close(done)
	ticker.Wait()
	if stop != nil {
		stop()
	}
	// Work still queued when the load ends was not served in time: count it
	// as rejected rather than let an undersized pool run on for minutes.
	unserved := len(p.ShutdownNow())
	_ = p.Shutdown(context.Background())
	stopHogs()
	mu.Lock()
	rejected += unserved
	mu.Unlock()

	r := Result{Scenario: s.Name, Controller: c.Name(), Arrivals: arrivals, Series: series}
	mu.Lock()
	r.Completed, r.Rejected = completed, rejected
	r.WaitP50, r.WaitP99 = percentile(waits, 0.5), percentile(waits, 0.99)
	r.EndWaitP99 = percentile(endWaits, 0.99)
	mu.Unlock()
	r.Throughput = float64(r.Completed) / s.Duration.Seconds()
	r.WorkerSeconds = ws
	r.resizes(s, sizes)
	r.summarise(s)
	return r
}

// sized is the pool as the controllers see it: it records every size they
// set, and when, so that a run's worker-seconds are the integral of its
// size and its resizes every change, not what a sample each tick saw (a
// shrink just before a sample would count for the whole tick, and a grow
// undone between two samples not at all).
type sized struct {
	*pool.Pool // and so SelfMeasuring, as the pool itself

	mu    sync.Mutex
	size  int       // the size since since
	since time.Time // zero once the load has ended
	ws    float64   // worker-seconds before since
	sizes []int     // the sizes set, the starting one first
}

func (s *sized) Resize(n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.Pool.Resize(n); err != nil || n == s.size || s.since.IsZero() {
		return err
	}
	now := time.Now()
	s.ws += float64(s.size) * now.Sub(s.since).Seconds()
	if len(s.sizes) == 0 {
		s.sizes = append(s.sizes, s.size)
	}
	s.sizes = append(s.sizes, n)
	s.size, s.since = n, now
	return nil
}

// end closes the record when the load ends: the worker-seconds until now,
// and the sizes set (empty where none changed). The controller's resizes
// after it, while the run stops, do not count.
func (s *sized) end() (float64, []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws := s.ws + float64(s.size)*time.Since(s.since).Seconds()
	s.since = time.Time{}
	return ws, s.sizes
}

// resizes counts the changes among sizes, and their reversals of direction.
func (r *Result) resizes(s Scenario, sizes []int) {
	dir, flips := 0, 0
	for i := 1; i < len(sizes); i++ {
		d := sign(sizes[i] - sizes[i-1])
		r.Resizes++
		if dir != 0 && d != dir {
			flips++
		}
		dir = d
	}
	r.Flaps = float64(flips) / s.Duration.Minutes()
	r.ResizesPerMinute = float64(r.Resizes) / s.Duration.Minutes()
}

func (r *Result) summarise(s Scenario) {
	if n := len(r.Series); n > 0 {
		r.Final = r.Series[n-1].Size
	}
	for _, ph := range s.phases() {
		var sizes []Point
		peak := 0
		for _, pt := range r.Series {
			if pt.T >= ph.start && pt.T < ph.end {
				sizes = append(sizes, pt)
				peak = max(peak, pt.Size)
			}
		}
		settled, level := settleTime(sizes, ph.start, ph.end, tolerance(ph.opt))
		worst := &r.SettleDown
		if ph.up {
			worst = &r.SettleUp
		}
		switch {
		case settled == Never:
			*worst = Never
		case *worst != Never:
			*worst = max(*worst, settled)
		}
		if settled != Never && ph.opt > 0 {
			if off := float64(level-ph.opt) / float64(ph.opt); r.Offset == nil || math.Abs(off) > math.Abs(*r.Offset) {
				r.Offset = &off
			}
		}
		if ph.up && ph.opt > 0 && peak > ph.opt {
			r.Overshoot = max(r.Overshoot, float64(peak-ph.opt)/float64(ph.opt))
		}
	}
}

// tolerance is how much a settled size may still vary, for a phase whose
// optimum is opt: 10% of it, and at least one worker.
func tolerance(opt int) int { return max(1, int(math.Ceil(0.1*float64(opt)))) }

// settleTime says when the samples of one phase, [start, end), stop moving:
// the time from start to the first sample from which every later sample
// of the phase lies within a range of tol workers, provided that lasts at
// least settleHold; else Never. level is the median size from then on
// (the size the run rests at), or 0 with Never.
//
// Settling is measured against the run's own resting size, not the
// scenario's optimum: a controller that reaches its size within a tick
// and holds it has settled within a tick, wherever it rests. How far that
// is from the optimum is the run's Offset.
func settleTime(samples []Point, start, end time.Duration, tol int) (settled time.Duration, level int) {
	if len(samples) == 0 {
		return Never, 0
	}
	lo, hi := samples[len(samples)-1].Size, samples[len(samples)-1].Size
	from := len(samples) - 1
	for i := len(samples) - 2; i >= 0; i-- {
		s := samples[i].Size
		if max(hi, s)-min(lo, s) > tol {
			break
		}
		lo, hi, from = min(lo, s), max(hi, s), i
	}
	if end-samples[from].T < settleHold {
		return Never, 0
	}
	still := make([]int, 0, len(samples)-from)
	for _, p := range samples[from:] {
		still = append(still, p.Size)
	}
	slices.Sort(still)
	return samples[from].T - start, still[len(still)/2]
}

// phase is a stretch of a scenario between two load changes.
type phase struct {
	start, end time.Duration
	opt        int  // the optimum size at start
	up         bool // the optimum rose at start (at 0: above s.Initial)
}

// phases are the stretches that follow the scenario's load changes, when
// it knows its optimum.
func (s Scenario) phases() []phase {
	if s.Optimum == nil {
		return nil
	}
	var out []phase
	for ci, ch := range s.Changes {
		end := s.Duration
		if ci+1 < len(s.Changes) {
			end = s.Changes[ci+1]
		}
		opt := s.Optimum(ch)
		up := s.Initial == 0 || opt > s.Initial
		if ch > 0 {
			up = opt > s.Optimum(ch-Tick)
		}
		out = append(out, phase{start: ch, end: end, opt: opt, up: up})
	}
	return out
}

func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}

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

// startHogs starts n goroutines that spin on the CPU until stop is
// called; stop waits for them and returns how many rounds of busy work
// they did (0 for n = 0).
func startHogs(n int) (stop func() uint64) {
	var quit atomic.Bool
	var rounds atomic.Uint64
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			x, k := uint64(1), uint64(0)
			for !quit.Load() {
				x = spin(x)
				k++
			}
			sinkBurn.Store(x)
			rounds.Add(k)
		})
	}
	return func() uint64 {
		quit.Store(true)
		wg.Wait()
		return rounds.Load()
	}
}

// burn does d's worth of computation: a fixed number of rounds, the
// number an idle core does in d (see burnRate). A wall-clock spin would
// finish sooner the more goroutines share the CPUs (a spin preempted for
// a while still ends on time), so oversubscribing them would seem to buy
// throughput that real CPU-bound work never gets.
func burn(d time.Duration) {
	n := int64(float64(d) * burnRate())
	x := uint64(1)
	for range n {
		x = spin(x)
	}
	sinkBurn.Store(x)
}

// spin is one round of burn's computation.
func spin(x uint64) uint64 {
	for range 200 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// burnRate is the rounds of spin a core does per nanosecond: the best of a
// few short timed runs, the best being the least disturbed. Measured once.
var burnRate = sync.OnceValue(func() float64 {
	best := 0.0
	x := uint64(1)
	for range 20 {
		start := time.Now()
		var n int
		for time.Since(start) < 2*time.Millisecond {
			for range 64 {
				x = spin(x)
			}
			n += 64
		}
		best = max(best, float64(n)/float64(time.Since(start)))
	}
	sinkBurn.Store(x)
	return best
})

var sinkBurn atomic.Uint64
