package engine

import (
	"math"
	"time"

	"github.com/poolkit/poolkit/internal/timing"
)

// A pool times its tasks only when asked to (Config.Timings, SetTimings).
// Off, the cost is one load of a flag when a task is submitted and one when
// it starts. On, a task costs two clock reads, and no lock, no allocation
// and no write to a word another goroutine writes:
//
//   - When a task is submitted, the clock is read and the reading (its
//     stamp) travels with the task wherever it waits: handed straight to a
//     worker, in the queue, put back at the front, as an overflow entry
//     (engine.go, Timings).
//   - When a task ends, its worker reads the clock again. The start is
//     not read but inferred: the later of the stamp and the worker's
//     lastEnd. A worker that goes straight from one task to the next
//     starts the next at the end of the previous one, its lastEnd. A
//     worker that was parked, or is new, is told by whoever started it
//     since when the work it was started for has been available: the
//     stamp of the task handed over or just queued (so a task handed
//     straight to an idle worker counts as not having waited), or the time
//     of the grow or the close that starts workers for tasks that have
//     been waiting. The inferred start is never later than the true one,
//     and the split errs one way only: the time a worker takes to wake up,
//     or to reach the queue after its previous task (a spinner's polling
//     included), counts as service, not as wait. For a task stamped when
//     accepted, Wait + Service is exactly its time in the pool.
//   - The worker records the wait and the service into histograms that
//     only it writes (timing.Recorder); a worker that exits folds them into
//     the pool's totals under the engine's lock, and Stats sums them
//     there, as Stats does with Completed.
//
// Where the start cannot be inferred, the worker reads the clock when the
// task starts, a third read: for a task whose stamp is marked late (an
// overflow entry of an unbounded queue, or a task put back at the front
// after a shrink: it became available to workers after its stamp), for a
// task accepted while the timings were off (it counts as not having
// waited), and for the first task a worker starts after one that was not
// timed or that panicked (its panic handler ran between the two), or
// after it was woken for a task put back at the front. A
// submitter that blocked for room is accepted when admitted, and its task
// is stamped then, the stamp taken when it called Submit dropped: a third
// read too. These are slow paths, each costing far more than a clock read.

// clock reads the shared monotonic clock (timing.Now), never 0 outside a
// synctest bubble.
func clock() int64 { return timing.Now() }

// lateBit, set in a unit's stamp, says that the unit became available to
// workers after it was stamped, so its start cannot be inferred from the
// stamp (unit.late). Stamps are taken with the bit clear, costing them a
// nanosecond of precision.
const lateBit = 1

// unknownEnd is a worker's lastEnd when it is not known: its last unit was
// not timed or panicked, or whoever started it had no clock reading. The
// worker then reads the clock when it starts its next timed unit.
const unknownEnd = math.MaxInt64

// stamp returns a stamp for a unit accepted now: a clock reading if the
// timings are on, else 0 (not stamped).
func (e *Engine[E]) stamp() int64 {
	if e.timings.Load() {
		return clock() &^ lateBit
	}
	return 0
}

// now returns a clock reading for a worker's lastEnd if the timings are
// on, else unknownEnd.
func (e *Engine[E]) now() int64 {
	if e.timings.Load() {
		return clock()
	}
	return unknownEnd
}

// since returns what a worker started for a unit stamped at (just
// submitted or queued) may take as its lastEnd.
func since(at int64) int64 {
	if at == 0 {
		return unknownEnd
	}
	return at &^ lateBit
}

// late marks u's stamp late (lateBit), if it has one.
func (u unit[E]) late() unit[E] {
	if u.at != 0 {
		u.at |= lateBit
	}
	return u
}

// started records the wait of a timed unit, stamped at, that the worker is
// about to run, and returns its start.
func (w *worker[E]) started(at int64) int64 {
	var start int64
	switch {
	case at == 0: // submitted while the timings were off: no wait known
		start = clock()
		at = start
	case at&lateBit != 0 || w.lastEnd == unknownEnd:
		start = clock()
		at &^= lateBit
	default:
		start = max(at, w.lastEnd)
	}
	w.wait.Record(time.Duration(start - at))
	return start
}

// ended records the service of a timed unit that started at start.
func (w *worker[E]) ended(start int64) {
	end := clock()
	w.service.Record(time.Duration(end - start))
	w.lastEnd = end
}

// SetTimings switches the timing of tasks on or off, at any time, as
// http.Server.SetKeepAlivesEnabled does keep-alives; Stats reports what
// was recorded. The front-ends set it once, at Init (Config.Timings); the
// switch at run time is kept for the engine's tests of it. A task is timed if the timings are on when a worker starts
// it: its wait is recorded as it starts and its service when it ends, even
// if the timings go off meanwhile. Its wait counts from its acceptance if
// the timings were on then too; a task accepted while they were off and
// started while they are on counts as not having waited. A task started
// while they are off is not recorded at all. Switching off keeps what was
// recorded; switching on again adds to it. A zero-value pool ignores the
// call.
//
// Off, timing costs a task one load of a flag when it is submitted and one
// when it starts. On, it costs two clock reads, no lock and no allocation
// (a third read on the slow paths: a submitter that blocked for room, an
// overflow entry of an unbounded queue, the task after one that panicked).
// The start is inferred, not read: a task handed straight to an idle
// worker counts as not having waited, the worker's wake-up counting as
// service; for a task accepted while they were on, Wait + Service is
// exactly its time in the pool.
func (e *Engine[E]) SetTimings(enabled bool) {
	if e.run == nil {
		return
	}
	if enabled {
		e.mu.Lock()
		e.mu.everTimed = true
		e.unlock()
	}
	e.timings.Store(enabled)
}
