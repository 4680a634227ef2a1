package pool

import (
	"context"
	"time"
)

// The methods in this file manage a pool's capacity and life. Pool and
// FuncPool share them.

// Cap returns the capacity: the most tasks that may run at once. It is the
// value set by the latest successful Resize or Tune, or by the constructor.
func (e *engine[E]) Cap() int { return e.gate.capacity() }

// Running returns the number of tasks executing now. Idle workers are not
// counted, nor is a task that panicked while its panic handler runs (its
// worker keeps the slot until the handler returns, so Free may count that
// slot as free meanwhile).
func (e *engine[E]) Running() int { return e.running() }

// Free returns Cap minus Running, or 0 when a shrink has left more tasks
// running than the new capacity.
func (e *engine[E]) Free() int { return max(0, e.Cap()-e.Running()) }

// Waiting returns the number of accepted tasks that have not started yet,
// plus the callers blocked in Submit.
func (e *engine[E]) Waiting() int { return e.waiting() }

// IsClosed reports whether the pool has been released (and not rebooted).
func (e *engine[E]) IsClosed() bool { return e.isClosed() }

// Resize sets the capacity to n, the most tasks that may run at once. It
// implements resize.Resizer.
//
// The new capacity takes effect before Resize returns: from then on Cap
// returns n and no task starts while n or more are running, whether idle
// workers exist or not. A grow starts waiting tasks at once, up to the new
// capacity, and admits blocked submitters as room appears. A shrink never
// interrupts a running task: the tasks above the new capacity finish, and
// the workers that ran them exit; idle workers above it exit at once.
// Queued tasks and blocked submitters are kept. Resize never waits for
// tasks.
//
// Concurrent calls are serialised into one order. Resize(Cap()) changes
// nothing. A size below 1 returns an error matching ErrInvalidSize, and a
// released pool returns ErrPoolClosed; in both cases nothing changes.
//
// A successful Resize synchronizes before any task it lets start.
func (e *engine[E]) Resize(n int) error { return e.resize(n) }

// Tune sets the capacity like Resize, with ants' signature and meaning: a
// size below 1, or a released pool, is silently ignored. New code should
// use Resize, which reports those cases.
func (e *engine[E]) Tune(size int) { _ = e.resize(size) }

// Release closes the pool without waiting. After it returns, submissions
// return ErrPoolClosed and callers blocked in Submit wake with
// ErrPoolClosed (their tasks were not accepted). Tasks that were accepted
// still run, queued ones included, and then the workers exit; use
// ReleaseTimeout or ReleaseContext to wait for that, or ReleaseNow to take
// the queued tasks back instead.
//
// Release is idempotent and safe to call from many goroutines and from
// inside a task. It cancels a Reboot that has not yet taken effect.
func (e *engine[E]) Release() { e.close(false) }

// ReleaseTimeout releases the pool, as Release does, and waits until every
// accepted task has finished and every worker goroutine has exited, or
// until timeout has passed, in which case it returns ErrTimeout. A timeout
// of zero or less does not wait: it returns nil if the pool has already
// finished (a pool that never ran a task has), ErrTimeout otherwise.
//
// It may be called after Release ("release now, wait later") and any
// number of times. It waits for the life of the pool that it closed: a
// Reboot that reopens the pool meanwhile does not make it wait for the
// tasks of the new life. Called from inside a task of this pool, it cannot
// see that task finish: it releases the pool and returns ErrInsideTask at
// once. From inside a task of another pool it waits as any caller does.
//
// The return of every task synchronizes before a ReleaseTimeout that
// returns nil.
func (e *engine[E]) ReleaseTimeout(timeout time.Duration) error {
	done, _ := e.close(false)
	hook(hkCloseWait)
	if err, inside := e.insideWait(done); inside {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if !awaitLife(done, ctx.Done()) {
		return ErrTimeout
	}
	return nil
}

// insideWait is a close's wait when its caller is inside a task of this
// pool: the life it closed cannot end before that task returns, so it does
// not wait: ErrInsideTask. It reports inside false, and waits nowhere, for
// any other caller, and when the life has already ended.
func (e *engine[E]) insideWait(done <-chan struct{}) (err error, inside bool) {
	if done == nil {
		return nil, false
	}
	select {
	case <-done:
		return nil, false // nothing left to wait for
	default:
	}
	if e.callerWorker() == nil {
		return nil, false
	}
	return ErrInsideTask, true
}

// ReleaseContext is ReleaseTimeout bounded by ctx instead of a duration:
// it returns ctx.Err() if ctx is done first. A nil ctx is an error, and
// the pool is still released. Called from inside a task of this pool, it
// releases the pool and returns ErrInsideTask at once: it cannot wait for
// the task it runs in, which, with a ctx that is never done, would wait for
// ever. From inside a task of another pool it waits as any caller does.
func (e *engine[E]) ReleaseContext(ctx context.Context) error {
	done, _ := e.close(false)
	hook(hkCloseWait)
	if ctx == nil {
		return ErrNilContext
	}
	if err, inside := e.insideWait(done); inside {
		return err
	}
	if !awaitLife(done, ctx.Done()) {
		return ctx.Err()
	}
	return nil
}

// ReleaseDone releases the pool, as Release does, and returns a channel
// that is closed when the life it closed has ended: every task accepted
// before the release has finished and every worker of that life has
// exited. It is what ReleaseTimeout and ReleaseContext wait for, for a
// caller that waits in a select of its own, or for several pools at once.
// A Reboot that reopens the pool meanwhile neither delays the channel nor
// is undone by it. The channel of a zero-value pool is closed.
func (e *engine[E]) ReleaseDone() <-chan struct{} {
	done, _ := e.close(false)
	if done == nil {
		return closedChan
	}
	return done
}

var closedChan = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// awaitLife waits until the life whose done channel is done has ended
// (true) or stop is closed (false). A life that has already ended wins over
// a stop that is also closed, so a zero timeout or a done context still
// reports a finished pool. A nil done (an engine that was never
// initialised) has ended.
func awaitLife(done, stop <-chan struct{}) bool {
	if done == nil {
		return true
	}
	select {
	case <-done:
		return true
	default:
	}
	select {
	case <-done:
		return true
	case <-stop:
		return false
	}
}

// Reboot reopens a released pool, with the capacity it had. It first waits
// for the tasks accepted before the release to finish and the workers of
// the pool's previous life to exit, so when it returns the pool is open
// (unless a Release came meanwhile). Called from inside a task of this
// pool it cannot wait for that task: it returns at once, and the pool
// reopens as soon as its previous life has ended. A Release
// before then cancels the reopening. On an open pool Reboot does nothing.
func (e *engine[E]) Reboot() { e.reboot() }
