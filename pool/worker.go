package pool

import (
	"runtime"
	"sync/atomic"
	"time"
)

// worker is one goroutine of the engine. While it holds a gate slot it
// runs units from its hand-off field and the queue; when there is nothing
// to run it gives the slot back and parks on the idle stack until a
// submitter, Resize or Release wakes it, or until it expires.
type worker[E any] struct {
	e    *engine[E]
	wake chan struct{} // buffered; one token per wake-up

	// Set by the waker under e.mu before the token is sent; read by the
	// worker after receiving it.
	task    E
	hasTask bool
	exit    bool

	idleAt int // index in e.mu.idle.ws, or -1; guarded by e.mu
	allAt  int // index in e.mu.all; guarded by e.mu
	// parkedAt is when the worker last parked; the purger retires it once
	// it has been idle for the expiry duration. Guarded by e.mu.
	parkedAt time.Time
	// retired is set, under e.mu, by the purger, which has already taken the
	// worker out of the books: woken with it, the goroutine just returns.
	retired bool

	completed atomic.Uint64 // written only by the worker's goroutine
}

// spawnLocked starts a worker goroutine; with slot set, the caller has
// taken a gate slot for it, and with has set, t is its first unit.
// Requires e.mu.
func (e *engine[E]) spawnLocked(slot bool, t E, has bool) {
	w := &worker[E]{e: e, wake: make(chan struct{}, 1), idleAt: -1, allAt: len(e.mu.all)}
	w.task, w.hasTask = t, has
	e.mu.all = append(e.mu.all, w)
	e.mu.live++
	go w.loop(slot)
}

// startLocked puts a worker to work on a slot the caller has taken: a
// parked one if there is one, else a new one. With has set, t is the first
// unit it runs. Requires e.mu.
func (e *engine[E]) startLocked(t E, has bool) {
	if has {
		e.mu.direct++
	}
	if e.mu.idle.len() > 0 {
		e.wakeLocked(e.mu.idle.pop(), t, has, false)
		return
	}
	e.spawnLocked(true, t, has)
}

func (e *engine[E]) wakeLocked(w *worker[E], t E, has, exit bool) {
	w.task, w.hasTask, w.exit = t, has, exit
	w.wake <- struct{}{}
}

// exitLocked takes a worker that holds no slot out of the books.
func (e *engine[E]) exitLocked(w *worker[E]) {
	last := len(e.mu.all) - 1
	moved := e.mu.all[last]
	e.mu.all[w.allAt] = moved
	moved.allAt = w.allAt
	e.mu.all[last] = nil
	e.mu.all = e.mu.all[:last]
	e.mu.completed += w.completed.Load()
	e.mu.live--
	e.maybeDoneLocked()
}

// loop is the worker goroutine. slot says whether it starts holding a slot.
func (w *worker[E]) loop(slot bool) {
	e := w.e
	returned := false
	defer func() {
		if !returned {
			// The unit called runtime.Goexit, which cannot be stopped: the
			// goroutine ends here, still holding its slot. A fresh
			// goroutine takes over the worker, so the pool keeps its size.
			go w.loop(true)
		}
	}()
	for {
		if slot {
			if w.hasTask {
				t := w.task
				w.task, w.hasTask = *new(E), false
				e.exec(w, t)
			}
			e.work(w)
		}
		if !e.park(w) {
			returned = true
			return
		}
		slot = true
	}
}

// exec runs one unit, isolating its panic.
func (e *engine[E]) exec(w *worker[E], t E) {
	defer func() {
		w.completed.Store(w.completed.Load() + 1)
		if r := recover(); r != nil {
			e.handlePanic(r)
		}
	}()
	e.run(t)
}

// work runs units while the worker holds a slot. It returns with the slot
// given back: when there is no work, or when a shrink left more slots held
// than the capacity allows.
func (e *engine[E]) work(w *worker[E]) {
	for {
		if e.gate.releaseIfOver() {
			e.afterRelease()
			return
		}
		t, ok := e.q.pop()
		if !ok {
			if t, ok = e.spin(); !ok {
				e.gate.release()
				e.afterRelease()
				// A producer that saw our slot held before we gave it back
				// relied on us to pop its unit: look once more.
				if e.q.len() > 0 && e.gate.acquireDraining() {
					continue
				}
				return
			}
		}
		if e.waitersN.Load() > 0 {
			e.admitWaiters() // the pop made room for a blocked submitter
		}
		e.exec(w, t)
	}
}

// afterRelease lets a blocked submitter use the slot just given back.
func (e *engine[E]) afterRelease() {
	if e.waitersN.Load() > 0 {
		e.admitWaiters()
	}
}

// spin looks for work a little longer before the worker parks, unless
// another worker is already doing so.
func (e *engine[E]) spin() (E, bool) {
	if e.q.size == 0 || e.spinning.Load() >= maxSpinners {
		return *new(E), false
	}
	e.spinning.Add(1)
	for range spinRounds {
		runtime.Gosched()
		if t, ok := e.q.pop(); ok {
			e.spinning.Add(-1)
			return t, true
		}
		if e.q.sealed() {
			break
		}
	}
	e.spinning.Add(-1)
	return *new(E), false
}

// park waits, holding no slot, until the worker is given a slot again
// (true) or must exit (false).
func (e *engine[E]) park(w *worker[E]) bool {
	e.mu.Lock()
	if e.mu.closed {
		// A closed engine still runs what it accepted.
		if !e.q.drained() && e.gate.acquireDraining() {
			e.mu.Unlock()
			return true
		}
		e.exitLocked(w)
		e.mu.Unlock()
		return false
	}
	if e.mu.live > e.gate.capacity() {
		e.exitLocked(w) // more workers than a shrunk capacity needs
		e.mu.Unlock()
		return false
	}
	if !e.cfg.disablePurge {
		w.parkedAt = time.Now()
		e.startPurgerLocked()
	}
	e.mu.idle.push(w)
	e.mu.Unlock()

	<-w.wake
	if w.retired {
		return false // the purger took it out of the books
	}
	if w.exit {
		w.exit = false
		e.mu.Lock()
		e.exitLocked(w)
		e.mu.Unlock()
		return false
	}
	return true
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
