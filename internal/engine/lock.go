package engine

import (
	"runtime"
	"sync"
)

// mutex is e.mu's lock: a sync.Mutex whose acquisitions are counted under
// the poolkit_hooks build tag (tally.go). It is let go only through
// e.unlock, which does what room-makers asked of the holder first: it has
// no Unlock method, so that no path can forget to.
type mutex struct{ m sync.Mutex }

func (l *mutex) Lock() {
	if hooksOn {
		tally(tallyLock)
		if l.m.TryLock() {
			return
		}
		tally(tallyLockHeld)
	}
	l.m.Lock()
}

func (l *mutex) TryLock() bool {
	if l.m.TryLock() {
		tally(tallyLock)
		return true
	}
	return false
}

// The ask (W4): a worker that makes room for blocked submitters as it
// takes a unit does not wait for e.mu to admit them while the queue still
// holds at least half its capacity. Under sustained backpressure e.mu is
// taken by every submitter that blocks; sync.Mutex then turns to handing
// the lock over in arrival order (its starvation mode), and a worker that
// waited for it would queue behind every one of them, the pool's slot
// idle meanwhile, once per unit. Instead the worker asks (admitAsk): it
// sets admitAsked and tries the lock once; failing, it goes on to run its
// unit, and the holder admits the waiters before it lets go (unlock),
// into all the room made since, in one pass. Below half, the queued work
// may run out before the holder answers (a holder the scheduler has set
// aside answers late), so the worker waits for the lock and admits, as
// every room-maker did before the ask. With two Ps or fewer the worker
// waits too: the holder, a submitter, shares them with the workers and is
// often set aside while it holds; the worker's wait gives it the P
// (measured on 2 cores: leaving the ask there made the saturated pool's
// tasks 4% dearer, with a quarter as many submitters blocking).
//
// Why no ask is lost: the asker stores admitAsked, then its TryLock reads
// e.mu's state and finds it held (or being handed over). The lock's
// owner, present or next, lets it go later in e.mu's order, and only
// through unlock, which loads admitAsked after the release: Go's atomics
// are sequentially consistent, so that load follows the asker's store and
// sees it, unless a swap that follows the store has taken it, and then
// that swap's holder admits. Seeing it, the owner takes the lock again to
// admit, or, failing that too, leaves the ask to the next owner by the
// same argument.

// admitAsk is W4 for a room-maker that does not hold e.mu: it asks e.mu's
// holder to admit blocked submitters into the room it made, and admits
// them itself if it gets the lock at once.
func (e *Engine[E]) admitAsk() {
	tally(tallyAsk)
	if e.ask() {
		return
	}
	if e.q.len() < e.q.half() || !e.manyProcs.Load() {
		// The queue is running low, or two Ps are shared by everyone:
		// the holder may answer late, so this worker admits itself.
		hook(hkAskWait)
		e.lock()
		e.unlock()
		return
	}
	hook(hkAskLeft)
}

// ask asks e.mu's holder to admit blocked submitters: a room-maker for
// the room it made, an arrival (arrivals.go) for itself. It reports
// whether it got the lock at once, and then it has answered the ask
// itself and let go.
func (e *Engine[E]) ask() bool {
	if !e.admitAsked.Load() {
		// A pending ask is answered after this load, so after this
		// caller's room was made, or its arrival pushed: it covers this
		// one too.
		e.admitAsked.Store(true)
	}
	if e.mu.m.TryLock() {
		tally(tallyLock)
		e.unlock()
		return true
	}
	return false
}

// unlock lets go of e.mu. First it answers an ask (admitAsk) that came
// while it was held, and it gathers the blocked submitters that were
// admitted meanwhile, to wake them once the lock is free: a wake-up may
// start a thread, a system call that would lengthen every other
// submitter's wait for the lock. After the release it looks for an ask
// that came in between, and takes the lock again for it if it is free.
// With no ask and nobody admitted, the common case, it is two loads, the
// release and one load after it, inlined into every caller.
func (e *Engine[E]) unlock() {
	for {
		var admitted *waiter[E]
		if e.admitAsked.Load() || e.mu.admitted != nil {
			admitted = e.answerLocked()
		}
		hook(hkUnlock)
		e.mu.m.Unlock()
		admitted.signalAll()
		if !e.admitAsked.Load() || !e.mu.m.TryLock() {
			return
		}
		tally(tallyLock)
	}
}

// answerLocked answers an ask, if one is pending, and returns the blocked
// submitters admitted under this hold, for unlock to wake. Requires e.mu.
func (e *Engine[E]) answerLocked() *waiter[E] {
	if e.admitAsked.Load() && e.admitAsked.Swap(false) {
		// On a closed engine the list is empty (C1) and the arrivals
		// are refused (A4): the admission admits nothing.
		e.admitWaitersLocked()
	}
	admitted := e.mu.admitted
	e.mu.admitted = nil
	return admitted
}

// lock takes e.mu on the paths every task may cross (starting, parking
// and admitting): a few tries, yielding between them, before it waits. The
// critical sections are a few dozen instructions, so the holder is nearly
// always about to let go: yielding lets it run if it shares our CPU, where
// sync.Mutex, after a short spin, parks the caller on a semaphore and
// costs a wake-up per contended acquisition (measured on the drop-in's
// blocking Invoke at parallelism 1-100: 6-11% of a call, 2 cores).
//
// With more than two Ps the holder runs on a P of its own, and the yield
// costs more than it gives: runtime.Gosched puts the caller on the
// scheduler's global queue under its one lock and, with a P idle, wakes a
// thread to run it (wakep). The caller waits in sync.Mutex instead, which
// spins while the holder runs (measured on 2 cores, GOMAXPROCS 4 and 16
// interleaved with the yields: no dearer; not measured on many cores).
func (e *Engine[E]) lock() {
	if e.manyProcs.Load() {
		e.mu.Lock()
		return
	}
	for i := 0; i < 4; i++ {
		if e.mu.m.TryLock() {
			tally(tallyLock)
			if i > 0 {
				tally(tallyLockHeld)
			}
			return
		}
		tally(tallyYield)
		runtime.Gosched()
	}
	tally(tallyLock)
	tally(tallyLockHeld)
	e.mu.m.Lock()
}

// readProcs reads GOMAXPROCS for the ask's rule. It is read where it is
// cheap to (Init, Resize, the stall check), not on the worker's path:
// runtime.GOMAXPROCS takes the scheduler's lock.
func (e *Engine[E]) readProcs() { e.manyProcs.Store(runtime.GOMAXPROCS(0) > 2) }
