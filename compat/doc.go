// Package compat puts other Go pool libraries (ants v2, pond v2, tunny)
// and poolkit itself behind one small surface, so that one conformance
// suite, one benchmark and one autoscaler run over all of them.
//
// There is one adapter per library and pool type: Poolkit and
// ActorRouter for poolkit's pool and actor router; Ants, AntsFunc (the
// generic PoolWithFunc), AntsFuncAny (PoolWithFunc), AntsMulti and
// AntsMultiFunc (MultiPoolWithFunc) for ants; PoolkitAnts,
// PoolkitAntsFunc, PoolkitAntsFuncAny, PoolkitAntsMulti and
// PoolkitAntsMultiFunc for the same types of poolkit's drop-in replacement
// for ants (package github.com/poolkit/poolkit/ants); Pond and Tunny. The
// adapters of a pool with a function submit a task as the argument, and
// the function calls it.
//
// Every adapter offers Submit(func()) error and Release(ctx) error, and,
// where the library can, the optional capabilities the suite detects by
// type assertion: SubmitContext, Resize and Cap (resize.Resizer), Running
// and Waiting, Completed, ReleaseNow, Reboot.
//
// The adapters are faithful: they report what the library does and do not
// repair it. Errors keep the library's own error and also match poolkit's
// vocabulary with errors.Is: pool.ErrPoolClosed (and resize.ErrClosed) for
// a closed pool, pool.ErrPoolOverload for a rejected non-blocking
// submission, resize.ErrInvalidSize for a size below 1. Where a library's
// behaviour would be destructive to whoever drives it, an adapter guards
// against it and its documentation says so: pond's Resize(0) makes the pool
// unbounded and tunny's SetSize(0) stops every worker, so those adapters
// Resize refuses sizes below 1 (their constructors pass every size
// through); tunny's SetSize blocks until a shrink completes,
// so that adapter's Resize returns after a bounded wait.
package compat

import (
	"context"
	"errors"
	"time"

	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
)

// Options configures an adapter's pool. Zero values mean the library's
// defaults. An option the library cannot express is ignored; Supports says
// which ones an adapter honours.
type Options struct {
	Nonblocking  bool          // reject instead of block when saturated
	MaxBlocking  int           // most callers blocked in Submit; 0 = no limit
	Expiry       time.Duration // idle worker expiry
	PanicHandler func(any)     // called with a task's panic value
}

// Feature names an option an adapter may honour.
type Feature string

// The options an adapter may honour.
const (
	Nonblocking  Feature = "nonblocking"
	MaxBlocking  Feature = "maxblocking"
	Expiry       Feature = "expiry"
	PanicHandler Feature = "panichandler"
)

// libError is a library's error that also matches poolkit's vocabulary.
type libError struct {
	lib, vocab error
}

func (e *libError) Error() string   { return e.lib.Error() }
func (e *libError) Unwrap() []error { return []error{e.vocab, e.lib} }

// translate maps a library error onto poolkit's vocabulary.
func translate(err error, closed, overload []error) error {
	if err == nil {
		return nil
	}
	for _, c := range closed {
		if errors.Is(err, c) {
			return &libError{lib: err, vocab: pool.ErrPoolClosed}
		}
	}
	for _, o := range overload {
		if errors.Is(err, o) {
			return &libError{lib: err, vocab: pool.ErrPoolOverload}
		}
	}
	return err
}

func invalidSize(n int) error { return resize.Validate(n) }

// waitFor runs f on a goroutine of its own and waits for it, bounded by
// ctx; f goes on in the background if ctx ends first. It serves libraries
// whose close cannot be bounded.
func waitFor(ctx context.Context, f func()) error {
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
