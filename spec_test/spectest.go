// Package spectest is poolkit's conformance suite: one check per clause of
// SPEC.md's conformance part, runnable against any Go worker pool. It runs
// over poolkit's own pool and, through the adapters in package compat,
// over ants, poolkit's drop-in replacement for ants, pond and tunny; the
// results make MATRIX.md.
//
// To check a pool of your own, wrap it in the Pool interface (plus the
// optional capabilities it has) and call Run from a test:
//
//	func TestMyPool(t *testing.T) {
//		spectest.Run(t, spectest.Implementation{
//			Name: "mypool",
//			New:  func(c spectest.Config) (spectest.Pool, error) { return newMyAdapter(c.Size) },
//		})
//	}
//
// Each clause runs as a subtest named for its ID. A clause whose
// capability the pool lacks is skipped as not applicable. A clause listed
// in Implementation.Known is an expected failure: it runs in a child
// process, is reported as skipped while it still fails, and fails the test
// once it passes, so a fixed divergence is noticed.
package spectest

import (
	"context"
	"time"

	"github.com/poolkit/poolkit/resize"
)

// Pool is the least a pool must offer to be checked.
type Pool interface {
	// Submit hands task to the pool. It returns nil once the task is
	// accepted; it may block while the pool is saturated. It returns an
	// error matching pool.ErrPoolClosed on a closed pool, and
	// pool.ErrPoolOverload when a non-blocking pool rejects the task.
	Submit(task func()) error
	// Release closes the pool and waits, bounded by ctx, until every
	// accepted task has finished and the pool's goroutines have exited.
	Release(ctx context.Context) error
}

// ContextSubmitter is a Pool whose submissions can be bounded by a context.
type ContextSubmitter interface {
	SubmitContext(ctx context.Context, task func()) error
}

// Resizer is a Pool whose capacity changes at run time.
type Resizer = resize.Resizer

// Gauges is a Pool that reports running tasks and waiting submissions.
type Gauges interface {
	Running() int
	Waiting() int
}

// Completer is a Pool that counts finished tasks.
type Completer interface {
	Completed() uint64
}

// Abandoner is a Pool with an abandoning close that hands back the
// accepted tasks that have not started.
type Abandoner interface {
	ReleaseNow() []func()
}

// Rebooter is a Pool that a close does not end for good: Reboot reopens a
// released pool once the workers of its previous life have exited (called
// from one of those workers, it cannot wait for its own, and the pool
// reopens when that task has returned). On an open pool it does nothing.
type Rebooter interface {
	Reboot()
}

// Feature is a construction option an implementation may honour.
type Feature string

// The features a clause may need.
const (
	Nonblocking  Feature = "nonblocking"
	MaxBlocking  Feature = "maxblocking"
	Expiry       Feature = "expiry"
	PanicHandler Feature = "panichandler"
)

// Config is what a clause asks of a new pool. Zero values mean the
// implementation's defaults.
type Config struct {
	Size         int
	Nonblocking  bool
	MaxBlocking  int
	Expiry       time.Duration
	PanicHandler func(any)
}

// Implementation describes a pool to check.
type Implementation struct {
	Name string
	// New builds a pool. It is called inside the clause, often inside a
	// testing/synctest bubble.
	New func(Config) (Pool, error)
	// Features lists the Config fields New honours (Size always).
	Features map[Feature]bool
	// Isolate runs every clause in a child process, for pools that crash
	// the process or keep package-level state across tests.
	Isolate bool
	// Known maps clause IDs to divergences the implementation is known to
	// have, each with its evidence. Those clauses are expected to fail.
	Known map[string]string
	// Notes maps clause IDs to remarks for the matrix, such as a guard in
	// the adapter that a pass depends on.
	Notes map[string]string
}

// Status is a clause's outcome for one implementation.
type Status string

// The outcomes.
const (
	Pass  Status = "pass"
	Fail  Status = "fail"  // unexpected failure: the suite fails
	XFail Status = "xfail" // known divergence, still present
	XPass Status = "xpass" // known divergence that no longer shows: the suite fails
	NA    Status = "n.a."  // the implementation lacks a capability the clause needs
)

// Result is one cell of the matrix.
type Result struct {
	Impl   string
	Clause string
	Status Status
	Note   string
}
