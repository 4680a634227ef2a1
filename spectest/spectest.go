// Package spectest is poolkit's conformance suite: one check per clause of
// SPEC.md's conformance part, runnable against any Go worker pool. It runs
// over poolkit's own pool and, through the adapters in package compat,
// over ants, poolkit's drop-in replacement for ants, pond, tunny, conc,
// errgroup and workerpool; the results make MATRIX.md.
//
// A pool of your own needs nothing of poolkit's but this package and
// package resize: wrap it in the Pool interface (plus the optional
// capabilities it has), have it return errors matching resize.ErrClosed,
// resize.ErrOverload and resize.ErrInvalidSize, and call Check from a test:
//
//	func TestMyPool(t *testing.T) {
//		err := spectest.Check(t, spectest.Implementation{
//			Name: "mypool",
//			New:  func(c spectest.Config) (spectest.Pool, error) { return newMyPool(c.Size) },
//		})
//		if err != nil {
//			t.Error(err)
//		}
//	}
//
// Check returns the verdict as an error, as log/slog/slogtest's
// TestHandler does: nil when every clause passes, does not apply, or is an
// expected failure; else one *ClauseError per failing clause, naming it and
// saying what it saw, joined with errors.Join. It does not mark t failed. A
// clause needs a *testing.T of its own (testing/synctest.Test takes one),
// and a failing subtest fails its parent, so Check runs every clause in a
// child process, the test binary rerunning the calling test with that
// clause alone: a process per clause, which also turns a pool that panics,
// crashes or hangs into one failed clause.
//
// Run is the other entry point: every clause as a visible subtest of t
// (named "<ID>-<slug>"), failing t as clauses fail, returning one Result
// per clause; compat's tests use it to build the matrix, and a Report
// holds the results of several implementations as data (JSON-ready).
//
// Either way, a clause whose capability the pool lacks is not applicable.
// A clause listed in Implementation.Known is an expected failure: it runs
// in a child process and counts as a failure if it passes, so a fixed
// divergence is noticed.
package spectest

import (
	"context"
	"strconv"
	"time"

	"github.com/poolkit/poolkit/resize"
)

// Pool is the least a pool must offer to be checked. Its errors are
// matched by the kinds of package resize, which any pool can return
// without importing poolkit's pool package (whose errors match them too).
type Pool interface {
	// Submit hands task to the pool. It returns nil once the task is
	// accepted; it may block while the pool is saturated. It returns an
	// error matching resize.ErrClosed on a closed pool, and one matching
	// resize.ErrOverload when the pool rejects the task because it is
	// saturated and will not wait (non-blocking, or enough callers wait
	// already).
	Submit(task func()) error
	// Shutdown closes the pool and waits, bounded by ctx, until every
	// accepted task has finished and the pool's goroutines have exited.
	Shutdown(ctx context.Context) error
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
	ShutdownNow() []func()
}

// Rebooter is a Pool that a close does not end for good: Reboot reopens a
// released pool once the workers of its previous life have exited (called
// from one of those workers, it cannot wait for its own, and the pool
// reopens when that task has returned). On an open pool it does nothing.
type Rebooter interface {
	Reboot()
}

// Capability is something a clause may need of an implementation beyond
// Pool: an optional interface its pools implement (SubmitContext through
// Reboot), found by building one pool and asserting it, or a construction
// option New honours (Nonblocking through PanicHandler, one per Config
// field other than Size), which Implementation.Supports reports. A clause
// that needs a capability the implementation lacks does not apply. It is
// the one vocabulary of capabilities for this suite and for package
// compat's adapters, whose Supports methods take it.
type Capability uint8

// The capabilities. String gives each one's name as reports show it.
const (
	SubmitContext  Capability = iota + 1 // ContextSubmitter
	Resize                               // Resizer
	RunningWaiting                       // Gauges
	Completed                            // Completer
	ShutdownNow                          // Abandoner
	Reboot                               // Rebooter

	Nonblocking  // Config.Nonblocking
	MaxBlocking  // Config.MaxBlocking
	Expiry       // Config.Expiry
	PanicHandler // Config.PanicHandler
)

// capabilityNames are the names that reports and MATRIX.md have always
// shown: methods for interfaces, lower-case Config fields for options.
var capabilityNames = [...]string{
	SubmitContext:  "SubmitContext",
	Resize:         "Resize",
	RunningWaiting: "Running/Waiting",
	Completed:      "Completed",
	ShutdownNow:    "ShutdownNow",
	Reboot:         "Reboot",
	Nonblocking:    "nonblocking",
	MaxBlocking:    "maxblocking",
	Expiry:         "expiry",
	PanicHandler:   "panichandler",
}

// String returns the capability's name: "Resize", "Running/Waiting",
// "nonblocking", ...; for a value that is no capability, "Capability(n)".
func (c Capability) String() string {
	if int(c) < len(capabilityNames) && capabilityNames[c] != "" {
		return capabilityNames[c]
	}
	return "Capability(" + strconv.Itoa(int(c)) + ")"
}

// option reports whether c is a construction option, which
// Implementation.Supports answers for, rather than an interface, which a
// probe pool answers for.
func (c Capability) option() bool { return c >= Nonblocking && c <= PanicHandler }

// of reports whether p has the interface c names; the suite wraps pools,
// so p must be the implementation's own.
func (c Capability) of(p Pool) bool {
	var ok bool
	switch c {
	case SubmitContext:
		_, ok = p.(ContextSubmitter)
	case Resize:
		_, ok = p.(Resizer)
	case RunningWaiting:
		_, ok = p.(Gauges)
	case Completed:
		_, ok = p.(Completer)
	case ShutdownNow:
		_, ok = p.(Abandoner)
	case Reboot:
		_, ok = p.(Rebooter)
	}
	return ok
}

// Config is what a clause asks of a new pool. Zero values mean the
// implementation's defaults; a field the implementation does not support
// (see Implementation.Supports) is ignored.
type Config struct {
	Size         int           // the capacity; passed on as it is, below 1 included
	Nonblocking  bool          // reject with an overload error instead of blocking when saturated
	MaxBlocking  int           // most callers blocked in Submit (0: no limit); past it, an overload error
	Expiry       time.Duration // how long an idle worker lives
	PanicHandler func(any)     // called with a task's panic value
}

// Implementation describes a pool to check.
type Implementation struct {
	Name string
	// New builds a pool. It is called inside the clause, often inside a
	// testing/synctest bubble.
	New func(Config) (Pool, error)
	// Supports reports which construction options (the Capability
	// constants Nonblocking, MaxBlocking, Expiry and PanicHandler) New
	// honours; it is asked about no other capability, and nil means none.
	// A clause that needs an option New does not honour does not apply.
	Supports func(Capability) bool
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

// supports reports whether impl honours the construction option c.
func (impl Implementation) supports(c Capability) bool {
	return impl.Supports != nil && impl.Supports(c)
}
