package engine

import (
	"context"
	"errors"
	"runtime"
	"time"
)

// Submitting: the fast path (T1, then the queue and W1) and the slow one
// (the queue full: W4's waiters, the overflow list of an unbounded
// queue), and the admission of waiters as room appears.

// Submit accepts t, or says why not. Calls without a context of their
// own (Submit, Invoke) pass context.Background(), whose Done is nil.
//
// A free slot with no worker looking for work means t can start now: it
// is handed straight to a worker (T1), so it never takes room in the queue
// (with capacity 1 and a queue of 1, a second task must still fit).
// Otherwise t goes on the queue, and W1 makes sure somebody takes it.
//
// With timings on, t is stamped with the clock first, once: the stamp
// travels with it on every path below, the slow ones included (timings.go).
func (e *Engine[E]) Submit(ctx context.Context, t E) error {
	u := unit[E]{v: t, at: e.stamp()}
	if e.submitFast(u) {
		return nil
	}
	return e.submitSlow(ctx, u, waitForRoom)
}

// submitFast is Submit's fast path (T1, then the queue and W1), taken
// only while no submitter waits (W4's order): it reports whether u was
// accepted.
func (e *Engine[E]) submitFast(u unit[E]) bool {
	if e.waitersN.Load() != 0 {
		return false
	}
	if e.spinning.Load() == 0 && e.gate.acquire() {
		hook(hkSubmitDirect)
		e.handOver(u)
		return true
	}
	hook(hkSubmitQueue)
	if e.q.push(u) {
		e.notify(since(u.at))
		return true
	}
	return false
}

// ErrNoRoom is Offer's refusal: the pool is saturated. It is not counted
// as a rejection; the caller decides what the refusal is.
var ErrNoRoom = errors.New("engine: no room")

// Offer accepts t only if it can do so without waiting: it is Submit with
// the slow path's waiting replaced by ErrNoRoom (an unbounded queue still
// overflows; a closed engine still refuses with ErrClosed, counted).
// Package pool's Scheduler offers its tickets this way, to shed rather
// than wait.
func (e *Engine[E]) Offer(t E) error {
	u := unit[E]{v: t, at: e.stamp()}
	if e.submitFast(u) {
		return nil
	}
	return e.submitSlow(context.Background(), u, refuseWhenFull)
}

// admission says what a submitter does on a saturated pool.
type admission uint8

const (
	waitForRoom    admission = iota // Submit: wait as ctx and the configuration allow
	refuseWhenFull                  // Offer: return ErrNoRoom at once
)

// notify is W1 for work just queued (by a submitter, or left by a searcher
// that took a unit: W2): unless a worker searches, take a free slot, count
// a searcher and start it (T4). It
// uses gate.acquire, which fails on a closed engine: a unit queued before
// the close is covered by the close's drainers (C1), and a worker started
// after the life ended would outlive it. since is when the work the worker
// is started for became available, for its timings (startLocked).
func (e *Engine[E]) notify(since int64) {
	hook(hkNotify)
	if e.spinning.Load() > 0 {
		return
	}
	if !e.gate.acquire() {
		e.backlogged()
		return
	}
	tally(tallySpinning)
	e.spinning.Add(1)
	e.lock()
	w := e.startLocked(start[E]{kind: startSearch, since: since})
	e.unlock()
	w.wakeUp()
}

func (e *Engine[E]) notifyLocked(since int64) {
	hook(hkNotify)
	if e.spinning.Load() > 0 {
		return
	}
	if !e.gate.acquire() {
		e.backlogLocked()
		return
	}
	tally(tallySpinning)
	e.spinning.Add(1)
	e.startLocked(start[E]{kind: startSearch, since: since}).wakeUp()
}

func (e *Engine[E]) submitSlow(ctx context.Context, t unit[E], mode admission) error {
	if e.run == nil {
		return errNotInitialised
	}
	// A searching worker holds a slot but is about to take a unit: the
	// pool is not saturated, so a submitter that would be refused for
	// overload, or spill into the overflow list, waits for the room it
	// makes. One that blocks without limit joins the waiters at once, and
	// the room admits it (W4): yielding here would take the CPU from the
	// very workers that make the room.
	for i := 0; i < spinRounds; i++ {
		if (mode == waitForRoom && e.cfg.blocksWithoutLimit()) || e.spinning.Load() == 0 || e.waitersN.Load() != 0 {
			break
		}
		tally(tallyYield)
		runtime.Gosched()
		if e.q.push(t) {
			e.notify(since(t.at))
			return nil
		}
	}
	if mode == waitForRoom && e.cfg.blocksWithoutLimit() && e.manyProcs.Load() && !e.gate.closed() {
		return e.arrive(ctx, t)
	}
	e.lock()
	if e.mu.closed {
		e.unlock()
		return e.rejected.count(ErrClosed)
	}
	// W4: announce before retrying, so that a worker making room after
	// this store sees waitersN > 0 and comes to admitWaiters, which needs
	// mu.
	tally(tallyCounts)
	e.waitersN.Add(1)
	if w, ok := e.admitLocked(t); ok {
		e.unlock()
		w.wakeUp()
		return nil
	}
	e.backlogLocked() // the unit waits, or is refused, with no free slot
	if e.cfg.Unbounded {
		e.overflowLocked(t)
		e.unlock()
		return nil
	}
	if mode == refuseWhenFull {
		tally(tallyCounts)
		e.waitersN.Add(-1)
		e.unlock()
		return ErrNoRoom
	}
	if e.cfg.Nonblocking || (e.cfg.MaxBlocking > 0 && e.mu.waiters.n >= e.cfg.MaxBlocking) {
		tally(tallyCounts)
		e.waitersN.Add(-1)
		e.unlock()
		return e.rejected.count(ErrOverload)
	}
	w := e.getWaiter(t)
	w.since = clock()
	e.mu.waiters.pushBack(w)
	e.armStallCheckLocked(stallCheck)
	hook(hkBlock)
	e.unlock()
	return e.await(ctx, w, t)
}

// await waits for the outcome of w, a blocked submitter's waiter in the
// list or among the arrivals, with t its unit: admitted, refused, or
// given up when ctx is done; a submitter that is a task of this engine
// may be asked to help instead (reentry.go).
func (e *Engine[E]) await(ctx context.Context, w *waiter[E], t unit[E]) error {
wait:
	select {
	case <-w.done:
	case <-w.poke:
		// Blocked for a while: if this submitter is a task of this pool,
		// the room it waits for may need its own slot (reentry.go).
		cw := e.callerWorker()
		e.lock()
		if cw == nil || !w.queued {
			w.outsider = true
			e.unlock()
			hook(hkOutsider)
			goto wait
		}
		e.mu.waiters.remove(w)
		tally(tallyCounts)
		e.waitersN.Add(-1)
		e.unlock()
		e.recycle(w)
		return e.submitInside(ctx, cw, t)
	case <-ctx.Done():
		e.mu.Lock()
		e.takeArrivalsLocked() // w may still be an arrival (A2)
		if w.queued {
			e.mu.waiters.remove(w)
			tally(tallyCounts)
			e.waitersN.Add(-1)
			e.roomLocked() // one waiting fewer may be room (room.go)
			e.unlock()
			e.recycle(w)
			return e.rejected.count(ctx.Err())
		}
		e.unlock()
		<-w.done // admitted or rejected just before the cancellation
	}
	err := w.err
	e.recycle(w) // its token is consumed, so the next user starts clean
	if err != nil {
		e.rejected.count(err)
	}
	return err
}

// handOver starts a worker on the slot the caller has just taken, with u
// as its first unit (T1), and wakes it after unlocking mu.
func (e *Engine[E]) handOver(u unit[E]) {
	e.lock()
	w := e.startLocked(start[E]{kind: startUnit, unit: u, since: since(u.at)})
	e.unlock()
	w.wakeUp()
}

// admitLocked is W4's look again under mu, for a submitter that has
// announced itself in waitersN: with nobody waiting before it, u goes on
// the queue, or to a free slot (T2), and the announcement is withdrawn.
// It reports whether u was accepted, and returns the worker to wake once
// mu is unlocked (nil: none). Requires e.mu.
func (e *Engine[E]) admitLocked(u unit[E]) (*worker[E], bool) {
	e.takeArrivalsLocked() // nobody passes them (A2)
	if e.mu.waiters.n != 0 {
		return nil, false
	}
	if e.q.push(u) {
		tally(tallyCounts)
		e.waitersN.Add(-1)
		e.notifyLocked(since(u.at))
		return nil, true
	}
	if e.gate.acquire() { // T2
		tally(tallyCounts)
		e.waitersN.Add(-1)
		return e.startLocked(start[E]{kind: startUnit, unit: u, since: since(u.at)}), true
	}
	return nil, false
}

// overflowLocked accepts u, from a submitter announced in waitersN, as an
// overflow entry: it waits in the list, in order, and the room-makers
// admit it exactly as they admit a blocked submitter's unit (W4), with
// nobody waiting for the outcome. It keeps its stamp, marked late: it
// becomes available to workers only when admitted, so its start cannot be
// inferred. Requires e.mu.
func (e *Engine[E]) overflowLocked(u unit[E]) {
	e.takeArrivalsLocked() // A2
	w := e.getWaiter(u.late())
	w.accepted = true
	e.mu.waiters.pushBack(w)
	hook(hkBlock)
}

// recycle clears a waiter that is out of the list, with no token pending,
// and keeps it for the next blocked submitter.
func (e *Engine[E]) recycle(w *waiter[E]) {
	w.task, w.err, w.outsider, w.poked = unit[E]{}, nil, false, false
	select {
	case <-w.poke: // a poke that came after the waiter was settled
	default:
	}
	e.spare.Put(w)
}

// stallCheck is how long a submitter blocks before it asks whether it is a
// task of the pool it waits on (reentry.go). Asking costs a few
// microseconds, so a submitter that is admitted sooner never asks; one that
// waits longer asks once.
const stallCheck = 10 * time.Millisecond

// armStallCheckLocked makes sure the stall check runs within d, unless it
// is already armed. Requires e.mu.
func (e *Engine[E]) armStallCheckLocked(d time.Duration) {
	if e.mu.stallArmed {
		return
	}
	e.mu.stallArmed = true
	if e.mu.stall == nil {
		e.mu.stall = time.AfterFunc(d, e.checkStalled)
	} else {
		e.mu.stall.Reset(d)
	}
}

// checkStalled pokes every submitter blocked for stallCheck or longer that
// has not yet asked whether it is a task of this pool, and arms itself
// again for the one blocked longest of the others. A pool that stays
// saturated pokes each blocked submitter once, after stallCheck, and none
// that is admitted sooner.
func (e *Engine[E]) checkStalled() {
	e.readProcs() // the ask's rule (lock.go); read where submitters have waited
	e.mu.Lock()
	defer e.unlock()
	e.mu.stallArmed = false
	e.takeArrivalsLocked() // A2
	now := clock()
	var soonest time.Duration = -1
	for w := e.mu.waiters.head; w != nil; w = w.next {
		if w.accepted || w.outsider || w.poked {
			continue
		}
		if waited := time.Duration(now - w.since); waited < stallCheck {
			if left := stallCheck - waited; soonest < 0 || left < soonest {
				soonest = left
			}
			continue
		}
		w.poked = true
		w.poke <- struct{}{} // buffered, and poked is set: never blocks
	}
	if soonest >= 0 && !e.mu.closed {
		e.armStallCheckLocked(soonest)
	}
}

func (e *Engine[E]) getWaiter(t unit[E]) *waiter[E] {
	w, _ := e.spare.Get().(*waiter[E])
	if w == nil {
		w = &waiter[E]{done: make(chan struct{}, 1), poke: make(chan struct{}, 1)}
	}
	w.task = t
	return w
}

// settleLocked finishes an admitted waiter and returns it, for the caller
// to signal; an overflow entry, which nobody waits on, is recycled at once
// and nil returned. Requires e.mu.
func (e *Engine[E]) settleLocked(w *waiter[E]) *waiter[E] {
	e.mu.waiters.finish(w, nil)
	tally(tallyCounts)
	e.waitersN.Add(-1)
	if w.accepted {
		w.accepted, w.err = false, nil
		e.spare.Put(w)
		return nil
	}
	return w
}

// admitWaiters moves blocked submitters' units into the room that has
// just been freed, oldest first, and wakes them (W4). A blocked
// submitter's unit is accepted now, so it is stamped now (an overflow
// entry was accepted, and stamped, when submitted).
func (e *Engine[E]) admitWaiters() {
	e.lock()
	e.admitWaitersLocked()
	e.unlock()
}

func (e *Engine[E]) admitWaitersLocked() {
	e.takeArrivalsLocked() // A2
	hook(hkAdmitAll)
	for w := e.mu.waiters.head; w != nil; w = e.mu.waiters.head {
		hook(hkAdmitWaiter)
		t := w.task
		if !w.accepted {
			t.at = e.stamp()
		}
		if e.q.push(t) {
			e.wakeAfterLocked(e.settleLocked(w))
			e.notifyLocked(since(t.at))
			continue
		}
		if e.gate.acquire() { // T3
			e.wakeAfterLocked(e.settleLocked(w))
			e.startLocked(start[E]{kind: startUnit, unit: t, since: since(t.at)}).wakeUp()
			continue
		}
		break
	}
}
