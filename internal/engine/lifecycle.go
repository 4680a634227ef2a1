package engine

import "errors"

// The front-ends (package pool, package ants, package actorpool) build
// their own close vocabularies on the few moves below: stop intake (Close),
// stop intake and take the queued units back (CloseNow), wait for the
// life a close ended, as a stop channel allows (Await), and, for ants,
// reopen (Reopen).

// Cap returns the capacity set by the latest Resize, or by Init.
func (e *Engine[E]) Cap() int { return e.gate.capacity() }

// Workers returns the worker goroutines alive, idle ones included.
func (e *Engine[E]) Workers() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.mu.live
}

// Free returns Cap minus Running, or 0 when a shrink has left more units
// running than the capacity.
func (e *Engine[E]) Free() int { return max(0, e.Cap()-e.Running()) }

// Close stops intake (C1) and returns the done channel of the life it
// closed, closed once every unit accepted before has finished and every
// worker of that life has exited (C3). Accepted units still run. It is
// idempotent; the channel of an engine never initialised is closed.
func (e *Engine[E]) Close() <-chan struct{} {
	done, _ := e.close(keepQueued)
	if done == nil {
		return closedChan
	}
	return done
}

// CloseNow is Close, but the accepted units that have not started are
// removed and returned, oldest first: no unit starts in this life after
// it returns.
func (e *Engine[E]) CloseNow() (<-chan struct{}, []E) {
	done, units := e.close(handBack)
	if done == nil {
		return closedChan, units
	}
	return done, units
}

var closedChan = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// ErrStopped is Await's error when its stop channel was closed before the
// life ended.
var ErrStopped = errors.New("pool: wait stopped before the pool finished")

// Await waits until the life whose done channel (from Close or CloseNow)
// is done has ended: it returns nil; or ErrStopped once stop is closed
// first; or ErrInsideTask at once when the caller runs in a unit of this
// engine, which that life includes, so that it would wait for itself. A
// life that has already ended wins over a stop that is also closed, so a
// zero timeout or a done context still reports a finished engine.
func (e *Engine[E]) Await(done, stop <-chan struct{}) error {
	hook(hkCloseWait)
	select {
	case <-done:
		return nil
	default:
	}
	if e.callerWorker() != nil {
		return ErrInsideTask
	}
	select {
	case <-done:
		return nil
	case <-stop:
		return ErrStopped
	}
}

// Reject counts a submission that a front-end refused before it reached
// the engine (its context was done) and returns err.
func (e *Engine[E]) Reject(err error) error { return e.rejected.count(err) }

// WorkersStarted returns how many worker goroutines e has started, Goexit
// replacements not counted: what a test counts, without the goroutines
// the runtime starts for timers.
func (e *Engine[E]) WorkersStarted() uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.mu.started
}
