package engine

import "context"

// Arrivals: how a submitter that blocks without limit joins the blocked
// submitters without taking e.mu (W4).
//
// Under sustained backpressure every submission blocks, so with the list
// under e.mu every submitter took e.mu once per unit, and the workers that
// make the room took it too. With many Ps that is GOMAXPROCS x (submitters
// per P) goroutines queued on one sync.Mutex: it turns to handing the lock
// over in arrival order (its starvation mode), and every release becomes a
// goroutine switch, however short the critical section (the mutex profile
// of 64-128 submitters on 8 workers: nearly all of the delay in the
// submitters' own release). A channel's senders wait on a runtime lock
// that never parks a goroutine; here the join itself needs no lock:
//
//	A1. A submitter that would block without limit (Submit, on an engine
//	    that neither refuses nor overflows: Config.blocksWithoutLimit),
//	    with more than two Ps (manyProcs), counts itself in waitersN, the W4 announcement, and only then
//	    pushes its waiter on e.arrivals (one compare-and-swap): a
//	    room-maker after the push sees waitersN > 0 and admits.
//	A2. The list and the stack together are the blocked submitters, in
//	    the order of their pushes, the arrivals after the list. Whoever
//	    reads or extends the list first moves the arrivals into it,
//	    oldest first (takeArrivalsLocked, under e.mu): admitting (W4, W5),
//	    looking again under mu (admitLocked, so that no submitter passes
//	    the arrivals), an overflow entry, a cancellation, the stall check,
//	    a close.
//	A3. After its push the submitter asks e.mu's holder to admit it, the
//	    room-maker's ask of lock.go: it stores admitAsked and tries the
//	    lock. Getting it, it admits (itself, if there is room) and lets go;
//	    failing, the holder answers the ask before it lets go, or, for an
//	    ask that came in between, takes the lock again after the release
//	    (lock.go has the argument). The push precedes the store, so the
//	    answer finds the arrival. Either way the submitter then waits only
//	    on its own done channel, as a channel's sender waits on its sudog.
//	    With two Ps or fewer, failing, it waits for the lock and answers
//	    itself, as a room-maker does there.
//	A4. An arrival taken on a closed engine is refused with ErrClosed. A
//	    close takes the arrivals first, so every arrival pushed before it
//	    is refused with the blocked submitters (C1); one pushed after it
//	    and taken after a Reopen joins the new life: its Submit has
//	    lasted from before the close to after the reopen, and may take
//	    effect at any point between.
//
// A submitter whose unit is admitted by its own answer never parks: the
// signal is already in its channel when it looks.
//
// With two Ps or fewer a blocking submitter takes e.mu to join the list,
// as before: there the lock's holder shares the Ps with everyone, the
// convoy above does not form, and the arrival's extra steps (a waiter for
// every slow path, a holder that answers late) cost more than they save
// (measured on 2 cores, interleaved with the list under e.mu alone: 2
// submitters on a pool of 8 were 12-13% slower per task, 16 rounds).

// arrive is the blocking part of submitSlow for a submitter that blocks
// without limit (A1-A4).
func (e *Engine[E]) arrive(ctx context.Context, t unit[E]) error {
	w := e.getWaiter(t)
	w.since = clock()
	tally(tallyCounts)
	e.waitersN.Add(1) // A1: announced before the push
	hook(hkArrive)
	for {
		old := e.arrivals.Load()
		w.arrival = old
		tally(tallyArrive)
		if e.arrivals.CompareAndSwap(old, w) {
			break
		}
	}
	e.backlogged()
	// A3. With two Ps or fewer the submitter waits for the lock instead,
	// as a room-maker's ask does there (lock.go): the holder shares the
	// Ps with everyone and may answer late, and a submitter that parks
	// for its answer leaves one of the two Ps without a submitter.
	e.ask() // A3
	return e.await(ctx, w, t)
}

// takeArrivalsLocked moves the arrivals into the list, oldest first (A2),
// or refuses them on a closed engine (A4). Requires e.mu.
func (e *Engine[E]) takeArrivalsLocked() {
	if e.arrivals.Load() == nil {
		return
	}
	var first *waiter[E]
	for w := e.arrivals.Swap(nil); w != nil; {
		next := w.arrival
		w.arrival = first
		first = w
		w = next
	}
	joined := false
	for w := first; w != nil; {
		next := w.arrival
		w.arrival = nil
		if e.mu.closed {
			w.task, w.err = unit[E]{}, ErrClosed
			e.wakeAfterLocked(w)
			tally(tallyCounts)
			e.waitersN.Add(-1)
		} else {
			e.mu.waiters.pushBack(w)
			joined = true
		}
		w = next
	}
	if joined {
		e.armStallCheckLocked(stallCheck)
	}
	hook(hkArrivalsTaken)
}
