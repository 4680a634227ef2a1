package pool

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/poolkit/poolkit/resize"
)

// engine is the scheduling core that Pool and FuncPool wrap: it runs units
// of type E, each by calling run once (one "turn"). A task is the simplest
// unit; an actor is a unit whose turn drains part of its mailbox and
// submits itself again.
//
// Its parts, each in a file of its own: the gate (gate.go) bounds how many
// units run at once and carries the capacity; the queue (queue.go) holds
// accepted units until a worker is free; the workers (worker.go) run units
// while they hold a gate slot and park when there is nothing to do; blocked
// submitters wait in a list (waiters.go) carrying their units.
//
// The hot path takes no lock: Submit pushes on the queue and, only when no
// worker is already looking for work, takes a slot and wakes a worker.
// Workers that run out of work spin briefly before parking, so a steady
// stream of small tasks is handed over without goroutine wake-ups.
type engine[E any] struct {
	gate     gate
	q        queue[E]
	spinning atomic.Int32 // workers holding a slot while looking for work
	_        [60]byte
	waitersN atomic.Int64 // blocked submitters, including ones registering
	_        [56]byte

	run func(E) // runs one unit; nil until the engine is initialised
	cfg config

	// spare recycles waiters: under sustained backpressure every blocked
	// Submit needs one, and allocating them dominated the I/O benchmark's
	// garbage.
	spare sync.Pool

	panicked atomic.Uint64
	rejected atomic.Uint64
	resizes  atomic.Uint64
	returned atomic.Uint64

	// mu guards the fields in it and serialises the slow paths: starting
	// and parking workers, blocked submitters, closing and reopening.
	mu struct {
		sync.Mutex
		idle      idleStack[E] // parked workers
		all       []*worker[E] // every live worker, for Stats
		waiters   waitList[E]
		live      int  // worker goroutines alive
		closed    bool // Release was called (and no Reboot since)
		done      chan struct{}
		doneSent  bool   // done is closed
		direct    uint64 // units handed straight to a worker, bypassing the queue
		completed uint64 // completed by workers that have exited
		purging   bool   // the purger goroutine runs
	}
	purgeKick chan struct{} // wakes a sleeping purger; buffered
}

// Spinning trades a little CPU for not having to wake a parked goroutine
// for the next task. One spinner is enough to catch a steady stream; more
// steal cycles from the workers that run tasks.
const (
	maxSpinners = 1
	spinRounds  = 16
)

var errNotInitialised = errors.New("pool: not created with New")

func (e *engine[E]) init(size int, run func(E), cfg config) {
	e.cfg = cfg
	e.run = run
	e.gate.init(size)
	e.q.init(cfg.queueSize)
	e.mu.done = make(chan struct{})
	e.purgeKick = make(chan struct{}, 1)
	n := cfg.minWorkers
	if cfg.preAlloc {
		n = max(n, size)
	}
	e.mu.Lock()
	for range min(n, size) {
		e.spawnLocked(false, *new(E), false)
	}
	e.mu.Unlock()
}

// submit accepts t, or says why not. ctx may be nil (no cancellation).
//
// A free slot with no worker looking for work means t can start now: it
// is handed straight to a worker, so it never takes room in the queue
// (with capacity 1 and a queue of 1, a second task must still fit).
// Otherwise t goes on the queue, where a spinning worker or the next slot
// holder to finish will find it.
func (e *engine[E]) submit(ctx context.Context, t E) error {
	if e.waitersN.Load() == 0 {
		if e.spinning.Load() == 0 && e.gate.acquire() {
			e.mu.Lock()
			e.startLocked(t, true)
			e.mu.Unlock()
			return nil
		}
		if e.q.push(t) {
			e.notify()
			return nil
		}
	}
	return e.submitSlow(ctx, t)
}

// notify makes sure a worker will pop what was just pushed: a spinning
// worker will, and so will any slot holder, so only when there is neither
// and a slot is free does it take the slot and start a worker.
func (e *engine[E]) notify() {
	if e.spinning.Load() > 0 || !e.gate.acquire() {
		return
	}
	e.mu.Lock()
	e.startLocked(*new(E), false)
	e.mu.Unlock()
}

func (e *engine[E]) notifyLocked() {
	if e.spinning.Load() == 0 && e.gate.acquire() {
		e.startLocked(*new(E), false)
	}
}

func (e *engine[E]) submitSlow(ctx context.Context, t E) error {
	if e.run == nil {
		return errNotInitialised
	}
	// A spinning worker holds a slot but is about to pop: the pool is not
	// saturated, so wait for the room it makes rather than report overload.
	for range spinRounds {
		if e.spinning.Load() == 0 || e.waitersN.Load() != 0 {
			break
		}
		runtime.Gosched()
		if e.q.push(t) {
			e.notify()
			return nil
		}
	}
	e.mu.Lock()
	if e.mu.closed {
		e.mu.Unlock()
		e.rejected.Add(1)
		return ErrPoolClosed
	}
	// Announce before retrying: a worker that frees room after this load
	// sees waitersN > 0 and comes to admitWaiters, which needs mu.
	e.waitersN.Add(1)
	if e.mu.waiters.n == 0 {
		if e.q.push(t) {
			e.waitersN.Add(-1)
			e.notifyLocked()
			e.mu.Unlock()
			return nil
		}
		if e.gate.acquire() {
			e.waitersN.Add(-1)
			e.startLocked(t, true)
			e.mu.Unlock()
			return nil
		}
	}
	if e.cfg.nonblocking || (e.cfg.maxBlocking > 0 && e.mu.waiters.n >= e.cfg.maxBlocking) {
		e.waitersN.Add(-1)
		e.mu.Unlock()
		e.rejected.Add(1)
		return ErrPoolOverload
	}
	w, _ := e.spare.Get().(*waiter[E])
	if w == nil {
		w = &waiter[E]{done: make(chan struct{}, 1)}
	}
	w.task = t
	e.mu.waiters.pushBack(w)
	e.mu.Unlock()

	var cancel <-chan struct{}
	if ctx != nil {
		cancel = ctx.Done()
	}
	select {
	case <-w.done:
	case <-cancel:
		e.mu.Lock()
		if w.queued {
			e.mu.waiters.remove(w)
			e.waitersN.Add(-1)
			e.mu.Unlock()
			w.task = *new(E)
			e.spare.Put(w)
			e.rejected.Add(1)
			return ctx.Err()
		}
		e.mu.Unlock()
		<-w.done // admitted or rejected just before the cancellation
	}
	err := w.err
	w.err = nil
	e.spare.Put(w) // its token is consumed, so the next user starts clean
	if err != nil {
		e.rejected.Add(1)
	}
	return err
}

// admitWaiters moves blocked submitters' units into the room that has
// just been freed, oldest first, and wakes them.
func (e *engine[E]) admitWaiters() {
	e.mu.Lock()
	for w := e.mu.waiters.head; w != nil; w = e.mu.waiters.head {
		if e.q.push(w.task) {
			e.mu.waiters.finish(w, nil)
			e.waitersN.Add(-1)
			e.notifyLocked()
			continue
		}
		if e.gate.acquire() {
			t := w.task
			e.mu.waiters.finish(w, nil)
			e.waitersN.Add(-1)
			e.startLocked(t, true)
			continue
		}
		break
	}
	e.mu.Unlock()
}

// resize implements resize.Resizer for both front-ends.
func (e *engine[E]) resize(n int) error {
	if err := resize.Validate(n); err != nil {
		return err
	}
	if e.run == nil {
		return errNotInitialised
	}
	old, ok := e.gate.setCap(n)
	if !ok {
		return ErrPoolClosed
	}
	if n == old {
		return nil
	}
	e.resizes.Add(1)
	e.mu.Lock()
	if n > old {
		// Grow is prompt: start workers for the waiting work now rather
		// than when a running task finishes.
		for pending := e.q.len(); pending > 0 && e.gate.acquire(); pending-- {
			e.startLocked(*new(E), false)
		}
	} else {
		// Shrink never touches running tasks; idle workers beyond the new
		// capacity have nothing left to do, so let them go now.
		for e.mu.idle.len() > 0 && e.mu.live > n {
			e.wakeLocked(e.mu.idle.pop(), *new(E), false, true)
		}
	}
	e.mu.Unlock()
	if n > old && e.waitersN.Load() > 0 {
		e.admitWaiters()
	}
	return nil
}

// close stops intake. Accepted units still run unless abandon is set, in
// which case the ones that have not started are removed and returned.
func (e *engine[E]) close(abandon bool) []E {
	if e.run == nil {
		return nil
	}
	e.mu.Lock()
	if !e.mu.closed {
		e.mu.closed = true
		e.gate.close()
		e.q.seal()
		for w := e.mu.waiters.head; w != nil; w = e.mu.waiters.head {
			e.mu.waiters.finish(w, ErrPoolClosed)
			e.waitersN.Add(-1)
		}
		if !abandon {
			// Accepted work with no slot holder to run it gets drainers.
			for pending := e.q.len(); pending > 0 && e.gate.acquireDraining(); pending-- {
				e.startLocked(*new(E), false)
			}
		}
		for e.mu.idle.len() > 0 {
			e.wakeLocked(e.mu.idle.pop(), *new(E), false, true)
		}
		e.kickPurgerLocked()
		e.maybeDoneLocked()
	}
	e.mu.Unlock()
	if !abandon {
		return nil
	}
	var out []E
	for {
		t, ok := e.q.popSealed()
		if !ok {
			break
		}
		out = append(out, t)
	}
	e.returned.Add(uint64(len(out)))
	return out
}

// maybeDoneLocked closes done once the engine is closed and no worker, and
// no slot about to become one, is left.
func (e *engine[E]) maybeDoneLocked() {
	if e.mu.closed && !e.mu.doneSent && e.mu.live == 0 && e.gate.held() == 0 && !e.mu.purging {
		e.mu.doneSent = true
		close(e.mu.done)
	}
}

// wait blocks until every worker of a closed engine has exited or ctx is
// done. The done channel is read under mu because Reboot replaces it.
func (e *engine[E]) wait(ctx context.Context) error {
	if e.run == nil {
		return nil
	}
	e.mu.Lock()
	done := e.mu.done
	e.mu.Unlock()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// reboot reopens a closed engine once the workers of its previous life have
// exited.
func (e *engine[E]) reboot() {
	if e.run == nil {
		return
	}
	e.mu.Lock()
	if !e.mu.closed {
		e.mu.Unlock()
		return
	}
	done := e.mu.done
	e.mu.Unlock()
	<-done
	e.mu.Lock()
	if e.mu.closed && e.mu.doneSent {
		e.mu.closed = false
		e.mu.doneSent = false
		e.mu.done = make(chan struct{})
		e.gate.reopen()
		e.q.unseal()
	}
	e.mu.Unlock()
}

func (e *engine[E]) isClosed() bool {
	if e.run == nil {
		return false
	}
	return e.gate.closed()
}

func (e *engine[E]) running() int {
	return max(0, e.gate.held()-int(e.spinning.Load()))
}

func (e *engine[E]) waiting() int {
	return e.q.len() + int(e.waitersN.Load())
}
