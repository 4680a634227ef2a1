package engine

import "errors"

// The engine's life (C1-C4) and the gauges read from it. The front-ends
// (package pool, package ants, package actorpool) build their own close
// vocabularies on the few moves below: stop intake (Close), stop intake
// and take the queued units back (CloseNow), wait for the life a close
// ended, as a stop channel allows (Await), and, for ants, reopen (Reopen).

// Cap returns the capacity set by the latest Resize, or by Init.
func (e *Engine[E]) Cap() int { return e.gate.capacity() }

// Workers returns the worker goroutines alive, idle ones included.
func (e *Engine[E]) Workers() int {
	e.mu.Lock()
	defer e.unlock()
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
	defer e.unlock()
	return e.mu.started
}

// closeMode says what a close does with the accepted units that have not
// started.
type closeMode uint8

const (
	keepQueued closeMode = iota // they still run (Close)
	handBack                    // they are removed and returned (CloseNow)
)

// close stops intake (C1) and returns the done channel of the life it
// closed (C3), and, in mode handBack, the units it removed.
func (e *Engine[E]) close(mode closeMode) (<-chan struct{}, []E) {
	if e.run == nil {
		return nil, nil
	}
	e.mu.Lock()
	defer e.unlock()
	e.mu.rebootPending = false // a close after a Reopen wins (C4)
	e.mu.closing = true        // retiring the last worker must not end the life before the drain
	if !e.mu.closed {
		e.takeArrivalsLocked() // into the list, refused below with it (A4)
		e.mu.closed = true
		e.gate.close()
		e.q.seal()
		// Blocked submitters are refused. Overflow entries were accepted:
		// they go to the front behind everything queued (positions from
		// the sealed tail on), to be run by the drainers or returned.
		late := e.q.pushed()
		for w := e.mu.waiters.head; w != nil; w = e.mu.waiters.head {
			if w.accepted {
				e.mu.front = append(e.mu.front, queued[E]{pos: late, u: w.task})
				tally(tallyCounts)
				e.frontN.Add(1)
				e.mu.direct++ // accepted, never to enter the ring: counted in Submitted here
				late++
				e.settleLocked(w)
				continue
			}
			e.mu.waiters.finish(w, ErrClosed)
			e.wakeAfterLocked(w)
			tally(tallyCounts)
			e.waitersN.Add(-1)
		}
		if mode == keepQueued {
			// Accepted work with no slot holder to run it gets drainers
			// (T6), for work that has waited until now.
			now := e.now()
			for pending := e.q.len() + len(e.mu.front); pending > 0 && e.gate.acquireDraining(); pending-- {
				e.startLocked(start[E]{kind: startWork, since: now}).wakeUp()
			}
		}
		for e.mu.idle.len() > 0 {
			e.retireLocked(e.mu.idle.pop())
		}
		e.stopPurgerLocked()
		e.roomLocked()    // WaitRoom returns ErrClosed
		e.backlogLocked() // and so does WaitBacklog
		if e.mu.stall != nil {
			e.mu.stall.Stop()
			e.mu.stallArmed = false
		}
	}
	var out []E
	if mode == handBack {
		hook(hkCloseDrain)
		e.mu.abandoned = true
		// Oldest first: units put back, the queue, then overflow entries;
		// the caller gets the bare values, their stamps dropped.
		head := e.q.next()
		i := 0
		for ; i < len(e.mu.front) && e.mu.front[i].pos < head; i++ {
			out = append(out, e.mu.front[i].u.v)
		}
		for {
			u, ok := e.q.popSealed()
			if !ok {
				break
			}
			out = append(out, u.v)
		}
		for _, q := range e.mu.front[i:] {
			out = append(out, q.u.v)
		}
		tally(tallyCounts)
		e.frontN.Add(-int64(len(e.mu.front)))
		e.mu.front = nil
		e.returned.Add(uint64(len(out)))
	}
	done := e.mu.done
	e.mu.closing = false
	e.maybeDoneLocked()
	return done, out
}

// maybeDoneLocked ends the life (C2) once the engine is closed and no
// worker, no slot about to become one, and no purger is left; with a
// reboot pending it reopens the engine first (C4).
func (e *Engine[E]) maybeDoneLocked() {
	if !e.mu.closed || e.mu.closing || e.mu.doneSent || e.mu.live != 0 || e.gate.held() != 0 || e.mu.purging {
		return
	}
	if hooksOn {
		invariant(e.q.drained() && len(e.mu.front) == 0 && e.frontN.Load() == 0,
			"a life ended with accepted units left: queued %d, front %d", e.q.len(), len(e.mu.front))
		invariant(e.mu.waiters.n == 0, "a life ended with %d blocked submitters", e.mu.waiters.n)
		invariant(e.mu.idle.len() == 0 && len(e.mu.all) == 0, "a life ended with workers in the books")
		invariant(e.spinning.Load() == 0, "a life ended with %d searchers counted", e.spinning.Load())
	}
	hook(hkDone)
	done := e.mu.done
	if e.mu.rebootPending {
		e.reopenLocked()
	} else {
		e.mu.doneSent = true
	}
	close(done)
}

// reopenLocked starts a new life. Requires e.mu, a closed engine and an
// ended life.
func (e *Engine[E]) reopenLocked() {
	e.mu.closed = false
	e.mu.abandoned = false
	e.mu.doneSent = false
	e.mu.rebootPending = false
	e.mu.done = make(chan struct{})
	e.gate.reopen()
	e.q.unseal()
}

// Reopen reopens a closed engine once the workers of its previous life
// have exited (C4), waiting for that unless the caller runs in one of
// its units (then the life's end reopens it). It does nothing on an open
// engine.
func (e *Engine[E]) Reopen() {
	if e.run == nil {
		return
	}
	e.mu.Lock()
	if !e.mu.closed {
		e.unlock()
		return
	}
	if e.mu.doneSent {
		e.reopenLocked()
		e.unlock()
		return
	}
	e.mu.rebootPending = true
	done := e.mu.done
	e.unlock()
	if e.callerWorker() != nil {
		return // it cannot wait for itself; the life's end reopens the engine
	}
	hook(hkRebootWait)
	<-done
}

// Usable returns nil when the engine was initialised and is open, and
// otherwise the error, matching ErrClosed, that a call made on it now
// gets: what a layer built on a front-end (a keyed or scheduling layer)
// answers at its construction.
func (e *Engine[E]) Usable() error {
	if e.run == nil {
		return errNotInitialised
	}
	if e.gate.closed() {
		return ErrClosed
	}
	return nil
}

// Closed reports whether the engine is closed (and not reopened).
func (e *Engine[E]) Closed() bool {
	if e.run == nil {
		return false
	}
	return e.gate.closed()
}

// Running returns the number of units executing now: slots held, less
// searchers and workers whose unit panicked while their handler runs.
func (e *Engine[E]) Running() int {
	// Each subtracted counter drops only after its worker has taken its
	// next unit or given its slot back, so a completed unit is never
	// counted again; at worst a worker is missed for an instant.
	return max(0, e.gate.held()-int(e.spinning.Load())-int(e.handling.Load()))
}

// Waiting returns the accepted units that have not started, plus the
// submitters blocked for room.
func (e *Engine[E]) Waiting() int {
	return e.q.len() + int(e.frontN.Load()) + int(e.waitersN.Load())
}
