package pool

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/poolkit/poolkit/internal/enginehook"
)

// Option configures a pool at construction. Options are applied in order;
// when two set the same thing, the last one wins. A nil Option, or an
// option given an invalid value, makes New return an error matching
// ErrInvalidOption.
type Option func(*config) error

// Logger is the logging interface of ants, kept so that a logger written
// for ants works unchanged. See also WithSlog.
type Logger interface {
	Printf(format string, args ...any)
}

// DefaultQueueSize is the number of accepted tasks a pool holds waiting for
// a free worker when WithQueueSize is not given.
const DefaultQueueSize = 1024

// DefaultExpiryDuration is how long a worker stays idle before it exits
// when WithExpiryDuration is not given.
const DefaultExpiryDuration = time.Second

type config struct {
	queueSize    int
	maxBlocking  int
	expiry       time.Duration
	minWorkers   int
	panicHandler func(any)
	logf         func(msg string, args ...any) // structured: msg, then key/value pairs
	runLocal     func(v any, local *any)       // enginehook.RunLocal
	nonblocking  bool
	unbounded    bool
	disablePurge bool
	preAlloc     bool
	timings      bool
	leaveOnPanic bool // enginehook.LeaveOnPanic: ants' workers leave after a panic
}

func init() {
	enginehook.LeaveOnPanic = Option(func(c *config) error { c.leaveOnPanic = true; return nil })
	enginehook.RunLocal = func(run func(v any, local *any)) any {
		return Option(func(c *config) error { c.runLocal = run; return nil })
	}
}

func defaultConfig() config {
	return config{
		queueSize: DefaultQueueSize,
		expiry:    DefaultExpiryDuration,
		logf:      slog.Default().Error,
	}
}

func buildConfig(opts []Option) (config, error) {
	c := defaultConfig()
	for i, o := range opts {
		if o == nil {
			return c, fmt.Errorf("%w: option %d is nil", ErrInvalidOption, i)
		}
		if err := o(&c); err != nil {
			return c, err
		}
	}
	if c.unbounded && (c.nonblocking || c.maxBlocking > 0) {
		return c, invalid("WithUnboundedQueue never blocks; it cannot be combined with WithNonblocking or WithMaxBlockingTasks")
	}
	return c, nil
}

// blocksWithoutLimit reports whether a submitter that finds no room waits
// for it for as long as its context allows, rather than being refused or
// spilling into the overflow list.
func (c config) blocksWithoutLimit() bool {
	return !c.nonblocking && c.maxBlocking == 0 && !c.unbounded
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidOption}, args...)...)
}

// WithQueueSize sets how many accepted tasks may wait for a free worker.
// The default is DefaultQueueSize. With 0 there is no queue: a task is
// accepted only when a worker can start it at once, which is ants'
// behaviour (a blocking Submit then waits for a free worker, and
// WithNonblocking rejects as soon as every worker is busy). A negative size
// is an error.
func WithQueueSize(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return invalid("queue size %d is negative", n)
		}
		c.queueSize = n
		return nil
	}
}

// WithNonblocking makes Submit, SubmitContext and Invoke return
// ErrPoolOverload instead of blocking when the pool is saturated: every
// worker busy and the queue full. The default is false (block).
func WithNonblocking(nonblocking bool) Option {
	return func(c *config) error { c.nonblocking = nonblocking; return nil }
}

// WithUnboundedQueue makes a full queue grow instead of blocking or
// rejecting: Submit and Invoke never wait for room and never return
// ErrPoolOverload. Tasks beyond the queue size wait, in submission order,
// in an overflow list that feeds the queue as it empties, and are counted
// in Waiting. Use it where the submitter must never block and the number
// of waiting tasks is bounded by something else (an actor dispatcher
// schedules each actor at most once at a time, so it holds at most one
// task per live actor). It cannot be combined with WithNonblocking(true)
// or WithMaxBlockingTasks, which limit blocking that no longer happens.
func WithUnboundedQueue() Option {
	return func(c *config) error { c.unbounded = true; return nil }
}

// WithMaxBlockingTasks limits how many callers may be blocked in Submit at
// once; past the limit Submit returns ErrPoolOverload. The default, 0, is
// no limit. It has no effect with WithNonblocking(true). A negative value
// is an error.
func WithMaxBlockingTasks(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return invalid("max blocking tasks %d is negative", n)
		}
		c.maxBlocking = n
		return nil
	}
}

// WithExpiryDuration sets how long an idle worker waits for work before it
// exits. 0 means DefaultExpiryDuration, as in ants; a negative duration is
// an error.
func WithExpiryDuration(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return invalid("expiry duration %v is negative", d)
		}
		if d == 0 {
			d = DefaultExpiryDuration
		}
		c.expiry = d
		return nil
	}
}

// WithDisablePurge keeps idle workers alive until the pool is released,
// instead of letting them exit after the expiry duration.
func WithDisablePurge(disable bool) Option {
	return func(c *config) error { c.disablePurge = disable; return nil }
}

// WithPreAlloc starts Cap() workers when the pool is built, so the first
// tasks do not pay for starting goroutines. Unlike ants, it does not
// disable resizing; the pre-started workers expire when idle like any
// others unless WithDisablePurge or WithMinWorkers keeps them.
func WithPreAlloc(preAlloc bool) Option {
	return func(c *config) error { c.preAlloc = preAlloc; return nil }
}

// WithMinWorkers starts n workers when the pool is built and keeps at least
// n idle workers from expiring. Workers above the capacity still exit after
// a shrink. A negative value, or one above the pool's size, is an error.
func WithMinWorkers(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return invalid("min workers %d is negative", n)
		}
		c.minWorkers = n
		return nil
	}
}

// WithPanicHandler sets the function called, on the worker goroutine, with
// the value of a task's panic. The worker goes on with the next task. When
// no handler is set (or h is nil), the panic and its stack are logged.
// Either way the panic is counted in Stats. A handler that panics in turn
// has its panic recovered and logged; one that calls runtime.Goexit ends
// its worker's goroutine, which is replaced, as for a task that does.
func WithPanicHandler(h func(any)) Option {
	return func(c *config) error { c.panicHandler = h; return nil }
}

// WithTimings makes the pool time its tasks from construction on: how long
// each waits to start and how long it runs, reported by Timings. It is
// SetTimings(true) from the start; see SetTimings for what is measured and
// what it costs.
func WithTimings() Option {
	return func(c *config) error { c.timings = true; return nil }
}

// WithLogger sets an ants-style logger for the pool's own reports (panics
// without a handler). The pool calls a logger on a goroutine of its own: one
// that panics or calls runtime.Goexit loses its report and nothing else. A nil logger is an error; use WithSlog with a
// discarding handler to silence the pool.
func WithLogger(l Logger) Option {
	return func(c *config) error {
		if l == nil {
			return invalid("nil logger")
		}
		c.logf = func(msg string, args ...any) {
			l.Printf("%s %v", msg, args)
		}
		return nil
	}
}

// WithSlog sets a structured logger for the pool's own reports. The default
// is slog.Default() at the time New is called. A nil logger is an error.
func WithSlog(l *slog.Logger) Option {
	return func(c *config) error {
		if l == nil {
			return invalid("nil slog logger")
		}
		c.logf = l.Error
		return nil
	}
}
