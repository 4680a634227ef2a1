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

// errNilContext is returned by Run for a nil context.
var errNilContext = errors.New("autoscale: nil context")

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
func (c *Controller) Run(ctx context.Context) error {
	if ctx == nil {
		return errNilContext
	}
	t := time.NewTicker(c.tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			if d := c.Tick(); d.Err != nil {
				return d.Err
			}
		}
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
func (c *Controller) Tick() Decision {
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
	ld := c.law.decide(o)
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
