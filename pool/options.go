package pool

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/poolkit/poolkit/internal/engine"
)

// Option configures a pool at construction (New, NewFunc). Options are
// applied in order; when two set the same thing, the last one wins. A nil
// Option, or an option given an invalid value, makes New return an error
// matching ErrInvalidOption. Each constructor has its own option type
// (Option, KeyedOption, SchedulerOption), so that an option given to the
// wrong one does not compile; WithQueueSize and WithUnboundedQueue, which
// bound a queue, are options of all three.
type Option interface{ applyPool(*config) error }

// KeyedOption configures a Keyed at construction (NewKeyed): WithBudget,
// WithQueueSize and WithUnboundedQueue.
type KeyedOption interface{ applyKeyed(*layerConfig) error }

// SchedulerOption configures a Scheduler at construction (NewScheduler):
// WithMaxWait, WithQueueSize and WithUnboundedQueue.
type SchedulerOption interface{ applyScheduler(*layerConfig) error }

// config is what a pool's options build: the engine's configuration.
type config struct{ engine.Config }

// layerConfig is what a Keyed's or a Scheduler's options build.
type layerConfig struct {
	queueSize int           // the most tasks waiting; 0 with unbounded
	unbounded bool          // WithUnboundedQueue
	budget    int           // WithBudget's, for NewKeyed; 0: not given
	maxWait   time.Duration // WithMaxWait's, for NewScheduler; 0: no limit
}

// poolOption is an Option; keyedOption and schedulerOption are a Keyed's
// and a Scheduler's.
type (
	poolOption      func(*config) error
	keyedOption     func(*layerConfig) error
	schedulerOption func(*layerConfig) error
)

func (o poolOption) applyPool(c *config) error                { return o(c) }
func (o keyedOption) applyKeyed(c *layerConfig) error         { return o(c) }
func (o schedulerOption) applyScheduler(c *layerConfig) error { return o(c) }

// QueueOption bounds a queue: the pool's (given to New or NewFunc), a
// key's (NewKeyed) or a Scheduler's (NewScheduler). WithQueueSize and
// WithUnboundedQueue return one.
type QueueOption struct {
	size      int
	unbounded bool
}

func (o QueueOption) applyPool(c *config) error {
	if !o.unbounded {
		c.QueueSize = o.size
	}
	c.Unbounded = c.Unbounded || o.unbounded
	return o.check(0, "queue size")
}

func (o QueueOption) applyKeyed(c *layerConfig) error     { return o.applyLayer(c, "a key's") }
func (o QueueOption) applyScheduler(c *layerConfig) error { return o.applyLayer(c, "a scheduler's") }

func (o QueueOption) applyLayer(c *layerConfig, whose string) error {
	if o.unbounded {
		c.unbounded = true
		return nil
	}
	if err := o.check(1, whose+" queue size"); err != nil {
		return err
	}
	c.queueSize = o.size
	return nil
}

// check reports a size outside [least, maxQueueSize], naming it what.
func (o QueueOption) check(least int, what string) error {
	if !o.unbounded && (o.size < least || o.size > maxQueueSize) {
		return invalid("%s %d: want %d to %d", what, o.size, least, maxQueueSize)
	}
	return nil
}

// The defaults, written in the options that change them, and the bound
// of WithQueueSize.
const (
	defaultQueueSize   = 1024
	defaultIdleTimeout = time.Second
	maxQueueSize       = 1 << 20
)

func buildConfig(opts []Option) (config, error) {
	c := config{Config: engine.Config{
		QueueSize: defaultQueueSize,
		Expiry:    defaultIdleTimeout,
		Logf:      slog.Default().Error,
	}}
	for i, o := range opts {
		if o == nil {
			return c, fmt.Errorf("%w: option %d is nil", ErrInvalidOption, i)
		}
		if err := o.applyPool(&c); err != nil {
			return c, err
		}
	}
	if c.Unbounded && (c.Nonblocking || c.MaxBlocking > 0) {
		return c, invalid("WithUnboundedQueue never waits; it cannot be combined with WithMaxWaiting")
	}
	return c, nil
}

// buildLayerConfig applies a Keyed's or a Scheduler's options, each by
// apply (a nil option is an error).
func buildLayerConfig[O comparable](opts []O, apply func(O, *layerConfig) error) (layerConfig, error) {
	c := layerConfig{queueSize: defaultQueueSize}
	var none O
	for i, o := range opts {
		if o == none {
			return c, fmt.Errorf("%w: option %d is nil", ErrInvalidOption, i)
		}
		if err := apply(o, &c); err != nil {
			return c, err
		}
	}
	if c.unbounded {
		c.queueSize = 0
	}
	return c, nil
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidOption}, args...)...)
}

// WithQueueSize sets how many accepted tasks may wait for a free worker;
// the default is 1024. With 0 there is no queue: a task is accepted only
// when a worker can start it at once. The queue is a ring allocated whole
// at New, 64 bytes a task, so n may be at most 1<<20 (a backlog larger
// than that wants WithUnboundedQueue, whose overflow grows as it fills).
// A negative size, or one above that, is an error.
//
// Given to NewKeyed it sets the most tasks of one key that may wait to
// start, and to NewScheduler the most of the scheduler's tasks that may
// wait; there n must be at least 1.
func WithQueueSize(n int) QueueOption { return QueueOption{size: n} }

// WithUnboundedQueue makes a full queue grow instead of making submitters
// wait: Submit never waits for room and never returns ErrOverload. Tasks
// beyond the queue size wait, in submission order, in an overflow list
// that feeds the queue as it empties, and are counted in Stats.Waiting.
// Use it where the submitter must never wait and the number of waiting
// tasks is bounded by something else. It cannot be combined with
// WithMaxWaiting, which limits waiting that no longer happens.
//
// Given to NewKeyed it lifts the limit of a key's waiting tasks, and to
// NewScheduler the scheduler's own limit (the pool's queue still bounds
// its tasks).
func WithUnboundedQueue() QueueOption { return QueueOption{unbounded: true} }

// WithMaxWaiting limits how many callers may wait in Submit for room at
// once; past the limit Submit returns ErrOverload at once. With 0 no
// caller waits: a saturated pool refuses at once. The default is no
// limit. A negative value is an error.
func WithMaxWaiting(n int) Option {
	return poolOption(func(c *config) error {
		if n < 0 {
			return invalid("max waiting %d: want at least 0", n)
		}
		c.Nonblocking, c.MaxBlocking = n == 0, n
		return nil
	})
}

// WithIdleTimeout sets how long an idle worker waits for work before it
// exits; the default is one second. With 0 idle workers never expire
// (a shrink still retires those above the new capacity, and a close all
// of them). A negative duration is an error.
func WithIdleTimeout(d time.Duration) Option {
	return poolOption(func(c *config) error {
		if d < 0 {
			return invalid("idle timeout %v: want at least 0", d)
		}
		c.DisablePurge = d == 0
		if d > 0 {
			c.Expiry = d
		}
		return nil
	})
}

// WithMinWorkers starts n workers when the pool is built and never lets
// idle expiry take the pool below n live workers. Workers above the
// capacity still exit after a shrink. A negative value, or one above the
// pool's size, is an error.
func WithMinWorkers(n int) Option {
	return poolOption(func(c *config) error {
		if n < 0 {
			return invalid("min workers %d: want 0 to the pool's size", n)
		}
		c.MinWorkers = n
		return nil
	})
}

// WithPanicHandler sets the function called, on the worker goroutine, with
// the value of a task's panic. The worker goes on with the next task. The
// handler sees every panic, those that a Future (SubmitResult, Schedule)
// or a Group also reports to its Wait as a *PanicError included. When no
// handler is set (or h is nil), the pool logs, with its stack (WithLogger),
// each panic that no Future or Group reports, and only those: a reported
// panic is not logged. Either way the panic is counted in Stats.Panicked. A handler that panics in turn
// has its panic recovered and logged; one that calls runtime.Goexit ends
// its worker's goroutine, which is replaced, as for a task that does.
func WithPanicHandler(h func(any)) Option {
	return poolOption(func(c *config) error { c.PanicHandler = h; return nil })
}

// WithTimings makes the pool time its tasks: how long each waits to start
// and how long it runs, reported in Stats.Wait and Stats.Service. A task
// then costs two clock reads, and no lock, no allocation and no write to a
// word another goroutine writes; without it, one load of a flag when a
// task is submitted and one when it starts.
func WithTimings() Option {
	return poolOption(func(c *config) error { c.Timings = true; return nil })
}

// WithLogger sets the logger for the pool's own reports (a panic with no
// handler that no Future or Group reports to its Wait, a panic handler
// that panics); the default is slog.Default() at the time New is called. The pool calls it on a goroutine of its own: a
// handler that panics or calls runtime.Goexit loses its report and nothing
// else. A nil logger is an error; use slog.DiscardHandler to silence the
// pool.
func WithLogger(l *slog.Logger) Option {
	return poolOption(func(c *config) error {
		if l == nil {
			return invalid("nil logger")
		}
		c.Logf = l.Error
		return nil
	})
}
