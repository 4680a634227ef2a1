package engine

// Continuations: a running unit hands the engine the rest of its work as a
// new unit at the back of the queue, so that the units waiting before it
// get their turn first (package pool's keyed turns yield this way).
//
// A continuation is not an admission. The work it carries was accepted
// with the unit that runs now, so it never waits for room and is never
// refused for overload: past a full ring it waits as an overflow entry in
// the waiters' list (as an unbounded queue's units do), behind the blocked
// submitters already there, which are admitted before it (W4's order).
// What overflows is bounded by the units running, one continuation each.
//
// On an engine closed with Close, whose accepted units still run (C1), a
// continuation is still accepted: it goes to the front, behind everything
// queued and every overflow entry a close moved there, where takeFront
// leaves it until the queue is empty. The caller's worker keeps the life
// from ending until its unit returns (C2) and then takes the front's units
// itself (or its replacement does, after a runtime.Goexit: S4), so the
// continuation never waits for a worker that is not there. An engine
// closed with CloseNow has handed its queue back; a continuation is then
// refused with ErrClosed and the caller keeps its work.

// Continue accepts v as a continuation of the unit the caller runs. It
// must be called from inside a unit of e: its run, or a function that run
// deferred, during a panic or a runtime.Goexit too. It returns nil, or
// ErrClosed once the engine has been closed with CloseNow. It never waits.
func (e *Engine[E]) Continue(v E) error {
	u := unit[E]{v: v, at: e.stamp()}
	hook(hkContinue)
	if e.waitersN.Load() == 0 {
		if e.spinning.Load() == 0 && e.gate.acquire() {
			e.handOver(u)
			return nil
		}
		if e.q.push(u) {
			e.notify(since(u.at))
			return nil
		}
	}
	e.lock()
	if e.mu.closed {
		err := e.continueClosedLocked(u)
		e.unlock()
		return err
	}
	// W4, as a submitter's slow path: announce, then look again under mu;
	// past a full ring, an overflow entry.
	tally(tallyCounts)
	e.waitersN.Add(1)
	w, ok := e.admitLocked(u)
	if !ok {
		e.overflowLocked(u)
	}
	e.unlock()
	w.wakeUp()
	return nil
}

// continueClosedLocked is Continue on a closed engine: refused after
// CloseNow, else at the front behind everything there. Requires e.mu.
func (e *Engine[E]) continueClosedLocked(u unit[E]) error {
	if e.mu.abandoned {
		return ErrClosed
	}
	pos := e.q.pushed()
	if n := len(e.mu.front); n > 0 && e.mu.front[n-1].pos >= pos {
		pos = e.mu.front[n-1].pos + 1
	}
	e.mu.front = append(e.mu.front, queued[E]{pos: pos, u: u})
	tally(tallyCounts)
	e.frontN.Add(1)
	e.mu.direct++ // never enters the ring: counted in Submitted here
	return nil
}
