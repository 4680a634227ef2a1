package autoscale

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
)

// Option configures a Controller. Options are applied in order; when two
// set the same thing the last one wins. A nil Option or an invalid value
// makes New return an error matching ErrInvalidOption.
type Option func(*config) error

// ErrInvalidOption is matched by the error New returns for a nil option or
// an option given an invalid value. It is pool.ErrInvalidOption (and
// actorpool's), one value for code that builds several (docs/vocabulary.md).
var ErrInvalidOption = pool.ErrInvalidOption

type config struct {
	min, max       int // max 0: 32 × GOMAXPROCS, read every tick
	tick           time.Duration
	targetWait     time.Duration // the latency objective; 0: waitMultiple service times (sizing.go)
	utilization    float64       // u: at least R/u workers for a load of R ≤ 4 busy workers (law.staff)
	high, low      float64       // utilisation marks for growth and shrinking
	stabilization  time.Duration
	backoff        float64 // β
	logSize        int
	memoryHeadroom float64 // stop growing above this fraction of the memory limit
	logger         *slog.Logger
	backlog        func(context.Context) (int, error)
	failures       func() uint64
}

func defaultConfig() config {
	return config{
		min:            1,
		tick:           250 * time.Millisecond,
		utilization:    1,
		high:           0.85,
		low:            0.65,
		stabilization:  5 * time.Second,
		backoff:        0.9,
		logSize:        256,
		memoryHeadroom: 0.9,
	}
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidOption}, args...)...)
}

// WithMin sets the smallest size the controller sets (default 1). Without
// WithMax it may not exceed the default max, 32 × GOMAXPROCS when New is
// called: New reports it.
func WithMin(n int) Option {
	return func(c *config) error {
		if n < 1 || n > resize.MaxSize {
			return invalid("min %d: want 1 to %d", n, resize.MaxSize)
		}
		c.min = n
		return nil
	}
}

// WithMax sets the I/O-bound ceiling: the largest size the controller sets
// for work that keeps gaining from more workers. The default is 32 ×
// GOMAXPROCS, read on every tick; set it from what the work waits on (the
// connections a downstream allows, the memory a worker needs). Work found
// to be CPU-bound is held below ceil(1.5 × GOMAXPROCS) whatever this says.
func WithMax(n int) Option {
	return func(c *config) error {
		if n < 1 || n > resize.MaxSize {
			return invalid("max %d: want 1 to %d", n, resize.MaxSize)
		}
		c.max = n
		return nil
	}
}

// WithTick sets how often the controller observes and decides (default
// 250ms).
func WithTick(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return invalid("tick %v: want more than 0", d)
		}
		c.tick = d
		return nil
	}
}

// WithTargetWait sets the latency objective: the p99 queue wait the
// controller keeps. It sizes the pool for it (Erlang's C formula for the
// load) and counts a window whose p99 wait broke it, with work still
// queued, as pressure. The default, 0, is four times the tasks' mean
// service time (at least 10ms). Work past a knee (the CPUs, a downstream's
// limit) gets no workers for latency: there they would only queue.
func WithTargetWait(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return invalid("target wait %v: want at least 0", d)
		}
		c.targetWait = d
		return nil
	}
}

// WithUtilization sets the highest utilisation the controller sizes for,
// headroom beyond what the latency objective asks (default 1: the
// objective alone decides): a load that keeps R workers busy gets at
// least R/u workers up to R = 4, and beyond it R + 2(1/u − 1)√R
// (square-root staffing), which runs large pools hotter than u.
func WithUtilization(u float64) Option {
	return func(c *config) error {
		if !(u > 0 && u <= 1) {
			return invalid("utilization %v: want more than 0 and at most 1", u)
		}
		c.utilization = u
		return nil
	}
}

// WithStabilization sets how long a shrink waits: the controller applies
// the largest size recommended over this window (default 5s). Six such
// windows are its memory: it keeps the workers the highest sustained
// arrival rate of that span needs, so that bursts with shorter lulls
// between them find the workers waiting.
func WithStabilization(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return invalid("stabilization %v: want at least 0", d)
		}
		c.stabilization = d
		return nil
	}
}

// WithLogSize sets how many decisions Log keeps (default 256).
func WithLogSize(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return invalid("log size %d: want at least 1", n)
		}
		c.logSize = n
		return nil
	}
}

// WithLogger makes the controller write every decision it logs (see
// Controller.Log) as a structured record to l: a resize at Info, a failed
// one at Error, a hold with a reason at Debug, each with the sizes (from,
// to), the reason, what it has learned (class, knee) and the observation
// behind it. A nil l is an error. The logger runs on a goroutine of its
// own, so that one that panics or calls runtime.Goexit loses its record and
// nothing else.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		if l == nil {
			return invalid("nil logger")
		}
		c.logger = l
		return nil
	}
}

// WithBacklog gives the controller the work that waits outside its target:
// the messages a broker holds for a consumer that pulls only what the pool
// can start (natsrunner), a partition's lag. Such work never shows as a
// queue in the pool, so without it the controller sees busy workers and no
// one waiting. f is called once a tick, after the window closes, with a
// context that expires after one tick, and returns how many items wait;
// the controller counts them as queued (Observation.Backlog): pressure
// when the workers are busy, growth sized to drain them within four
// windows besides the arrivals, a probe's window saturated. When f fails,
// the window has no backlog (no growth on a guess) and Stats.BacklogErrors
// counts it; an f that panics or calls runtime.Goexit (it runs on a
// goroutine of its own) fails so too. A nil f is an error.
func WithBacklog(f func(ctx context.Context) (int, error)) Option {
	return func(c *config) error {
		if f == nil {
			return invalid("nil backlog function")
		}
		c.backlog = f
		return nil
	}
}

// WithFailures gives the controller a count of the tasks that failed so
// far (a handler's errors, a broker's naks): f returns a running total,
// read once a tick. When a tenth or more of a window's tasks fail, and
// the rate is clearly higher than at a smaller size, the controller goes
// back to that size and caps growth there for a while, as for a knee (a
// downstream pushed too hard answers with errors); a rate the same at
// every size (poison messages, a dependency that is down) leaves the size
// to the other signals. With no other size measured yet it steps down by
// a tenth to find out. Failed tasks must be counted among the completed
// ones. f runs on a goroutine of its own: one that panics or calls
// runtime.Goexit reads as no new failures. A nil f is an error.
func WithFailures(f func() uint64) Option {
	return func(c *config) error {
		if f == nil {
			return invalid("nil failures function")
		}
		c.failures = f
		return nil
	}
}
