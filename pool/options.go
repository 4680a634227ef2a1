package pool

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/poolkit/poolkit/internal/engine"
)

// Option configures a pool at construction. Options are applied in order;
// when two set the same thing, the last one wins. A nil Option, or an
// option given an invalid value, makes New return an error matching
// ErrInvalidOption.
type Option func(*config) error

// config is what the options build: the engine's configuration, a
// Keyed's budget and a Scheduler's max wait (their queue size is
// QueueSize, their lack of bound Unbounded).
type config struct {
	engine.Config
	budget    int           // WithBudget's, for NewKeyed; 0: not given
	maxWait   time.Duration // WithMaxWait's, for NewScheduler; 0: no limit
	poolOnly  string        // the last option given that configures a pool only, for NewKeyed's and NewScheduler's error
	schedOnly string        // the last option given that configures a Scheduler only, for New's and NewKeyed's error
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
		if err := o(&c); err != nil {
			return c, err
		}
	}
	if c.Unbounded && (c.Nonblocking || c.MaxBlocking > 0) {
		return c, invalid("WithUnboundedQueue never waits; it cannot be combined with WithMaxWaiting")
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
func WithQueueSize(n int) Option {
	return func(c *config) error {
		if n < 0 || n > maxQueueSize {
			return invalid("queue size %d is outside [0, %d]", n, maxQueueSize)
		}
		c.QueueSize = n
		return nil
	}
}

// WithUnboundedQueue makes a full queue grow instead of making submitters
// wait: Submit never waits for room and never returns ErrOverload. Tasks
// beyond the queue size wait, in submission order, in an overflow list
// that feeds the queue as it empties, and are counted in Stats.Waiting.
// Use it where the submitter must never wait and the number of waiting
// tasks is bounded by something else. It cannot be combined with
// WithMaxWaiting, which limits waiting that no longer happens.
func WithUnboundedQueue() Option {
	return func(c *config) error { c.Unbounded = true; return nil }
}

// WithMaxWaiting limits how many callers may wait in Submit for room at
// once; past the limit Submit returns ErrOverload at once. With 0 no
// caller waits: a saturated pool refuses at once. The default is no
// limit. A negative value is an error.
func WithMaxWaiting(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return invalid("max waiting %d is negative", n)
		}
		c.Nonblocking, c.MaxBlocking = n == 0, n
		c.poolOnly = "WithMaxWaiting"
		return nil
	}
}

// WithIdleTimeout sets how long an idle worker waits for work before it
// exits; the default is one second. With 0 idle workers never expire
// (a shrink still retires those above the new capacity, and a close all
// of them). A negative duration is an error.
func WithIdleTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return invalid("idle timeout %v is negative", d)
		}
		c.DisablePurge = d == 0
		c.poolOnly = "WithIdleTimeout"
		if d > 0 {
			c.Expiry = d
		}
		return nil
	}
}

// WithMinWorkers starts n workers when the pool is built and never lets
// idle expiry take the pool below n live workers. Workers above the
// capacity still exit after a shrink. A negative value, or one above the
// pool's size, is an error.
func WithMinWorkers(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return invalid("min workers %d is negative", n)
		}
		c.MinWorkers = n
		c.poolOnly = "WithMinWorkers"
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
	return func(c *config) error { c.PanicHandler, c.poolOnly = h, "WithPanicHandler"; return nil }
}

// WithTimings makes the pool time its tasks: how long each waits to start
// and how long it runs, reported in Stats.Wait and Stats.Service. A task
// then costs two clock reads, and no lock, no allocation and no write to a
// word another goroutine writes; without it, one load of a flag when a
// task is submitted and one when it starts.
func WithTimings() Option {
	return func(c *config) error { c.Timings, c.poolOnly = true, "WithTimings"; return nil }
}

// WithLogger sets the logger for the pool's own reports (a panic with no
// handler, a panic handler that panics); the default is slog.Default() at
// the time New is called. The pool calls it on a goroutine of its own: a
// handler that panics or calls runtime.Goexit loses its report and nothing
// else. A nil logger is an error; use slog.DiscardHandler to silence the
// pool.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		if l == nil {
			return invalid("nil logger")
		}
		c.Logf, c.poolOnly = l.Error, "WithLogger"
		return nil
	}
}
