package engine

// Parking: giving the slot back with nothing to run, the last look after
// it (recheck: W3), and joining the idle stack in the same critical
// section (S5).

// park decides what a worker does after a round of work: wait on the idle
// stack for a wake-up, run on with a slot taken again, or exit.
//
// A worker that found nothing to run gives its slot back here, under mu
// (S5). That makes giving the slot back and joining the idle stack one
// step to a submitter: one that takes the slot the moment it is free needs
// mu to start a worker on it (startLocked), and by then this worker is on
// the idle stack to be woken, where, released outside mu, the submitter
// would find no idle worker, spawn a goroutine, and this one would exit
// as one too many for the capacity.
func (e *Engine[E]) park(w *worker[E], end workEnd) parkOutcome {
	if hooksOn {
		invariant(!w.searching, "a worker parks counted as searching")
	}
	hook(hkGiveBack)
	e.lock()
	defer e.unlock()
	if end == foundNothing {
		e.gate.release()
		w.settle()
	}
	if hooksOn {
		w.holds = false
	}
	if e.recheck() {
		w.searching = true
		return recheckRun
	}
	if e.mu.closed {
		e.exitLocked(w) // a closed engine has no blocked submitters (C1)
		return exit
	}
	e.idleLocked(w)
	// W4: the slot given back is room for a blocked submitter. Admitted
	// while this worker is on the idle stack, a waiter's unit wakes it
	// rather than a new goroutine.
	if e.waitersN.Load() > 0 {
		e.admitWaitersLocked()
	}
	e.roomLocked()
	if w.idleAt >= 0 && e.mu.live > e.gate.capacity() {
		e.mu.idle.remove(w)
		e.exitLocked(w) // more workers than a shrunk capacity needs
		return exit
	}
	return waitParked
}

// recheck is W3 (T7), for a worker that has just given its slot back:
// a pusher that saw the slot held, or saw the worker searching, relied on
// it to take its unit, so it looks at the front and the queue once more
// and, if there is work, takes a slot again and counts a searcher for it.
// On a closed engine this is also how accepted units left over find a
// slot (T8). It reports whether it took one.
func (e *Engine[E]) recheck() bool {
	hook(hkRecheck)
	if e.hasWork() && e.gate.acquireDraining() {
		tally(tallySpinning)
		e.spinning.Add(1)
		return true
	}
	return false
}

// idleLocked puts w, which holds no slot, on the idle stack. Requires e.mu.
func (e *Engine[E]) idleLocked(w *worker[E]) {
	e.mu.idle.push(w)
	if !e.cfg.DisablePurge {
		w.parkedAt = clock()
		e.startPurgerLocked()
	}
}
