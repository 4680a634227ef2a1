package pool

import (
	"runtime"
	"sync/atomic"
	"time"
)

// worker is one goroutine of the engine. While it holds a gate slot it
// runs units handed to it and taken from the front and the queue; when
// there is nothing to run it gives the slot back and parks on the idle
// stack until a submitter, Resize or Release wakes it, or until it expires.
type worker[E any] struct {
	e    *engine[E]
	wake chan struct{} // buffered; one token per park

	// Set by the waker under e.mu before the token is sent; read by the
	// worker after receiving it.
	task    unit[E]
	hasTask bool
	// retired is set with the token by whoever took the worker out of the
	// books (close, a shrink, the purger): woken with it, the goroutine
	// just returns.
	retired bool

	idleAt int // index in e.mu.idle.ws, or -1; guarded by e.mu
	allAt  int // index in e.mu.all; guarded by e.mu
	// parkedAt is when the worker last parked; the purger retires it once
	// it has been idle for the expiry duration. Guarded by e.mu.
	parkedAt time.Time

	// holds says whether the worker holds a slot; kept only under the
	// poolkit_hooks build tag, for the S1 and S5 checks.
	holds bool

	// handled says that the worker's last unit panicked and it is counted
	// in e.handling; only its own goroutine reads or writes it.
	handled bool

	completed atomic.Uint64 // written only by the worker's goroutine

	// The worker's timings (timings.go), written only by its goroutine,
	// except lastEnd, which its waker sets too, like task.
	//
	// lastEnd is a time no later than the start of the worker's next
	// unit, from which that start is inferred: the clock reading at the
	// end of its last unit, or, once woken, since when the work it was
	// woken for has been available (startLocked); unknownEnd when it is
	// not known.
	lastEnd       int64
	wait, service histogramRec
}

// spawnLocked starts a worker goroutine; with slot set, the caller has
// taken a gate slot for it, and with has set, t is its first unit. since
// is its lastEnd (startLocked). Requires e.mu.
func (e *engine[E]) spawnLocked(slot bool, t unit[E], has bool, since int64) {
	w := &worker[E]{e: e, wake: make(chan struct{}, 1), idleAt: -1, allAt: len(e.mu.all), lastEnd: since}
	w.task, w.hasTask = t, has
	e.mu.all = append(e.mu.all, w)
	e.mu.live++
	if !slot {
		e.idleLocked(w) // parked from the start, so that close can retire it at once
	}
	go w.loop(slot)
}

// startLocked puts a worker to work on a slot the caller has taken: a
// parked one if there is one, else a new one. With has set, t is the first
// unit it runs. since, its lastEnd, says from when the work it is started
// for has been available, a time no later than its start (timings.go):
// the stamp of the unit handed over or just queued, the time of a grow or
// a close that starts workers for waiting work, a notifying worker's own
// lastEnd (W2), or unknownEnd when the caller has no clock reading (the
// worker then reads the clock when it starts a timed unit). Requires e.mu.
func (e *engine[E]) startLocked(t unit[E], has bool, since int64) {
	if has {
		e.mu.direct++
	}
	if e.mu.idle.len() > 0 {
		w := e.mu.idle.pop()
		w.task, w.hasTask, w.lastEnd = t, has, since
		w.wake <- struct{}{}
		return
	}
	e.spawnLocked(true, t, has, since)
}

// retireLocked takes a worker that has just been removed from the idle
// stack out of the books and lets its goroutine return. Requires e.mu.
func (e *engine[E]) retireLocked(w *worker[E]) {
	e.exitLocked(w)
	w.retired = true
	w.wake <- struct{}{}
}

// exitLocked takes a worker that holds no slot out of the books.
func (e *engine[E]) exitLocked(w *worker[E]) {
	if hooksOn {
		invariant(!w.holds, "a worker left the books holding a slot")
	}
	last := len(e.mu.all) - 1
	moved := e.mu.all[last]
	e.mu.all[w.allAt] = moved
	moved.allAt = w.allAt
	e.mu.all[last] = nil
	e.mu.all = e.mu.all[:last]
	e.mu.completed += w.completed.Load()
	w.wait.addTo(&e.mu.timings.Wait)
	w.service.addTo(&e.mu.timings.Service)
	e.mu.live--
	e.maybeDoneLocked()
}

// loop is the worker goroutine. slot says whether it starts holding a
// slot; a worker spawned without one starts parked (spawnLocked).
func (w *worker[E]) loop(slot bool) {
	e := w.e
	returned := false
	defer func() {
		if !returned {
			// The unit called runtime.Goexit, which cannot be stopped: the
			// goroutine ends here, still holding its slot. A fresh
			// goroutine takes over the worker and the slot (S4), so the
			// pool keeps its size.
			go w.loop(true)
		}
	}()
	next := runOn
	if !slot {
		next = waitParked
	}
	for {
		if next == waitParked {
			hook(hkPark)
			<-w.wake
			hook(hkWoken)
			if w.retired {
				returned = true
				return
			}
		}
		if hooksOn {
			w.holds = true
		}
		if w.hasTask {
			t := w.task
			w.task, w.hasTask = unit[E]{}, false
			e.exec(w, t)
		}
		e.work(w)
		if hooksOn {
			w.holds = false
		}
		if next = e.park(w); next == exit {
			returned = true
			return
		}
	}
}

// parkOutcome is what a worker that gave its slot back does next.
type parkOutcome uint8

const (
	waitParked parkOutcome = iota // it is on the idle stack: wait for a wake-up
	runOn                         // it holds a slot again: go on working
	exit                          // it is out of the books: return
)

// exec runs one unit, isolating its panic. With timings on when it starts,
// the unit is timed: its wait is recorded now, its service once it has
// returned, panicked (before the panic handler runs) or called
// runtime.Goexit (timings.go).
func (e *engine[E]) exec(w *worker[E], t unit[E]) {
	if hooksOn {
		invariant(w.holds, "a unit ran on a worker holding no slot (S1)")
	}
	timed := e.timings.Load()
	var start int64
	if timed {
		start = w.started(t.at)
	} else {
		w.lastEnd = unknownEnd
	}
	defer func() {
		r := recover()
		if timed {
			w.ended(start) // before the count: a caller that sees it completed sees it timed
		}
		w.completed.Store(w.completed.Load() + 1)
		if r != nil {
			w.handled = true
			e.handling.Add(1)
			// The handler runs on this worker: its next unit does not
			// start at this one's end.
			w.lastEnd = unknownEnd
			e.handlePanic(r)
		}
	}()
	e.run(t.v)
}

// settle ends the handling count of a worker whose unit panicked, once it
// has given its slot back or taken its next unit.
func (w *worker[E]) settle() {
	if w.handled {
		w.handled = false
		w.e.handling.Add(-1)
	}
}

// work runs units while the worker holds a slot. It returns with the slot
// given back (S5): when there is no work, or when a shrink left more slots
// held than the capacity allows.
func (e *engine[E]) work(w *worker[E]) {
	for {
		if e.gate.releaseIfOver() {
			w.settle()
			e.afterRelease()
			return
		}
		t, pos, ok := e.take()
		if !ok {
			t, pos, ok = e.spin()
		}
		if !ok && e.q.size == 0 && e.waitersN.Load() > 0 {
			// W5: hand this slot to the oldest blocked submitter.
			wt, taken, released := e.takeWaiter()
			if released {
				w.settle()
				e.afterRelease()
				return
			}
			if taken {
				hook(hkConfirmed)
				w.settle()
				e.exec(w, wt)
				continue
			}
		}
		if !ok {
			e.gate.release()
			w.settle()
			e.afterRelease()
			hook(hkRecheck)
			// W3: a pusher that saw our slot held, or saw us spinning,
			// relied on us to take its unit: look once more. The yield
			// lets a pusher that has claimed a ring slot finish filling it.
			if e.hasWork() && e.gate.acquireDraining() {
				runtime.Gosched()
				continue
			}
			return
		}
		hook(hkTaken)
		// W2: whoever takes a unit applies W1 to the work it leaves: the
		// submitters that saw a spinner (or this worker spinning before it
		// gave up and looked again, W3) each left a unit to it, and it runs
		// only one; a worker started for them likewise.
		if e.hasWork() {
			// This worker's lastEnd comes before the start of whatever
			// the worker started here takes, and close to it when the
			// work was left to this worker while it looked for work.
			e.notify(w.lastEnd)
		}
		// S2: the unit starts here, if the capacity in force now allows
		// it. The check must follow the take: a shrink between an earlier
		// check and the take would otherwise not hold for this unit.
		if e.gate.releaseIfOver() {
			e.deferStart(t, pos)
			w.settle()
			e.afterRelease()
			return
		}
		hook(hkConfirmed)
		if e.waitersN.Load() > 0 {
			e.admitWaiters() // the take made room for a blocked submitter
		}
		w.settle()
		e.exec(w, t)
	}
}

// takeWaiter is W5: a worker holding a slot in a pool with no queue, with
// nothing else to run, takes the oldest blocked submitter's unit to run in
// that slot, and wakes the submitter with its unit accepted. The capacity
// check (S2) follows the choice of the waiter, under mu: if a shrink left
// too many slots held, the slot is given back instead (released), and the
// waiter stays for whoever has room. Without W5 the worker would give the
// slot back only for admitWaiters to take it again and start another
// worker, a goroutine switch (or a spawn) per unit under backpressure.
func (e *engine[E]) takeWaiter() (t unit[E], taken, released bool) {
	hook(hkWaiterTake)
	e.mu.Lock()
	defer e.mu.Unlock()
	w := e.mu.waiters.head
	if w == nil {
		return unit[E]{}, false, false
	}
	hook(hkAdmitWaiter)
	if e.gate.releaseIfOver() {
		return unit[E]{}, false, true
	}
	t = w.task
	if !w.accepted {
		t.at = e.stamp()
	}
	e.mu.direct++
	e.settleLocked(w)
	return t, true, false
}

// afterRelease lets a blocked submitter use the slot just given back (W4).
func (e *engine[E]) afterRelease() {
	if e.waitersN.Load() > 0 {
		e.admitWaiters()
	}
}

// spin looks for work a little longer before the worker parks, unless
// another worker is already doing so. It keeps the worker's slot.
func (e *engine[E]) spin() (unit[E], uint64, bool) {
	if e.q.size == 0 || e.spinning.Load() >= maxSpinners {
		return unit[E]{}, 0, false
	}
	e.spinning.Add(1)
	hook(hkSpinStart)
	for range spinRounds {
		runtime.Gosched()
		if t, pos, ok := e.take(); ok {
			e.spinning.Add(-1)
			hook(hkSpinFound)
			return t, pos, true // the caller applies W2
		}
		if e.q.sealed() {
			break
		}
	}
	hook(hkSpinLast)
	e.spinning.Add(-1)
	hook(hkSpinGiveUp)
	return unit[E]{}, 0, false
}

// park decides, holding no slot, what the worker does next: wait on the
// idle stack for a wake-up, run on with a slot taken again, or exit.
func (e *engine[E]) park(w *worker[E]) parkOutcome {
	e.mu.Lock()
	defer e.mu.Unlock()
	if hooksOn {
		invariant(!w.holds, "a worker parked holding a slot (S5)")
	}
	if e.mu.closed {
		// A closed engine still runs what it accepted (T8).
		if (!e.q.drained() || len(e.mu.front) > 0) && e.gate.acquireDraining() {
			return runOn
		}
		e.exitLocked(w)
		return exit
	}
	if e.mu.live > e.gate.capacity() {
		e.exitLocked(w) // more workers than a shrunk capacity needs
		return exit
	}
	e.idleLocked(w)
	return waitParked
}

// idleLocked puts w, which holds no slot, on the idle stack. Requires e.mu.
func (e *engine[E]) idleLocked(w *worker[E]) {
	e.mu.idle.push(w)
	if !e.cfg.disablePurge {
		w.parkedAt = time.Now()
		e.startPurgerLocked()
	}
}

func (e *engine[E]) handlePanic(r any) {
	e.panicked.Add(1)
	if h := e.cfg.panicHandler; h != nil {
		h(r)
		return
	}
	buf := make([]byte, 4<<10)
	buf = buf[:runtime.Stack(buf, false)]
	e.cfg.logf("pool: task panicked", "panic", r, "stack", string(buf))
}
