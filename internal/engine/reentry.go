package engine

import (
	"context"
	"reflect"
	"runtime"
	"time"
)

// Calls from inside a task. A task may call back into its own pool: submit
// more work, wait for a group or a future whose tasks are queued behind
// it, close the pool. Each of these would wait for something only the pool
// can do, and the pool may have no other slot to do it with: a pool of one
// whose task waits for a task queued behind it waits for ever. So every
// call that is about to wait first asks whether its caller is one of the
// engine's workers (callerWorker), and if so does not wait as an outsider
// would:
//
//   - Submit, Invoke, Group.Go and SubmitResult, finding no room, run the
//     oldest waiting task in the caller's slot instead, until their own
//     task fits (submitInside): the front, the queue, then the oldest
//     blocked submitter's task, and, with nothing else waiting, the
//     caller's own task. ForkJoinPool's join helps the same way.
//   - Group.Wait and Future.Wait run the oldest waiting tasks in the
//     caller's slot while what they wait for is unfinished, and wait only
//     while nothing is left to run, looking again now and then (helpWait).
//   - A wait for the end of a life (Await, behind pool's Shutdown and
//     ants' ReleaseTimeout) and Reopen cannot wait for the unit they run
//     in: Await returns ErrInsideTask at once, Reopen returns
//     and the pool reopens when its tasks have returned.
//
// The capacity holds: the caller's own task waits in the call while a task
// it helps runs in its slot, so the slot runs one task at a time; and a
// slot left above the capacity by a shrink runs nothing new (rule S2). A
// call from inside a task of another pool waits as an outsider does.
//
// Identity is the goroutine: each worker goroutine records its id when it
// starts (a goroutine that replaces one ended by
// runtime.Goexit records its own) and enters it in e.byGID, and a caller
// looks its own up there, with no lock, and checks that the worker is
// still in the books. Reading a goroutine's id costs a short traceback,
// about 2 µs, so only a worker's start and the paths that would otherwise
// wait pay it; a task that runs and submits without waiting never does.

// Inside reports whether the caller runs in a unit of e (or the panic
// handler of one), holding its slot. It costs a short traceback, about
// 2 µs, so it is for calls that would otherwise wait.
func (e *Engine[E]) Inside() bool { return e.callerWorker() != nil }

// CallerLocal reports whether the caller runs in a unit of e, as Inside
// does, and returns its worker's local value (Config.RunLocal).
func (e *Engine[E]) CallerLocal() (any, bool) {
	if w := e.callerWorker(); w != nil {
		return w.local, true
	}
	return nil, false
}

// HelpCaller, for a caller inside a unit of e, runs e's oldest waiting
// units in the caller's slot until done or stop is closed (helpWait); it
// reports whether done was closed, and whether the caller was inside a
// unit of e at all (if not, it returns at once).
func (e *Engine[E]) HelpCaller(done, stop <-chan struct{}) (finished, inside bool) {
	w := e.callerWorker()
	if w == nil {
		return false, false
	}
	return e.helpWait(w, done, stop), true
}

// workerRoot is the first function of every worker goroutine, of every
// engine: a caller whose stack starts with it may be inside a unit, one
// whose stack does not is not, and need not pay for goid. It is never
// inlined, so that it keeps a frame of its own.
//
//go:noinline
func workerRoot(loop func()) { loop() }

// rootEntry is workerRoot's entry PC.
var rootEntry = runtime.FuncForPC(reflect.ValueOf(workerRoot).Pointer()).Entry()

// onWorker reports whether the caller may run on a worker goroutine: its
// stack starts with workerRoot, or is too deep to tell. It walks the
// stack's PCs, without formatting them, a fraction of goid's cost, so
// that a caller outside every pool (a handler waiting on a Future, say)
// learns it is outside cheaply.
func onWorker() bool {
	var pcs [64]uintptr
	n := runtime.Callers(2, pcs[:])
	if n == len(pcs) {
		return true
	}
	for _, pc := range pcs[max(0, n-3):n] { // the root, then runtime.goexit
		if f := runtime.FuncForPC(pc); f != nil && f.Entry() == rootEntry {
			return true
		}
	}
	return false
}

// goid returns the calling goroutine's id, read from the first line of its
// traceback ("goroutine 18 [running]:"), which has had that form since Go
// 1.0.
func goid() uint64 {
	var buf [32]byte
	b := buf[:runtime.Stack(buf[:], false)]
	const prefix = "goroutine "
	if len(b) < len(prefix) {
		return 0
	}
	var id uint64
	for _, c := range b[len(prefix):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}

// callerWorker returns the worker whose goroutine the caller runs on, if it
// is one of e's: the caller is inside a task of e (or the panic handler of
// one), holding its slot. It returns nil otherwise, and for a zero-value
// engine.
func (e *Engine[E]) callerWorker() *worker[E] {
	if e.run == nil {
		return nil
	}
	if !onWorker() {
		return nil
	}
	g := goid()
	if g == 0 {
		return nil
	}
	v, ok := e.byGID.Load(g)
	if !ok {
		return nil
	}
	if w := v.(*worker[E]); w.listed.Load() {
		return w
	}
	return nil
}

// helpWait waits, for a caller inside a task of e running on worker w,
// until done is closed or stop is: while it waits it runs the oldest units
// waiting in e in w's slot (the caller's own unit waits in the call
// meanwhile). When nothing is left to run, the units it waits for run
// elsewhere, or a shrink keeps the slot from starting anything: it waits,
// and looks again every stallCheck, for units queued meanwhile that its
// slot may be needed for. It reports whether done was closed.
func (e *Engine[E]) helpWait(w *worker[E], done, stop <-chan struct{}) bool {
	var tick *time.Timer
	defer func() {
		if tick != nil {
			tick.Stop()
		}
	}()
	for {
		select {
		case <-done:
			return true
		case <-stop:
			return false
		default:
		}
		if e.helpOnce(w) {
			continue
		}
		if tick == nil {
			tick = time.NewTimer(stallCheck)
		} else {
			tick.Reset(stallCheck)
		}
		select {
		case <-done:
			return true
		case <-stop:
			return false
		case <-tick.C:
		}
	}
}

// helpOnce runs the oldest unit waiting in e in the slot of w: the front,
// the queue, then the oldest blocked submitter's unit. It reports whether
// it ran one. It runs none when a shrink has left more slots held than the
// capacity: the slot may start nothing new then (S2; the check follows the
// take, as in work).
func (e *Engine[E]) helpOnce(w *worker[E]) bool {
	if e.overCapacity() {
		return false
	}
	t, pos, ok := e.take()
	switch {
	case ok:
		hook(hkTaken)
		if e.overCapacity() {
			e.deferStart(t, pos)
			return false
		}
		if e.waitersN.Load() > 0 {
			e.admitAsk() // the take made room for a blocked submitter
		}
	case e.waitersN.Load() > 0:
		if t, ok, _ = e.takeWaiter(e.overCapacity); !ok {
			return false
		}
	default:
		return false
	}
	e.tookWaiting()
	e.execInside(w, t)
	return true
}

// overCapacity reports whether more slots are held than the capacity
// allows: a shrink is under way, and a slot holder may start nothing new.
func (e *Engine[E]) overCapacity() bool {
	g := e.gate.w.Load()
	return gateHeld(g) > gateCap(g)
}

// execInside runs t in the slot of w while w's own unit waits in a call
// (help, submitInside). Its timings start from its own stamp, not from the
// end of a previous unit of the worker.
func (e *Engine[E]) execInside(w *worker[E], t unit[E]) {
	w.settle()
	w.lastEnd = unknownEnd
	w.helping++
	local := w.local // the waiting task's: the unit run in its place records its own
	e.exec(w, t)
	w.local = local
	w.helping--
	w.settle()
	w.lastEnd = unknownEnd
}

// submitInside submits t for a caller that runs inside a task of e, on
// worker w, and has found no room: rather than wait for room that its own
// slot may be needed to make, it runs the oldest waiting unit in that slot
// and tries again, and, with nothing else waiting, runs t itself there
// (reentry.go). Its outcomes are submit's: nil once t is accepted (or has
// run), ErrClosed, or ctx.Err().
func (e *Engine[E]) submitInside(ctx context.Context, w *worker[E], t unit[E]) error {
	var tick *time.Timer
	defer func() {
		if tick != nil {
			tick.Stop()
		}
	}()
	for {
		if err := ctx.Err(); err != nil {
			return e.rejected.count(err)
		}
		if e.Closed() {
			return e.rejected.count(ErrClosed)
		}
		if e.waitersN.Load() == 0 {
			if e.q.push(t) {
				e.notify(since(t.at))
				return nil
			}
			if e.spinning.Load() == 0 && e.gate.acquire() {
				e.handOver(t)
				return nil
			}
		}
		if e.helpOnce(w) {
			continue
		}
		if e.hasWork() || e.waitersN.Load() > 0 || e.overCapacity() {
			// Older work waits that this slot may not run now (a shrink is
			// under way), or another took it first: let the slot holders
			// get on, and look again.
			if tick == nil {
				tick = time.NewTimer(stallCheck)
			} else {
				tick.Reset(stallCheck)
			}
			select {
			case <-tick.C:
			case <-ctx.Done():
			}
			continue
		}
		// Nothing waits but t, and no slot is free: t runs here.
		e.lock()
		e.mu.direct++
		e.unlock()
		e.execInside(w, t)
		return nil
	}
}
