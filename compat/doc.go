// Package compat puts other Go pool libraries (ants v2, pond v2, tunny,
// sourcegraph/conc, golang.org/x/sync/errgroup, gammazero/workerpool) and
// poolkit itself behind one small surface, so that one conformance suite
// and one benchmark run over all of them, and one autoscaler over those
// that resize.
//
// There is one adapter per library and pool type: Poolkit and
// ActorRouter for poolkit's pool and actor router; Ants, AntsFunc (the
// generic PoolWithFunc), AntsFuncAny (PoolWithFunc), AntsMulti and
// AntsMultiFunc (MultiPoolWithFunc) for ants; PoolkitAnts,
// PoolkitAntsFunc, PoolkitAntsFuncAny, PoolkitAntsMulti and
// PoolkitAntsMultiFunc for the same types of poolkit's drop-in replacement
// for ants (package github.com/poolkit/poolkit/ants); Pond, and PondSubmit
// for pond's other entry point; Tunny; Conc; Errgroup; Workerpool. The
// adapters of a pool with a function submit a task as the argument, and
// the function calls it.
//
// The vocabulary is the conformance suite's, package spectest: every
// constructor takes a spectest.Config (the size, and the options a pool may
// honour), and every adapter's Supports method reports which of those
// options (spectest.Capability values) it honours; an option the library
// cannot express is ignored. Every adapter is a spectest.Pool (Submit(func()) error and
// Shutdown(ctx) error) and has, where the library can, the optional
// capabilities the suite detects by type assertion: SubmitContext, Resize
// and Cap (resize.Resizer), Running and Waiting, Completed, ShutdownNow,
// Reboot.
//
// The adapters are faithful: they report what the library does and do not
// repair it. Errors keep the library's own error and also match the kinds
// of package resize with errors.Is: resize.ErrClosed for a closed pool,
// resize.ErrOverload for a rejected non-blocking submission,
// resize.ErrInvalidSize for a size below 1; a closed pool's and an
// overload's errors also match poolkit's pool.ErrClosed and
// pool.ErrOverload, so a caller written against poolkit needs no
// second check. Where a library reports a rejection without an error
// (errgroup's TryGo returns false), the adapter returns one of those kinds.
// Where a library's behaviour would be destructive to whoever drives it, an
// adapter guards against it and its documentation says so: pond's Resize(0)
// makes the pool unbounded and tunny's SetSize(0) stops every worker, so
// those adapters' Resize refuses sizes below 1 (their constructors pass
// every size through); tunny's SetSize blocks until a shrink completes, so
// that adapter's Resize returns after a bounded wait.
//
// compat's tests run the conformance suite over every adapter but
// PondSubmit, whose only difference from Pond is that it cannot see a
// rejection: the results are MATRIX.md.
package compat

import (
	"context"
	"errors"

	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
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
			return &libError{lib: err, vocab: pool.ErrClosed}
		}
	}
	for _, o := range overload {
		if errors.Is(err, o) {
			return &libError{lib: err, vocab: pool.ErrOverload}
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
