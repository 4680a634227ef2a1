package autoscale

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"github.com/poolkit/poolkit/internal/callback"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
)

// Decision is one tick of the controller: what it saw, what it set, why.
type Decision struct {
	Observation
	From, To int
	Cause    Cause  // the kind of decision
	Reason   string // why, in a sentence with the figures behind it
	Err      error  // from Resize, if it failed
}

// Stats is a snapshot of the controller.
type Stats struct {
	Size     int   // the target's capacity at the last tick (before it: when New was called)
	Min, Max int   // the bounds at the last tick, or at New (Max: WithMax, or 32 × GOMAXPROCS)
	Class    Class // what the controller has learned about the work
	Knee     int   // the size past which added workers bought nothing, or 0
	Ticks    uint64
	Resizes  uint64
	// Decisions counts the ticks by the cause of their decision; every
	// Cause is a key. Resizes that failed are counted too.
	Decisions map[Cause]uint64
	Last      Observation
	// BacklogErrors counts the ticks whose WithBacklog function failed.
	BacklogErrors uint64
}

// Controller drives a resize.Resizer from what its tasks do. Create one
// with New and call Run (or Tick, to drive it yourself). Given a poolkit
// pool (a SelfMeasuring target), it reads the pool's own counters and
// timings and needs nothing else; for another library's pool, wrap every
// task with Meter().Wrap and report every refused submission with
// Meter().Reject. Its methods are safe for concurrent use.
type Controller struct {
	r     resize.Resizer
	meter Meter
	tick  time.Duration

	mu        sync.Mutex // guards everything below; held for a whole tick
	law       law
	obs       *Observer
	log       []Decision // ring of the last cfg.logSize decisions
	logNext   int
	stats     Stats
	decisions map[Cause]uint64
	failed    uint64 // WithFailures' total at the last tick
}

// ErrNilTarget is returned by New for a nil Resizer.
var ErrNilTarget = errors.New("autoscale: nil target")

// ErrUntimed is returned by New for a poolkit pool that records no
// timings: the law sizes the pool from its tasks' service times and queue
// waits, which the pool measures only when built with pool.WithTimings.
var ErrUntimed = errors.New("autoscale: the pool records no timings: build it with pool.WithTimings()")

// New returns a controller for r. It does not start a goroutine; call Run.
func New(r resize.Resizer, opts ...Option) (*Controller, error) {
	if r == nil {
		return nil, ErrNilTarget
	}
	cfg := defaultConfig()
	for i, o := range opts {
		if o == nil {
			return nil, invalid("option %d is nil", i)
		}
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.max != 0 && cfg.max < cfg.min {
		return nil, invalid("max %d is below min %d", cfg.max, cfg.min)
	}
	if ceiling := defaultCeiling(runtime.GOMAXPROCS(0)); cfg.max == 0 && cfg.min > ceiling {
		return nil, invalid("min %d is above the default max, 32 × GOMAXPROCS = %d: set WithMax", cfg.min, ceiling)
	}
	c := &Controller{r: r, tick: cfg.tick, law: law{cfg: cfg, class: Unknown}, decisions: make(map[Cause]uint64, len(Causes))}
	var src source = &c.meter
	if p, ok := r.(SelfMeasuring); ok {
		if !p.Stats().Timed {
			return nil, ErrUntimed
		}
		src = poolSource{p}
	}
	c.obs = newObserver(src, time.Now())
	if cfg.failures != nil {
		c.failed, _ = readFailures(cfg.failures)
	}
	// Before the first tick the stats say where the controller starts,
	// not a pool of size 0.
	c.stats.Size, c.stats.Min = r.Cap(), cfg.min
	c.stats.Max = c.law.ceiling(Observation{GOMAXPROCS: runtime.GOMAXPROCS(0)})
	return c, nil
}

// Meter returns the meter whose tasks the controller watches when its
// target does not measure itself. For a SelfMeasuring target (poolkit's
// pools) the meter is not read: there is nothing to wrap.
func (c *Controller) Meter() *Meter { return &c.meter }

// Run ticks every WithTick interval until ctx is done, then returns
// ctx.Err(). It resizes the target only when the size changes. It ends
// early with the error of a Resize that fails, or with an error matching
// resize.ErrClosed when the target reports itself closed (through its
// Stats().Closed, or an IsClosed() bool method, as ants' pools have).
//
// A target that tells of a backlog as it forms (poolkit's pools:
// WaitBacklog) wakes Run between ticks: when twice as many tasks wait as
// the pool has workers (and two more), all busy, Run ticks at once, or as
// soon as the last tick is an eighth of a tick old (a window with too
// little in it says nothing), and the next tick comes a full interval
// later. Such a tick may grow the pool and never shrinks it. So a pool
// created too small, or met by a step in its load, grows within
// milliseconds, not a tick. A shorter queue is one the pool may absorb
// (chance arrivals make one at any high utilisation): the tick judges it.
// The wake-up is an edge: it is armed only by a tick that found no task
// waiting and no step awaiting its verdict, so a lasting backlog, or an
// experiment under way, is left to the ticks.
func (c *Controller) Run(ctx context.Context) error {
	if ctx == nil {
		return pool.ErrNilContext // as every poolkit call that takes a context
	}
	t := time.NewTimer(c.tick)
	defer t.Stop()
	// reset restarts t with nothing stale in its channel: the module's Go
	// floor predates timers whose Reset discards a value already sent.
	reset := func(d time.Duration) {
		if !t.Stop() {
			select {
			case <-t.C:
			default:
			}
		}
		t.Reset(d)
	}
	w := c.startWaker(ctx)
	defer w.stop()
	w.arm(wakeAt(c.r.Cap())) // a pool created too small grows before the first tick
	last := time.Now()
	for {
		kind := scheduled
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		case <-w.fired:
			kind = early
			if d := c.tick/8 - time.Since(last); d > 0 {
				reset(d)
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-t.C:
				}
			}
		}
		d := c.tickNow(kind)
		if d.Err != nil {
			return d.Err
		}
		last = time.Now()
		reset(c.tick)
		if d.Queue == 0 && d.Rejections == 0 && c.settled() {
			w.arm(wakeAt(c.r.Cap()))
		}
	}
}

// wakeAt is the backlog that wakes Run between ticks for a pool of size
// n: twice as many tasks waiting as there are workers, and two more. A
// shorter queue is one chance arrivals make at any high utilisation,
// which a pool of a few workers sees often: the tick judges it.
func wakeAt(n int) int { return 2*n + 2 }

// settled reports whether no step awaits its verdict: a tick before the
// next full window would judge it on too little.
func (c *Controller) settled() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.law.probe == nil
}

// backlogWaiter is a target that tells of a backlog as it forms:
// poolkit's pool.Pool and pool.FuncPool.
type backlogWaiter interface {
	WaitBacklog(ctx context.Context, n int) (int, error)
}

// waker waits, once armed, for the target's next backlog, and then fires
// once. Its goroutine lives as long as Run.
type waker struct {
	armed chan int      // Run arms it with the backlog to wait for (holds at most one)
	fired chan struct{} // nil when the target cannot tell of a backlog
	stop  func()        // ends the goroutine and waits for it
}

func (c *Controller) startWaker(ctx context.Context) *waker {
	bw, ok := c.r.(backlogWaiter)
	if !ok {
		return &waker{stop: func() {}}
	}
	w := &waker{armed: make(chan int, 1), fired: make(chan struct{})}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	w.stop = func() { cancel(); <-done }
	go func() {
		defer close(done)
		for {
			var n int
			select {
			case <-ctx.Done():
				return
			case n = <-w.armed:
			}
			if _, err := bw.WaitBacklog(ctx, n); err != nil {
				// Closed (the next tick ends Run) or Run is ending.
				return
			}
			select {
			case <-ctx.Done():
				return
			case w.fired <- struct{}{}:
			}
		}
	}()
	return w
}

// arm lets the waker fire once more, when n tasks wait; a waker already
// armed stays so.
func (w *waker) arm(n int) {
	if w.armed == nil {
		return
	}
	select {
	case w.armed <- n:
	default:
	}
}

// Tick observes the window since the previous tick, decides, and resizes
// the target if the size changes. Run calls it; call it yourself to drive
// the controller from your own loop.
//
// On a target that reports itself closed (poolkit's pools through
// Stats().Closed; other libraries' through an IsClosed method, as ants'
// pools have), Tick changes nothing, the controller's books included, and
// returns a Decision whose Err matches resize.ErrClosed and whose Cause is
// empty.
func (c *Controller) Tick() Decision { return c.tickNow(scheduled) }

// tickKind tells a tick on the interval from one a backlog brought forward.
type tickKind uint8

const (
	scheduled tickKind = iota // on the interval: the whole law
	early                     // a backlog formed: growth only
)

func (c *Controller) tickNow(kind tickKind) Decision {
	c.mu.Lock()
	defer c.mu.Unlock()
	size := c.r.Cap()
	if targetClosed(c.r) {
		return Decision{From: size, To: size, Err: errTargetClosed}
	}
	o := c.obs.observe(time.Now(), size)
	if f := c.law.cfg.backlog; f != nil {
		o.Backlog = c.readBacklog(f)
	}
	if f := c.law.cfg.failures; f != nil {
		total, ok := readFailures(f)
		if !ok {
			total = c.failed // a panicking counter reads as no new failures
		}
		if total >= c.failed { // a counter that went back (a restart) reads as none
			o.Failures = min(total-c.failed, o.Completions)
		}
		c.failed = total
	}
	c.law.early = kind == early
	ld := c.law.decide(o)
	c.law.early = false
	if kind == early && ld.to < size {
		// A short window after a backlog formed may show a lull of its
		// own; shrinking is the interval's work.
		ld = decision{to: size, cause: CauseSteady}
	}
	d := Decision{Observation: o, From: size, To: ld.to, Cause: ld.cause, Reason: ld.reason}
	if d.To != size {
		d.Err = c.r.Resize(d.To)
		if d.Err == nil {
			c.stats.Resizes++
			c.stats.Size = d.To
		}
	} else {
		c.stats.Size = size
	}
	c.stats.Ticks++
	c.decisions[d.Cause]++
	c.stats.Class, c.stats.Knee, c.stats.Last = c.law.class, c.law.knee, o
	c.stats.Min, c.stats.Max = c.law.cfg.min, c.law.ceiling(o)
	if d.Reason != "" || d.Err != nil {
		c.record(d)
		c.emit(d)
	}
	return d
}

// readBacklog calls f with a context that expires after one tick. A
// failure (an error or a panic), or a negative count, reads as no backlog.
// Requires c.mu.
func (c *Controller) readBacklog(f func(context.Context) (int, error)) int {
	ctx, cancel := context.WithTimeout(context.Background(), c.tick)
	defer cancel()
	n, err := callBacklog(ctx, f)
	if err != nil || n < 0 {
		c.stats.BacklogErrors++
		return 0
	}
	return n
}

// emit writes d to the WithLogger logger: a resize (or a failed one) at
// Info (Error), a hold with a reason at Debug. The logger is user code,
// called with c.mu held: it runs isolated, so that its panic or
// runtime.Goexit loses the record and nothing else.
func (c *Controller) emit(d Decision) {
	if lg := c.law.cfg.logger; lg != nil {
		callback.Isolated(func() { c.write(lg, d) })
	}
}

// write is emit's record. Requires c.mu (held by emit's caller, which
// waits for it).
func (c *Controller) write(lg *slog.Logger, d Decision) {
	level, msg := slog.LevelDebug, "autoscale: hold"
	switch {
	case d.Err != nil:
		level, msg = slog.LevelError, "autoscale: resize failed"
	case d.To != d.From:
		level, msg = slog.LevelInfo, "autoscale: resize"
	}
	ctx := context.Background()
	if !lg.Enabled(ctx, level) {
		return
	}
	o := d.Observation
	attrs := []slog.Attr{
		slog.Int("from", d.From), slog.Int("to", d.To), slog.String("cause", string(d.Cause)), slog.String("reason", d.Reason),
		slog.String("class", string(c.stats.Class)), slog.Int("knee", c.stats.Knee),
	}
	seen := []any{
		slog.Duration("window", o.Window),
		slog.Float64("lambda", o.Lambda), slog.Float64("throughput", o.Throughput),
		slog.Float64("busy", o.Busy), slog.Int("queue", o.Queue),
		slog.Uint64("rejections", o.Rejections),
		slog.Duration("wait_p50", o.WaitP50), slog.Duration("wait_p99", o.WaitP99),
		slog.Duration("service", o.Service), slog.Int("gomaxprocs", o.GOMAXPROCS),
		slog.Float64("cpu", o.CPU), slog.Float64("runnable", o.Runnable),
	}
	if c.law.cfg.backlog != nil {
		seen = append(seen, slog.Int("backlog", o.Backlog))
	}
	if c.law.cfg.failures != nil {
		seen = append(seen, slog.Uint64("failures", o.Failures))
	}
	attrs = append(attrs, slog.Group("observation", seen...))
	if d.Err != nil {
		attrs = append(attrs, slog.Any("error", d.Err))
	}
	lg.LogAttrs(ctx, level, msg, attrs...)
}

var errTargetClosed = fmt.Errorf("autoscale: target: %w", resize.ErrClosed)

// errBacklogFailed is what a WithBacklog function that panicked or called
// runtime.Goexit reads as.
var errBacklogFailed = errors.New("autoscale: backlog function panicked or exited")

// The backlog function and the failure counter are user code, called with
// c.mu held: they run isolated, so that a panic or runtime.Goexit in them
// reads as a failed reading and neither ends the caller (Run) nor leaves a
// tick half done.

func callBacklog(ctx context.Context, f func(context.Context) (int, error)) (n int, err error) {
	if r, exited := callback.Isolated(func() { n, err = f(ctx) }); r != nil || exited {
		return 0, errBacklogFailed
	}
	return n, err
}

// readFailures calls the WithFailures counter; ok is false if it panicked
// or called runtime.Goexit.
func readFailures(f func() uint64) (total uint64, ok bool) {
	r, exited := callback.Isolated(func() { total = f() })
	return total, r == nil && !exited
}

func (c *Controller) record(d Decision) {
	if len(c.log) < c.law.cfg.logSize {
		c.log = append(c.log, d)
		return
	}
	c.log[c.logNext] = d
	c.logNext = (c.logNext + 1) % len(c.log)
}

// Stats returns a snapshot of the controller.
func (c *Controller) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Decisions = make(map[Cause]uint64, len(Causes))
	for _, k := range Causes {
		s.Decisions[k] = c.decisions[k]
	}
	return s
}

// Log returns the recent decisions that changed the size or had a reason
// to hold it, oldest first.
func (c *Controller) Log() []Decision {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Decision, 0, len(c.log))
	out = append(out, c.log[c.logNext:]...)
	return append(out, c.log[:c.logNext]...)
}

// targetClosed reports whether r says it is closed: poolkit's pools in
// their Stats, other libraries' pools through an IsClosed method.
func targetClosed(r resize.Resizer) bool {
	switch t := r.(type) {
	case SelfMeasuring:
		return t.Stats().Closed
	case interface{ IsClosed() bool }:
		return t.IsClosed()
	}
	return false
}
