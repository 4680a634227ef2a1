package engine

import (
	"runtime"
	"sync/atomic"

	"github.com/poolkit/poolkit/internal/callback"
	"github.com/poolkit/poolkit/internal/timing"
)

// worker is one goroutine of the engine. While it holds a gate slot it
// runs units handed to it and taken from the front and the queue; when
// there is nothing to run it gives the slot back and parks on the idle
// stack until a submitter, Resize or a close wakes it, or until it expires.
type worker[E any] struct {
	e    *Engine[E]
	wake chan struct{} // buffered; one token per park

	// Set by the waker under e.mu before the token is sent (or before the
	// goroutine is started); read by the worker after receiving it.
	start start[E]
	// retired is set with the token by whoever took the worker out of the
	// books (close, a shrink, the purger): woken with it, the goroutine
	// just returns.
	retired bool

	idleAt int // index in e.mu.idle.ws, or -1; guarded by e.mu
	allAt  int // index in e.mu.all; guarded by e.mu
	// parkedAt is when the worker last parked, a clock reading
	// (timings.go: one read of the monotonic clock, where time.Now reads
	// the wall clock too); the purger retires it once it has been idle for
	// the expiry duration. Guarded by e.mu.
	parkedAt int64

	// holds says whether the worker holds a slot; kept only under the
	// poolkit_hooks build tag, for the S1 and S5 checks.
	holds bool

	// handled says that the worker's last unit panicked and it is counted
	// in e.handling; only its own goroutine reads or writes it.
	handled bool
	// reported says that the panic unwinding the worker's unit has been
	// reported to a caller of its own (PanicReported): it is counted and
	// given to the panic handler, but not logged. Set by the unit, taken
	// by exec; only the worker's own goroutine reads or writes it. (It
	// fills padding after handled: the fields below keep their offsets.)
	reported bool

	// leaving holds the panic of the worker's last unit, on an engine whose
	// workers leave after a panic (config.leaveOnPanic): the worker leaves
	// the pool (leave) before the panic handler sees it. helping counts
	// the units it runs in another's place (execInside), whose panics are
	// their own and never make it leave. Only its own goroutine reads or
	// writes them.
	leaving *leavingPanic
	helping int

	// searching says that the worker is counted in e.spinning: it holds a
	// slot and looks for queued work that others left to it (W2). Only its
	// own goroutine reads or writes it, once started.
	searching bool

	completed atomic.Uint64 // written only by the worker's goroutine

	// listed says the worker is in the books (e.mu.all); written under
	// e.mu, read without it by callerWorker. It takes a word, as the
	// field it replaced did, so that the fields below, which the worker
	// and its waker write, keep the cache-line offsets they were measured
	// with.
	listed atomic.Bool
	_      [7]byte

	// The worker's timings (timings.go), written only by its goroutine,
	// except lastEnd, which its waker sets too, like start.
	//
	// lastEnd is a time no later than the start of the worker's next
	// unit, from which that start is inferred: the clock reading at the
	// end of its last unit, or, once woken, since when the work it was
	// woken for has been available (startLocked); unknownEnd when it is
	// not known.
	lastEnd       int64
	wait, service timing.Recorder

	// local is what the task running on the worker records of itself
	// under Config.RunLocal. Only its own goroutine reads or writes it.
	// Last, so that the fields above keep their places.
	local any
}

// start is what a worker is started with by whoever took a slot for it
// (startLocked): what it does first, the unit handed over if any, and its
// lastEnd.
type start[E any] struct {
	kind startKind
	unit unit[E] // with startUnit: the first unit the worker runs
	// since, the worker's lastEnd, says from when the work it is started
	// for has been available, a time no later than its start
	// (timings.go): the stamp of the unit handed over or just queued, the
	// time of a grow or a close that starts workers for waiting work, a
	// notifying worker's own lastEnd (W2), or unknownEnd when the caller
	// has no clock reading (the worker then reads the clock when it starts
	// a timed unit).
	since int64
}

// startKind is what a worker started on a slot does first.
type startKind uint8

const (
	// startWork: take units from the front and the queue, as every slot
	// holder does (T5, T6, and the goroutine that replaces one ended by
	// runtime.Goexit).
	startWork startKind = iota
	// startUnit: run the unit handed over with the slot (T1-T3).
	startUnit
	// startSearch: look for the queued work it was started for, counted
	// in e.spinning from the moment the starter counted it (W1, W2).
	startSearch
)

// newWorkerLocked puts a new worker in the books. Requires e.mu.
func (e *Engine[E]) newWorkerLocked() *worker[E] {
	w := &worker[E]{e: e, wake: make(chan struct{}, 1), idleAt: -1, allAt: len(e.mu.all), lastEnd: unknownEnd}
	e.mu.all = append(e.mu.all, w)
	w.listed.Store(true)
	e.mu.live++
	e.mu.started++
	return w
}

// spawnParkedLocked starts a worker goroutine that holds no slot, parked
// from the start, so that close can retire it at once. Requires e.mu.
func (e *Engine[E]) spawnParkedLocked() {
	w := e.newWorkerLocked()
	e.idleLocked(w)
	go workerRoot(func() { w.loop(waitParked) })
}

// startLocked puts a worker to work on a slot the caller has taken: a
// parked one if there is one, else a new one. A unit handed over is
// counted as submitted here (it never passes through the queue); a
// searcher must already be counted in e.spinning. Requires e.mu.
//
// It returns the parked worker it chose, for the caller to wake with
// wakeUp, or nil when it started a goroutine. The hot paths wake it after
// unlocking mu: a wake-up may make the runtime start a thread for an idle
// CPU, a system call that would otherwise lengthen the critical section
// every submitter and every parking worker waits on. The chosen worker is
// off the idle stack, so nothing but that wake-up reaches it meanwhile
// (close, a shrink and the purger retire parked workers only).
func (e *Engine[E]) startLocked(s start[E]) *worker[E] {
	if s.kind == startUnit {
		e.mu.direct++
	}
	if e.mu.idle.len() > 0 {
		w := e.mu.idle.pop()
		w.start, w.lastEnd = s, s.since
		return w
	}
	w := e.newWorkerLocked()
	w.start, w.lastEnd = s, s.since
	tally(tallyWake)
	go workerRoot(func() { w.loop(runOn) })
	return nil
}

// wakeUp wakes w, a worker startLocked chose, or does nothing for nil.
func (w *worker[E]) wakeUp() {
	if w != nil {
		tally(tallyWake)
		w.wake <- struct{}{}
	}
}

// retireLocked takes a worker that has just been removed from the idle
// stack out of the books and lets its goroutine return. Requires e.mu.
func (e *Engine[E]) retireLocked(w *worker[E]) {
	e.exitLocked(w)
	w.retired = true
	w.wake <- struct{}{}
}

// exitLocked takes a worker that holds no slot out of the books.
func (e *Engine[E]) exitLocked(w *worker[E]) {
	if hooksOn {
		invariant(!w.holds, "a worker left the books holding a slot")
	}
	w.listed.Store(false)
	last := len(e.mu.all) - 1
	moved := e.mu.all[last]
	e.mu.all[w.allAt] = moved
	moved.allAt = w.allAt
	e.mu.all[last] = nil
	e.mu.all = e.mu.all[:last]
	e.mu.completed += w.completed.Load()
	w.wait.AddTo(&e.mu.timings.Wait)
	w.service.AddTo(&e.mu.timings.Service)
	e.mu.live--
	e.maybeDoneLocked()
}

// loop is the worker goroutine. next says how it starts: holding a slot
// (runOn) or parked (waitParked).
func (w *worker[E]) loop(next parkOutcome) {
	e := w.e
	g := goid() // the worker's identity for calls from inside its units (reentry.go)
	e.byGID.Store(g, w)
	returned := false
	defer func() {
		e.byGID.Delete(g)
		if !returned {
			// The unit called runtime.Goexit, which cannot be stopped: the
			// goroutine ends here, still holding its slot. A fresh
			// goroutine takes over the worker and the slot (S4), so the
			// pool keeps its size.
			go workerRoot(func() { w.loop(runOn) })
		}
	}()
	for {
		switch next {
		case waitParked:
			hook(hkPark)
			<-w.wake
			hook(hkWoken)
			if w.retired {
				returned = true
				return
			}
		case recheckRun:
			// The yield lets a pusher that has claimed a ring slot finish
			// filling it.
			tally(tallyYield)
			runtime.Gosched()
		}
		if hooksOn {
			w.holds = true
		}
		s := w.start
		w.start = start[E]{}
		switch s.kind {
		case startUnit:
			e.exec(w, s.unit)
		case startSearch:
			w.searching = true // counted in e.spinning by the starter
		}
		end := e.work(w)
		if end == panicked {
			// Out of the books before the panic handler runs, whatever
			// the handler does (a runtime.Goexit in it ends a goroutine
			// that no longer is a worker).
			returned = true
			e.leave(w)
			return
		}
		if next = e.park(w, end); next == exit {
			returned = true
			return
		}
	}
}

// parkOutcome is what a worker that gave its slot back does next.
type parkOutcome uint8

const (
	waitParked parkOutcome = iota // it is on the idle stack: wait for a wake-up
	runOn                         // it holds a slot: go on working
	recheckRun                    // it took a slot again for work it saw after giving its own back (W3): yield, then go on working
	exit                          // it is out of the books: return
)

// workEnd says how a worker's round of work ended.
type workEnd uint8

const (
	// foundNothing: nothing to run; the worker still holds its slot, and
	// park gives it back.
	foundNothing workEnd = iota
	// gaveSlotBack: a shrink left more slots held than the capacity
	// allows, and the worker gave its slot back (S5, S2).
	gaveSlotBack
	// panicked: the worker's unit panicked on an engine whose workers
	// leave after a panic; it still holds its slot, which leave gives back.
	panicked
)

// exec runs one unit, isolating its panic. With timings on when it starts,
// the unit is timed: its wait is recorded now, its service once it has
// returned, panicked (before the panic handler runs) or called
// runtime.Goexit (timings.go).
func (e *Engine[E]) exec(w *worker[E], t unit[E]) {
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
		reported := w.reported // this unit's, or a nested one's that recovered it
		w.reported = false
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
			if e.cfg.LeaveOnPanic && w.helping == 0 {
				w.leaving = &leavingPanic{r, reported} // handled once the worker has left (leave)
				return
			}
			e.handlePanic(r, reported)
		}
	}()
	if run := e.cfg.RunLocal; run != nil {
		run(t.v, &w.local) // Config.RunLocal
		return
	}
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

// leavingPanic is the panic of a worker's last unit, kept for the panic
// handler until the worker has left.
type leavingPanic struct {
	r        any
	reported bool
}

// leave takes a worker whose unit panicked out of the pool, on an engine
// whose workers leave after a panic (ants' do): it gives its slot back and
// leaves the books, and only then passes the panic to the handler, so that
// the handler, and whoever it signals, sees the pool without it, as in
// ants. The slot given back is room for a blocked submitter (W4), whose
// unit starts a fresh worker; and, as park's last look does (W3), work
// that pushers left to this worker's held slot gets a searcher in its
// place.
func (e *Engine[E]) leave(w *worker[E]) {
	hook(hkGiveBack)
	e.lock()
	e.gate.release()
	w.settle()
	if hooksOn {
		w.holds = false
	}
	var searcher *worker[E]
	if e.recheck() { // W3, for a searcher started in this worker's place
		searcher = e.startLocked(start[E]{kind: startSearch, since: unknownEnd})
	}
	e.exitLocked(w)
	if !e.mu.closed && e.waitersN.Load() > 0 {
		e.admitWaitersLocked()
	}
	e.roomLocked()
	e.unlock()
	searcher.wakeUp()
	p := w.leaving
	w.leaving = nil
	e.handlePanic(p.r, p.reported)
}

// handlePanic counts a task's panic and passes it to the panic handler,
// or, without one, to the logger, unless the unit has reported it to a
// caller of its own (PanicReported): that one only a handler sees. It
// runs in exec's deferred function, on the worker: a panic handler that
// panics in turn is recovered and reported, one that calls
// runtime.Goexit ends the worker's goroutine as a task's Goexit does (the
// unit is already counted; loop replaces the goroutine), and the logger
// cannot cut this short at all (report).
func (e *Engine[E]) handlePanic(r any, reported bool) {
	e.panicked.Add(1)
	if h := e.cfg.PanicHandler; h != nil {
		if again := callHandler(h, r); again != nil {
			e.report("pool: panic handler panicked", again)
		}
		return
	}
	if !reported {
		e.report("pool: task panicked", r)
	}
}

// PanicReported, called by a unit of e just before it panics (or goes on
// panicking) with a panic it has reported to a caller of its own (a
// Future's Wait, a Group's), marks that panic reported: the engine counts
// it and passes it to the panic handler, if one is set, but does not log
// it. Called outside a unit of e it does nothing. It costs what Inside
// does.
func (e *Engine[E]) PanicReported() {
	if w := e.callerWorker(); w != nil {
		w.reported = true
	}
}

// callHandler calls the panic handler h with r, and returns what h
// panicked with, if it did.
func callHandler(h func(any), r any) (again any) {
	defer func() { again = recover() }()
	h(r)
	return nil
}

// report writes a panic, with the calling goroutine's stack, to the
// logger. The logger is user code: it runs isolated, so that its own
// panic or runtime.Goexit is lost rather than unwinding the worker, which
// is restoring its books when it reports.
func (e *Engine[E]) report(msg string, r any) {
	buf := make([]byte, 4<<10)
	buf = buf[:runtime.Stack(buf, false)]
	callback.Isolated(func() { e.cfg.Logf(msg, "panic", r, "stack", string(buf)) })
}
