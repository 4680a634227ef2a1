package ants

import (
	"errors"
	"fmt"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// Option sets one of the Options.
type Option func(opts *Options)

func loadOptions(options ...Option) *Options {
	opts := new(Options)
	for _, option := range options {
		if option != nil {
			option(opts)
		}
	}
	return opts
}

// Options holds everything a pool can be configured with.
type Options struct {
	// ExpiryDuration is how long a worker stays idle before it exits.
	// 0 means DefaultCleanIntervalTime; a negative duration is an error
	// matching ErrInvalidPoolExpiry, unless DisablePurge is set.
	ExpiryDuration time.Duration

	// PreAlloc starts the pool's workers when it is built, so that the
	// first tasks do not wait for goroutines to start. Unlike ants, the
	// pool stays resizable.
	PreAlloc bool

	// MaxBlockingTasks is the most submitters that may wait in Submit
	// while every worker is busy; the next one gets ErrPoolOverload.
	// 0 means no limit; a negative value is an error.
	MaxBlockingTasks int

	// Nonblocking makes Submit return ErrPoolOverload at once, instead of
	// waiting, when every worker is busy.
	Nonblocking bool

	// PanicHandler is called, on the worker, with the value of each
	// task's panic. Without it the panic and its stack are logged.
	PanicHandler func(any)

	// Logger receives the reports of panics that no handler takes. The
	// default writes to standard error with the prefix "[ants]: ".
	Logger Logger

	// DisablePurge keeps idle workers until the pool is released.
	DisablePurge bool
}

// WithOptions sets all the options at once.
func WithOptions(options Options) Option {
	return func(opts *Options) { *opts = options }
}

// WithExpiryDuration sets how long a worker stays idle before it exits.
func WithExpiryDuration(expiryDuration time.Duration) Option {
	return func(opts *Options) { opts.ExpiryDuration = expiryDuration }
}

// WithPreAlloc starts the pool's workers when it is built.
func WithPreAlloc(preAlloc bool) Option {
	return func(opts *Options) { opts.PreAlloc = preAlloc }
}

// WithMaxBlockingTasks limits how many submitters may wait in Submit.
func WithMaxBlockingTasks(maxBlockingTasks int) Option {
	return func(opts *Options) { opts.MaxBlockingTasks = maxBlockingTasks }
}

// WithNonblocking makes Submit return ErrPoolOverload instead of waiting.
func WithNonblocking(nonblocking bool) Option {
	return func(opts *Options) { opts.Nonblocking = nonblocking }
}

// WithPanicHandler sets the function called with each task's panic.
func WithPanicHandler(panicHandler func(any)) Option {
	return func(opts *Options) { opts.PanicHandler = panicHandler }
}

// WithLogger sets the logger for panics that no handler takes.
func WithLogger(logger Logger) Option {
	return func(opts *Options) { opts.Logger = logger }
}

// WithDisablePurge keeps idle workers until the pool is released.
func WithDisablePurge(disable bool) Option {
	return func(opts *Options) { opts.DisablePurge = disable }
}

// engineOptions validates size and the options, and translates them to the
// engine's. Every invalid input is reported, not just the first.
//
// Admission is ants': the engine has no queue (WithQueueSize(0)), so a
// task is accepted only when a worker starts it; a blocking Submit waits
// unaccepted, a non-blocking one is refused at once, and MaxBlockingTasks
// bounds the waiting submitters, as in ants.
func engineOptions(size int, options []Option) ([]pool.Option, error) {
	o := loadOptions(options...)
	var errs []error
	if size < 1 {
		errs = append(errs, fmt.Errorf("ants: pool size %d: %w (there is no unlimited pool; use DefaultAntsPoolSize for a practically unbounded one)", size, ErrInvalidPoolSize))
		if o.PreAlloc {
			errs = append(errs, ErrInvalidPreAllocSize)
		}
	} else if size > DefaultAntsPoolSize {
		errs = append(errs, fmt.Errorf("ants: pool size %d above %d: %w", size, DefaultAntsPoolSize, ErrInvalidPoolSize))
	}
	opts := []pool.Option{pool.WithPreAlloc(o.PreAlloc), pool.WithQueueSize(0)}
	switch {
	case o.MaxBlockingTasks < 0:
		errs = append(errs, fmt.Errorf("ants: MaxBlockingTasks %d is negative: %w", o.MaxBlockingTasks, ErrInvalidOption))
	case o.Nonblocking:
		opts = append(opts, pool.WithNonblocking(true))
	case o.MaxBlockingTasks > 0:
		opts = append(opts, pool.WithMaxBlockingTasks(o.MaxBlockingTasks))
	}
	if o.DisablePurge {
		opts = append(opts, pool.WithDisablePurge(true))
	} else if o.ExpiryDuration < 0 {
		errs = append(errs, fmt.Errorf("ants: expiry %v: %w", o.ExpiryDuration, ErrInvalidPoolExpiry))
	} else {
		opts = append(opts, pool.WithExpiryDuration(o.ExpiryDuration))
	}
	if o.PanicHandler != nil {
		opts = append(opts, pool.WithPanicHandler(o.PanicHandler))
	}
	logger := o.Logger
	if logger == nil {
		logger = defaultLogger
	}
	opts = append(opts, pool.WithLogger(logger))
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return opts, nil
}
