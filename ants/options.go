package ants

import (
	"errors"
	"fmt"
	"time"

	"github.com/poolkit/poolkit/internal/engine"
	"github.com/poolkit/poolkit/resize"
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

	// PreAlloc marks the pool pre-allocated, as in ants: it needs a size
	// of 1 or more, and Tune leaves its capacity alone (Resize does not).
	PreAlloc bool

	// MaxBlockingTasks is the most submitters that may wait in Submit
	// while every worker is busy; the next one gets ErrPoolOverload.
	// 0 means no limit; a negative value lets none wait, as in ants.
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

// WithPreAlloc marks the pool pre-allocated: as in ants, it needs a size,
// and Tune leaves its capacity alone. (ants allocates its workers' queue
// up front; the engine needs none, so nothing else changes.)
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

// engineConfig is what a constructor builds its engine from.
type engineConfig struct {
	size      int // the engine's capacity
	unlimited bool
	preAlloc  bool
	engine    engine.Config
}

// engineOptions validates size and the options, and translates them to the
// engine's. Every invalid input is reported, not just the first.
//
// Sizes are ants': one below 1 is an unlimited pool, and so is one above
// math.MaxInt32, which ants stores truncated to 32 bits (math.MaxInt
// becomes -1, unlimited). An unlimited pool runs on an engine of capacity
// resize.MaxSize and reports Cap() and Free() as -1. WithPreAlloc needs a
// size, as in ants.
//
// Admission is ants': the engine has no queue (WithQueueSize(0)), so a
// task is accepted only when a worker starts it; a blocking Submit waits
// unaccepted, a non-blocking one is refused at once, and MaxBlockingTasks
// bounds the waiting submitters, as in ants (a negative bound refuses
// every submitter that would wait, as ants' check does).
func engineOptions(size int, options []Option) (engineConfig, error) {
	o := loadOptions(options...)
	c := engineConfig{size: size, preAlloc: o.PreAlloc}
	var errs []error
	if size < 1 || size > resize.MaxSize {
		c.size, c.unlimited = resize.MaxSize, true
		if o.PreAlloc {
			errs = append(errs, ErrInvalidPreAllocSize)
		}
	}
	// ants' PreAlloc allocates the workers' queue, not the workers: they
	// start with the tasks, as in any pool, and Running counts them so.
	// Its worker leaves the pool when its task panics, as ants' does.
	c.engine = engine.Config{QueueSize: 0, LeaveOnPanic: true, Expiry: DefaultCleanIntervalTime, PanicHandler: o.PanicHandler}
	switch {
	case o.Nonblocking || o.MaxBlockingTasks < 0:
		c.engine.Nonblocking = true
	case o.MaxBlockingTasks > 0:
		c.engine.MaxBlocking = o.MaxBlockingTasks
	}
	switch {
	case o.DisablePurge:
		c.engine.DisablePurge = true
	case o.ExpiryDuration < 0:
		errs = append(errs, fmt.Errorf("ants: expiry %v: %w", o.ExpiryDuration, ErrInvalidPoolExpiry))
	case o.ExpiryDuration > 0:
		c.engine.Expiry = o.ExpiryDuration
	}
	logger := o.Logger
	if logger == nil {
		logger = defaultLogger
	}
	c.engine.Logf = func(msg string, args ...any) { logger.Printf("%s %v", msg, args) }
	switch len(errs) {
	case 0:
		return c, nil
	case 1:
		return engineConfig{}, errs[0] // ants' own value, as ants returns it
	}
	return engineConfig{}, errors.Join(errs...)
}
