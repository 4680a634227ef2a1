package engine

import (
	"errors"
	"time"

	"github.com/poolkit/poolkit/resize"
)

// Config is what an engine is built with: package pool fills it from its
// options, package ants from ants' options, package actorpool itself. It
// is read, never written, once Init has taken it.
type Config struct {
	QueueSize    int           // units the ring holds waiting for a worker
	MaxBlocking  int           // submitters that may block at once; 0: no limit
	Expiry       time.Duration // an idle worker exits after this long
	MinWorkers   int           // workers kept alive, idle ones included, and started at Init
	PanicHandler func(any)     // nil: report through Logf
	// Logf reports the engine's own troubles (a panic with no handler, a
	// panicking handler): msg, then key/value pairs, as slog.Logger.Error.
	Logf func(msg string, args ...any)
	// RunLocal, when set, runs each unit in place of Init's run, with its
	// worker's local value (CallerLocal), which a unit that chains other
	// work on its worker records there; the local value of a worker that
	// runs another's unit in its place (HelpCaller, a blocked Submit from
	// inside a unit) is restored after.
	RunLocal     func(v any, local *any)
	Nonblocking  bool // a submitter that finds no room is refused, never blocks
	Unbounded    bool // units that do not fit the ring wait in an overflow list
	DisablePurge bool // idle workers never exit
	Timings      bool // units are timed from the start (SetTimings)
	// LeaveOnPanic makes a worker whose unit panicked leave the pool
	// before the panic handler runs, as ants' worker does: the pool then
	// counts one worker less, and the next unit starts a fresh one.
	LeaveOnPanic bool
}

// blocksWithoutLimit reports whether a submitter that finds no room waits
// for it for as long as its context allows, rather than being refused or
// spilling into the overflow list.
func (c Config) blocksWithoutLimit() bool {
	return !c.Nonblocking && c.MaxBlocking == 0 && !c.Unbounded
}

// The engine's errors, and the bad-input errors its front-ends share.
// Packages pool and actorpool export ErrClosed, ErrInsideTask,
// ErrInvalidOption and ErrNilContext as one value each
// (docs/vocabulary.md), hence the texts that name neither; the kinds are the resize package's, so that code
// driving several pools matches one set.
var (
	// ErrClosed: the engine is closed; the unit was not accepted.
	ErrClosed error = &kindError{msg: "poolkit: closed", kind: resize.ErrClosed}
	// ErrOverload: the engine is saturated and the submitter may not wait.
	ErrOverload error = &kindError{msg: "pool: overloaded", kind: resize.ErrOverload}
	// ErrInsideTask: a wait for the engine's life to end, called from
	// inside one of its units, which that life includes.
	ErrInsideTask = errors.New("poolkit: cannot wait from inside a task for the pool or system that runs it")
	// ErrInvalidOption: a nil option, an option given an invalid value, or
	// a nil pool or system where one is built on it.
	ErrInvalidOption = errors.New("poolkit: invalid option")
	// ErrNilContext: a nil context given to a call that may wait.
	ErrNilContext = errors.New("poolkit: nil context")
)

type kindError struct {
	msg  string
	kind error
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }
