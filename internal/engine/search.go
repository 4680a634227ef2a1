package engine

import "runtime"

// A round of work (work): take a unit, confirm it under the capacity
// (S2), run it; and searching for queued work (spin, stopSearching: W2),
// and a slot holder's hand-over to a waiter (takeWaiter: W5).

// work runs units while the worker holds a slot, until it finds nothing to
// run (it then still holds the slot, which park gives back) or a shrink
// makes it give the slot back.
func (e *Engine[E]) work(w *worker[E]) workEnd {
	for {
		if w.leaving != nil {
			return panicked
		}
		if e.gate.releaseIfOver() {
			e.stopSearching(w)
			w.settle()
			return gaveSlotBack
		}
		t, pos, ok := e.take()
		if !ok {
			t, pos, ok = e.spin(w)
		}
		if !ok && e.q.none() && e.waitersN.Load() > 0 {
			// W5: hand this slot to the oldest blocked submitter.
			wt, taken, released := e.takeWaiter(e.gate.releaseIfOver)
			if released {
				w.settle()
				return gaveSlotBack
			}
			if taken {
				hook(hkConfirmed)
				e.tookWaiting()
				w.settle()
				e.exec(w, wt)
				continue
			}
		}
		if !ok {
			return foundNothing
		}
		hook(hkTaken)
		e.stopSearching(w)
		if !e.confirm(t, pos) {
			w.settle()
			return gaveSlotBack
		}
		e.tookWaiting()
		if e.waitersN.Load() > 0 {
			e.admitAsk() // the take made room for a blocked submitter
		}
		w.settle()
		e.exec(w, t)
	}
}

// confirm is S2 for a unit a slot holder has taken from the front or the
// queue: the unit starts here if the capacity in force now allows it. The
// check must follow the take: a shrink between an earlier check and the
// take would otherwise not hold for this unit. If it does not allow it,
// the holder gives its slot back and the unit goes back to the front
// (deferStart), the next unit any slot holder takes.
func (e *Engine[E]) confirm(t unit[E], pos uint64) bool {
	if e.gate.releaseIfOver() {
		e.deferStart(t, pos)
		return false
	}
	hook(hkConfirmed)
	return true
}

// stopSearching is W2 for a searcher that has taken a unit or is giving
// its slot back to a shrink: it stops counting in e.spinning, and then,
// like a pusher, applies W1 to the work left: the pushers that saw it
// searching each left their unit to it, and it takes one at most. A
// worker that takes a unit without searching wakes nobody: no pusher
// relied on it alone (runtime/proc.go: a spinning M that finds work wakes
// another; an M that takes local work does not).
func (e *Engine[E]) stopSearching(w *worker[E]) {
	if !w.searching {
		return
	}
	w.searching = false
	tally(tallySpinning)
	e.spinning.Add(-1)
	hook(hkSpinFound)
	if e.hasWork() {
		// This worker's lastEnd comes before the start of whatever the
		// worker started here takes, and close to it when the work was
		// left to this worker while it searched.
		e.notify(w.lastEnd)
	}
}

// takeWaiter is W5: a slot holder with nothing else to run (a worker in a
// pool with no queue, or a task that helps: reentry.go) takes the oldest
// blocked submitter's unit to run in its slot, and wakes the submitter with
// its unit accepted. The capacity check (S2) follows the choice of the
// waiter, under mu: over reports whether a shrink has left too many slots
// held (a worker's gate.releaseIfOver also gives its slot back then; a
// helping task keeps its slot, which its own unit needs), and if so nothing
// is taken (refused) and the waiter stays for whoever has room. Without W5
// a worker would give the slot back only for admitWaiters to take it again
// and start another worker, a goroutine switch (or a spawn) per unit under
// backpressure.
func (e *Engine[E]) takeWaiter(over func() bool) (t unit[E], taken, refused bool) {
	hook(hkWaiterTake)
	e.lock()
	e.takeArrivalsLocked() // A2
	w := e.mu.waiters.head
	if w == nil {
		e.unlock()
		return unit[E]{}, false, false
	}
	hook(hkAdmitWaiter)
	if over() {
		e.unlock()
		return unit[E]{}, false, true
	}
	t = w.task
	if !w.accepted {
		t.at = e.stamp()
	}
	e.mu.direct++
	e.wakeAfterLocked(e.settleLocked(w))
	e.unlock()
	return t, true, false
}

// spin looks for work a little longer before the worker gives its slot
// back. A worker that is not searching starts to, unless another already
// does (maxSpinners); a searcher goes on. It returns with the worker still
// searching if it found a unit (the caller applies W2), not searching if
// it found none.
func (e *Engine[E]) spin(w *worker[E]) (unit[E], uint64, bool) {
	if !w.searching {
		if e.q.none() || e.spinning.Load() >= maxSpinners {
			return unit[E]{}, 0, false
		}
		tally(tallySpinning)
		e.spinning.Add(1)
		w.searching = true
		hook(hkSpinStart)
	}
	for i := 0; i < spinRounds; i++ {
		tally(tallyYield)
		runtime.Gosched()
		if t, pos, ok := e.take(); ok {
			return t, pos, true
		}
		if e.q.sealed() {
			break
		}
	}
	hook(hkSpinLast)
	w.searching = false
	tally(tallySpinning)
	e.spinning.Add(-1)
	hook(hkSpinGiveUp)
	return unit[E]{}, 0, false
}
