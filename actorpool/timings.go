package actorpool

import (
	"math"
	"time"

	"github.com/poolkit/poolkit/internal/timing"
)

// A router times the messages it forwards only when asked to
// (WithTimings). Off, the cost is one load of a flag per message routed,
// and a test of a length in the worker's mailbox. On, a message costs two
// clock reads (one more, once per turn, after a yield: below), and no lock
// of its own, no allocation and no write to a word another goroutine
// writes:
//
//   - When the router accepts a message for a worker (it is about to try
//     the workers), the clock is read and the reading (the stamp, at)
//     travels with the message: into the worker's mailbox, beside the
//     envelope (mailbox.stamps: the envelope itself is kept to four
//     words), and, if that worker is removed or stops before handling it,
//     back through the router to another worker, still with its first
//     stamp.
//   - When the worker's handler returns (or panics, or calls
//     runtime.Goexit), the clock is read again. The start is not read but
//     inferred: an actor that goes straight from one message to the next
//     starts the next at the end of the previous one, and a message that
//     finds its worker idle started when it was stamped. So the start is
//     the later of the stamp and the end of the worker's previous
//     handler. The split errs one way only: the time it takes to schedule
//     an idle worker (the engine's queue, a local slot, a parked
//     goroutine's wake-up) counts as the message's service, not its wait:
//     a message handed to an idle worker counts as not having waited,
//     whatever its scheduling took. Wait + Service is exactly the
//     message's time from acceptance to the end of its handler.
//   - Where the previous end is not the start, the worker reads the clock
//     when the message starts: for the first timed message of a turn that
//     follows a yield (the actor spent its budget with messages left and
//     waited in the engine's queue for its next turn: that time is the
//     queued messages' wait), and for the first one after anything
//     untimed (an untimed message, a panic, a restart, the actor's start).
//     That is at most one read per budget of a backlog's messages (one in
//     DefaultBudget by default).
//   - The worker records the wait and the service into histograms that
//     only its turns write (histRec; an actor's turns never overlap, and
//     each happens after the previous one). A worker allocates them at its
//     first timed message; when it stops (removed by Resize, stopped and
//     replaced, or with the router) it folds them into the router's
//     totals, and Router.Stats sums those and the live workers'.
//
// A message is timed if the router's flag was set when it accepted it,
// whatever it is when the message is handled (WithTimings sets it at
// construction, for good; the tests also switch it at run time). Only
// messages routed through the router's Ref count: not Priority messages
// (handled by the router's own actor), not messages told to a worker's own
// Ref (Workers), nor what a worker sends on with Context.Forward (the stamp
// stays behind: a forwarded message is timed again only if it goes
// through a timed router again).

// clock reads the shared clock (timing.Now): never 0 outside a synctest
// bubble, where a stamp of 0 says "not stamped"; inside one, negative,
// but consistent among the bubble's goroutines, which are all that time a
// router created in it.
func clock() int64 { return timing.Now() }

// unknownEnd is a worker's lastEnd when the end of what it did last is
// unknown (it was not timed): its next timed message reads its start.
const unknownEnd = math.MaxInt64

// Histogram counts durations in fixed buckets whose bounds double, the
// same for every histogram of every router and pool: it is pool.Histogram.
// Counts[i] counts the durations d with Bound(i-1) <= d < Bound(i), bucket
// 0 from 0 to about 1µs, the last open. Histograms add and subtract bucket
// by bucket, and an exporter publishes them as they are.
type Histogram = timing.Histogram

// workerTimings is what one router worker recorded. Its histograms are
// written only by the worker's turns; the other fields are touched only
// by them.
type workerTimings struct {
	// lastEnd is the clock reading at the end of the worker's last
	// handler if that handler was timed and returned, else unknownEnd.
	lastEnd int64
	// start is the start of the timed message being handled, if running.
	start   int64
	running bool

	wait, service timing.Recorder
}

// started records the wait of a message stamped at that is about to be
// handled, and returns its start.
func (t *workerTimings) started(at int64) int64 {
	start := t.lastEnd
	if start == unknownEnd {
		start = clock()
	}
	start = max(start, at)
	t.wait.Record(time.Duration(start - at))
	return start
}

// ended records the service of a message that started at start; returned
// is false when its handler panicked or called runtime.Goexit (what comes
// after, the panic's report and supervision, is not timed: the next
// message reads its start).
func (t *workerTimings) ended(start int64, returned bool) {
	end := clock()
	t.service.Record(time.Duration(end - start))
	if returned {
		t.lastEnd = end
	} else {
		t.lastEnd = unknownEnd
	}
}

// untimed marks that the actor did something whose end it did not read;
// called by its turn (a no-op for an actor that never timed a message).
func (a *actor) untimed() {
	if a.tm != nil {
		a.tm.lastEnd = unknownEnd
	}
}

// deliverTimed is deliver for a message stamped at by a router (at != 0),
// or to an actor that has timed one (a.tm != nil): every other message
// goes straight to deliver, which this leaves untouched but for its panic
// and Goexit paths (timedAbort), so that a message costs the actors that
// are not timed nothing. A stamped message has its wait recorded before
// the handler and its service after; an unstamped one marks the end of
// the actor's previous message unknown.
func (a *actor) deliverTimed(e envelope, at int64) (panicked *PanicError) {
	if at == 0 || a.owner == nil { // a stamp reaches only a router's worker
		a.untimed()
		return a.deliver(e)
	}
	if a.tm == nil {
		a.tm = a.owner.newWorkerTimings()
	}
	t := a.tm
	t.start, t.running = t.started(at), true
	panicked = a.deliver(e)
	if t.running { // it returned (deliver's timedAbort took the others)
		t.running = false
		t.ended(t.start, true)
	}
	return panicked
}

// timedAbort records the service of the timed message whose handler has
// just panicked or called runtime.Goexit, if any; called first by
// deliver's deferred call, before it reports the panic or hands the actor
// back.
func (a *actor) timedAbort() {
	if t := a.tm; t != nil && t.running {
		t.running = false
		t.ended(t.start, false)
	}
}

// routerTimings is a router's register of its workers' timings: the
// workers that have recorded and not yet stopped, and what the stopped
// ones recorded. Guarded by Router.tmu, which only a worker's first timed
// message, a worker's stop and Stats take.
type routerTimings struct {
	live          map[*workerTimings]struct{}
	wait, service Histogram // the stopped workers'
}

// newWorkerTimings gives a worker its histograms, registered with the
// router; called by the worker's turn.
func (r *Router) newWorkerTimings() *workerTimings {
	t := &workerTimings{lastEnd: unknownEnd}
	r.tmu.Lock()
	if r.tm.live == nil {
		r.tm.live = make(map[*workerTimings]struct{})
	}
	r.tm.live[t] = struct{}{}
	r.tmu.Unlock()
	return t
}

// foldTimings moves what a stopping worker recorded into the router's
// totals; called by the worker's last turn, after its last handler.
func (r *Router) foldTimings(t *workerTimings) {
	r.tmu.Lock()
	delete(r.tm.live, t)
	t.wait.AddTo(&r.tm.wait)
	t.service.AddTo(&r.tm.service)
	r.tmu.Unlock()
}

// WithTimings makes the router time the messages it forwards: how long
// each waits in a worker's mailbox and how long its handler runs, reported
// in RouterStats.Wait and RouterStats.Service. A message then costs two
// clock reads, and no lock, no allocation and no write to a word another
// goroutine writes; without it, one load of a flag when a message is
// routed and one test of a length when a worker takes it.
func WithTimings() RouterOption {
	return func(c *routerConfig) error { c.timings = true; return nil }
}

// timingsTo fills st's Wait and Service with what the router's workers
// recorded: the stopped workers' totals plus the live workers' records,
// read worker by worker.
func (r *Router) timingsTo(st *RouterStats) {
	r.tmu.Lock()
	defer r.tmu.Unlock()
	st.Wait, st.Service = r.tm.wait, r.tm.service
	for w := range r.tm.live {
		w.wait.AddTo(&st.Wait)
		w.service.AddTo(&st.Service)
	}
}
