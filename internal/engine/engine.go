// Package engine is poolkit's scheduling core: the one engine that package
// pool's Pool and FuncPool, package ants' pools and package actorpool's
// dispatcher all run on. Its rules are written below as an invariant
// block, as runtime/proc.go writes the scheduler's; the interleaving hooks
// (hooks.go) name its steps, so that tests can stall any of them.
package engine

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/poolkit/poolkit/internal/timing"
)

// Engine is the scheduling core that every front-end wraps: it runs units
// of type E, each by calling run once (one "turn"). A task is the simplest
// unit; an actor is a unit whose turn drains part of its mailbox and
// submits itself again.
//
// Its parts, a file for each concept: the gate (gate.go) bounds how many
// units run at once and carries the capacity (capacity.go: Resize); the
// queue (queue.go) holds accepted units until a worker is free, and the
// front (front.go) the units put back; submitting (submit.go) takes the
// fast path or the slow one, where blocked submitters wait in a list
// (waiters.go) carrying their units, which with more than two Ps they join
// without the lock (arrivals.go); the workers (worker.go) run rounds
// of work while they hold a slot (search.go: take, confirm, spin) and
// park when there is nothing to do (park.go: give back, recheck, idle
// stack in idle.go); the purger (purge.go) retires workers parked for too
// long; the backlog signal (backlog.go) wakes a controller when a unit
// may wait with no free slot; the life (lifecycle.go) is closing, its end
// and reopening; calls made from inside a unit (reentry.go) help rather
// than wait; room (room.go), timings (timings.go) and stats (stats.go) are
// read from all of these.
//
// # The protocol
//
// Everything below is what the code relies on; each rule names the place
// that keeps it, and the rules that can be checked are checked under the
// poolkit_hooks build tag (invariant calls), where every step also passes
// through a hook that tests use to explore interleavings (hooks_on.go).
//
// Slots. The gate is one atomic word holding the capacity C, the number H
// of slots held, and a closed bit. A slot is the right to run units.
//
//	S1. A unit runs only on a goroutine that holds a slot. Running() is H
//	    minus the searching workers and minus the workers whose unit
//	    panicked, from the panic handler's call until they take their next
//	    unit or give the slot back (e.handling).
//	S2. A unit starts at one atomic step that sees H <= C with the slot
//	    counted: either the CAS that takes a slot for that very unit (the
//	    unit is handed over with it: Submit, submitSlow, admitWaiters), or,
//	    for a unit a slot holder takes from the front or the queue, the
//	    releaseIfOver that follows the take (confirm). Never a check made
//	    before the take: a Resize may come between, and a shrink must hold
//	    for every unit taken after it returns. If confirm finds H > C, the
//	    holder gives its slot back and puts the unit at the front
//	    (deferStart), where it is the next unit any slot holder takes.
//	S3. Slots are taken only by a CAS that sees H < C (gate.acquire, and
//	    gate.acquireDraining, which ignores the closed bit for units already
//	    accepted), and given back only by their holder (gate.release,
//	    gate.releaseIfOver): so H <= C holds except after a shrink, and
//	    then H only falls until it is back within C.
//	S4. The sites that take a slot: Submit (T1, for the submitter's unit,
//	    only when no worker searches), submitSlow (T2, for the submitter's
//	    unit after announcing itself, when the queue has no room),
//	    admitWaiters (T3, for the oldest blocked
//	    submitter's unit), notify (T4, for a searcher to take what was just
//	    queued), Resize (T5, a grow: one per queued unit), close (T6, a
//	    graceful close: drainers for the accepted units), the recheck in
//	    park (T7, rule W3; on a closed engine it is also T8, for accepted
//	    units left over).
//	    A slot taken for a worker is handed to it with its wake-up
//	    (startLocked, with what to do first: startKind); from then on the
//	    worker holds it. A goroutine that ends in runtime.Goexit keeps its
//	    slot and hands it to the goroutine that replaces it (worker.loop).
//	S5. A worker gives its slot back only at the end of a round of work:
//	    in work, at the top of each round if a shrink left H > C, or in
//	    confirm (S2); in park when it found nothing to run (nothing queued,
//	    and, with no queue, no blocked submitter: W5). It never parks
//	    holding a slot. park gives the slot back under mu and, unless it
//	    takes a slot again (W3) or exits, joins the idle stack in the same
//	    critical section: a submitter that takes the freed slot needs mu to
//	    start a worker on it, so it finds this one parked and wakes it. Let
//	    go before mu, the slot would let a submitter find no idle worker and
//	    spawn a goroutine, while this one exits as one too many, once per
//	    task in a pool kept below its capacity (mutant S5-release-unlocked,
//	    TestBreakGiveBackIsOneStep).
//
// Searching. A worker searches when it holds a slot and looks for queued
// work that others left to it; e.spinning counts the searchers, as
// runtime/proc.go's nmspinning counts spinning Ms. A worker becomes one in
// three ways: it finds nothing after a unit and starts to spin (spin:
// polling the front and the queue for a few rounds, at most maxSpinners
// at once, a check then an add, so the bound can be passed briefly, which
// costs only CPU); it is started by a pusher for queued work (W1), and is
// counted by that pusher before it is woken; or it takes its slot again
// for work it saw after giving the slot back (W3). A searcher is what lets
// a steady stream of small units go from submitter to worker with no
// goroutine wake-up: a submitter that sees spinning > 0 queues its unit
// and leaves it to the searcher; and counting a worker from the moment it
// is started keeps the submitters behind it from waking more for the same
// work while it wakes up.
//
// Wake-ups. A unit that is queued must be taken by someone. The rules,
// after runtime/proc.go's for spinning Ms (a spinning M that finds work
// wakes another only if no other M spins and a P is idle; an M that takes
// local work wakes nobody):
//
//	W1. Whoever puts a unit in the queue then checks: if no worker
//	    searches and a slot is free, it takes the slot, counts a searcher
//	    and starts it (notify). If a worker searches, it leaves the unit to
//	    it; if no slot is free, to the slot holders, which all look at the
//	    front and the queue before they give their slots back. A worker
//	    that puts a unit back at the front (S2) goes on to give its slot
//	    back and look again (W3), which is W1 for that unit.
//	W2. A searcher that takes a unit (or leaves for a shrink) stops
//	    searching, and then, like a pusher, applies W1 to whatever work is
//	    left (stopSearching): every submitter that saw it searching left a
//	    unit to it, and it runs only one. So a chain of searchers, each
//	    started by the one before, follows a burst until the work or the
//	    free slots run out, one wake-up in flight at a time. A worker that
//	    takes a unit without searching (after its own unit, from the
//	    queue) wakes nobody: no pusher left work to it alone, so a pool
//	    kept busy by its own workers wakes no goroutine per unit. Mutants:
//	    W2-searcher-wakes (no W1 after a take), W2-started-not-searching
//	    (a started worker is not counted), TestBreakSpinnerFindsWork and
//	    TestBreakSpinnerLeavesWorkToMany kill them.
//	W3. A worker that gives its slot back looks at the front and the queue
//	    again after the release (park, under mu), and if there is work
//	    takes a slot again and searches. A pusher that found no free slot,
//	    or saw this worker searching, relied on it; it searches because
//	    several of them may have (a spinner at its last look, then giving
//	    up, is the case: mutant W3-recheck-not-searching,
//	    TestBreakSpinnerLastLook). A worker that leaves the pool after
//	    its unit panicked (leave, only under Config.LeaveOnPanic, for
//	    package ants) makes the same last look, and hands the slot it
//	    takes again to a searcher it starts in its place.
//	Why no wake-up is lost: the pusher stores (push), then loads (spinning,
//	then the gate word); the searcher stores (spinning--, and, giving up,
//	then the gate release), then loads (the queue). Go's atomics are
//	sequentially consistent, so of two such sequences at least one sees
//	the other's store: either the pusher sees no searcher and a free slot
//	and starts one, or the searcher sees the unit: taking a unit, it
//	applies W1 to the rest (W2); giving up, it rechecks (W3). A searcher
//	that does not start another because a second one searches hands the
//	unit to that one by the same argument, whose spinning-- follows the
//	load that saw it.
//	W4. A submitter that finds no room announces itself in waitersN before
//	    it looks again under mu, and then waits in the list with its unit.
//	    Whoever makes room (a worker that takes a unit or gives a slot
//	    back, a grow) checks waitersN after doing so and, if it is not 0,
//	    admits the oldest waiters into the room under mu (admitWaiters).
//	    Either the waiter's retry under mu sees the room, or the
//	    room-maker sees waitersN and admits under mu. A worker that made
//	    room by taking a unit, with more than two Ps and the queue at
//	    least half full, does not wait for mu: it asks its holder
//	    (admitAsk), who admits into all the room made so far before it
//	    lets go, and looks for asks again after the release (unlock;
//	    lock.go has the argument that no ask is lost). Under backpressure
//	    every blocked submitter takes mu, and a worker queued behind them
//	    would leave its slot idle once per unit (mutant W4-ask-waits,
//	    TestBreakTakeAsksHolder; W4-ask-no-recheck,
//	    TestBreakAskAfterAnswer). Admitted submitters are woken after the
//	    release. park admits them after the worker has joined the idle
//	    stack, so that a waiter's unit wakes that worker rather than a new
//	    goroutine. A submitter that blocks without limit does not wait for
//	    a searcher to make room: it joins the list at once (yielding to
//	    the searcher would take the CPU from the workers that make the
//	    room); with more than two Ps it joins without taking mu, through
//	    the arrivals, and asks mu's holder to look again for it (rules
//	    A1-A4 in arrivals.go; mutants A3-arrival-no-ask,
//	    TestBreakArrivalAsks; A4-arrival-joins-closed,
//	    TestBreakArrivalAfterClose). One that would be refused, or spill into the overflow list,
//	    yields a few times first. An offer (Offer) is a submitter that
//	    would be refused: it looks again under mu as any does, and,
//	    finding no room, withdraws its announcement and returns ErrNoRoom
//	    without joining the list.
//	W5. In a pool with no queue, a slot holder that finds nothing to run
//	    first looks at waitersN; if it is not 0 it takes the oldest
//	    waiter's unit under mu and runs it in the slot it holds, after the
//	    S2 check (takeWaiter). It makes no room and takes none, so W4 needs
//	    nothing from it; a waiter it misses (one that announced itself
//	    after the load) is W4's, through the slot's release that follows.
//
// Order. Units are taken in the order they were accepted: the queue is
// FIFO, the front holds units taken from the queue and put back (S2),
// which are older than anything still queued, ordered by queue position.
// Blocked submitters are not overtaken: while waitersN > 0 every new
// submitter takes the slow path and joins the list behind them, and the
// list is admitted oldest first. (A submitter that read waitersN == 0 just
// before a waiter announced itself is ordered before that waiter.) With an
// unbounded queue the list also holds overflow entries: accepted units
// whose submitter did not wait; they keep their place in it, and a close
// moves them to the front behind everything queued, where takeFront leaves
// them until the queue is empty. A running unit's continuation (Continue,
// continue.go) goes the same way without ever waiting: past a full ring it
// is an overflow entry whatever the queue's bound; on an engine closed
// with Close it goes to the front behind everything there, and the
// caller's worker, alive until its unit returns, keeps the life from
// ending (C2) and takes it; after CloseNow it is refused.
//
// Close and reboot. mu guards the engine's life; closing and reopening
// happen entirely under it.
//
//	C1. close: set closed, close the gate (no slot is taken for new work
//	    any more), seal the queue (a push that claimed its ring slot before
//	    the seal is accepted and counted; none after), reject every blocked
//	    submitter, retire the parked workers (they hold no slot and have no
//	    unit), and for a graceful close take slots for drainers of the
//	    accepted units (T6). An abandoning close then takes the front and
//	    the whole queue, waiting out pushes that claimed a ring slot before
//	    the seal (a few instructions of a goroutine that does not need mu).
//	C2. The life ends (done is closed) once the engine is closed, no close
//	    is under way, no worker is alive, no slot is held and the purger
//	    has stopped (maybeDoneLocked); every accepted unit has then run or
//	    been handed back.
//	C3. A closer waits on the done channel of the life it closed, which
//	    close returns (Await, given it by the front-end that closed); it
//	    never reads the channel again, so a Reopen that opens a new life
//	    does not make it wait for that one.
//	C4. Reopen reopens at once if the life has ended; otherwise it marks a
//	    reboot pending, and the critical section that ends the life reopens
//	    the engine first and closes the old done channel after, so a Reopen
//	    that waited returns with the engine open. Called from inside a unit
//	    it cannot wait for that unit, so it returns at once. A close while a
//	    reboot is pending cancels it.
//
// Locks. e.mu is the only lock. A steady stream never takes it: a
// submitter that queues its unit beside a searcher, and a worker that
// takes a unit from the queue, touch atomics only. Starting or parking a
// worker takes it (a submitter handing its unit to a parked worker, T1;
// notify; park), and so do blocking, admitting and closing; a worker that
// takes a unit under backpressure only tries it (W4's ask). It is let go
// only through unlock (lock.go). Nothing blocks
// while holding mu: wake channels are buffered and a parked worker gets at
// most one token per park, a waiter's done channel likewise; the hot paths
// send those tokens after unlocking (startLocked, signal), so that a
// wake-up's cost is not spent inside the critical section. The only wait
// under mu is C1's for a claimed push, which needs no lock to finish.
//
// Timings (timings.go). What moves through the rules above is a unit[E]:
// the value and its stamp, the clock reading taken when it was accepted,
// 0 when timings were off then. Whatever hands a unit over (T1-T3),
// queues it, puts it back at the front (S2, marking the stamp late),
// keeps it as an overflow entry (marking it late) or with a blocked
// submitter, or moves it to the front at a close (C1) moves the stamp
// with it; only
// admitWaiters stamps a blocked submitter's unit again, when it is
// accepted. Whoever starts a worker (startLocked: T1-T6) tells it,
// with the slot, since when the work it is started for has been available
// (a worker that takes its slot again in park, T7-T8, keeps its own): the
// stamp of the unit it hands over or has just queued, a clock reading (a
// grow, a close), the notifier's own lastEnd (W2), or unknown. A worker
// reads the timings flag once per unit, as it starts it, and records into
// histograms that only it writes (worker.go); exitLocked folds them into
// e.mu.timings under mu, as it does completed. No rule above depends on
// the stamps: they are data, and the timing path takes no lock and writes
// no word another goroutine writes.
type Engine[E any] struct {
	gate     gate
	q        queue[unit[E]]
	spinning atomic.Int32 // searchers: workers holding a slot while looking for queued work
	_        [60]byte
	waitersN atomic.Int64 // blocked submitters, including ones registering
	frontN   atomic.Int64 // units in mu.front; read on every take
	roomN    atomic.Int32 // callers in WaitRoom; read on every take (room.go)
	backlogN atomic.Int32 // callers in WaitBacklog; read when a unit waits with no free slot (backlog.go)
	// admitAsked is a room-maker's ask to e.mu's holder (lock.go, W4);
	// written only while submitters block, like waitersN beside it.
	admitAsked atomic.Bool
	// arrivals is the stack of blocking submitters that have not yet been
	// moved into mu.waiters, latest first, linked by arrival (arrivals.go);
	// written only while submitters block, like waitersN beside it.
	arrivals atomic.Pointer[waiter[E]]
	// backlogAt is the least backlog a WaitBacklog caller waits for;
	// written under mu when a caller comes, while backlogN > 0.
	backlogAt atomic.Int64
	_         [16]byte

	run func(E) // runs one unit; nil until the engine is initialised
	// timings says whether units are timed (timings.go): read once when a
	// unit is accepted, to stamp it, and once when a worker starts it.
	timings atomic.Bool
	// manyProcs says that GOMAXPROCS was above 2 when last read (Init,
	// Resize, the stall check): the worker's ask (lock.go) needs a lock
	// holder that keeps running while it holds, which two Ps shared by
	// the workers and the submitters do not give.
	manyProcs atomic.Bool
	cfg       Config

	// spare recycles waiters: under sustained backpressure every blocked
	// Submit needs one, and allocating them dominated the I/O benchmark's
	// garbage.
	spare sync.Pool

	// handling counts workers that hold a slot after their unit panicked:
	// from the call of the panic handler until the worker takes its next
	// unit or gives the slot back. The unit has completed, so Running does
	// not count them (ants' order: the count drops before the handler runs).
	handling atomic.Int32

	panicked atomic.Uint64
	rejected rejections
	resizes  atomic.Uint64
	returned atomic.Uint64

	// mu guards the fields in it and serialises the slow paths: starting
	// and parking workers, blocked submitters, closing and reopening.
	mu struct {
		mutex
		idle          idleStack[E] // parked workers
		all           []*worker[E] // every live worker, for Stats
		waiters       waitList[E]
		front         []queued[E] // units taken from the queue and put back (S2), and overflow entries at close; oldest first
		live          int         // worker goroutines alive
		started       uint64      // worker goroutines ever started, Goexit replacements not counted
		closed        bool        // a close was called (and no Reopen since)
		abandoned     bool        // that close, or a later one, was CloseNow: the queue was handed back (continue.go)
		done          chan struct{}
		doneSent      bool                                     // done is closed
		rebootPending bool                                     // reopen when the life ends (C4)
		closing       bool                                     // close is under way: the life cannot end in its middle
		direct        uint64                                   // units accepted outside the ring: handed straight to a worker, or overflow entries moved to the front by a close
		completed     uint64                                   // completed by workers that have exited
		timings       struct{ Wait, Service timing.Histogram } // recorded by workers that have exited
		purging       bool                                     // the purger is armed or running
		purger        *time.Timer                              // runs purge; nil until first armed
		stallArmed    bool                                     // the stall check is armed
		stall         *time.Timer                              // runs checkStalled; nil until first armed
		everTimed     bool                                     // timings were on at some point: Stats sums the histograms
		room          chan struct{}                            // closed when room may have appeared (room.go); nil while nobody waits
		backlog       chan struct{}                            // closed when a unit may wait with no free slot (backlog.go); nil while nobody waits
		admitted      *waiter[E]                               // blocked submitters admitted under this hold, linked by next: unlock wakes them
	}

	// byGID maps the id of each worker goroutine to its worker, so that a
	// call that may wait can tell, with no lock, whether it runs inside a
	// unit of this engine (reentry.go): an entry is made when the
	// goroutine starts and removed when it ends; a worker out of the
	// books (listed false) no longer counts.
	byGID sync.Map
}

// unit is a unit as the engine carries it from acceptance to its start:
// the value run is called with, and the clock reading taken when it was
// submitted (clock, timings.go), or 0 if timings were off then. Every
// place that holds an accepted unit holds it as a unit[E]: a worker's
// hand-over (worker.start), the queue, the front, and the waiters (blocked
// submitters and overflow entries); only run and CloseNow see the bare
// value.
type unit[E any] struct {
	v  E
	at int64
}

// queued is a unit with its queue position, which orders it among all the
// units ever queued.
type queued[E any] struct {
	pos uint64
	u   unit[E]
}

// Spinning trades a little CPU for not having to wake a parked goroutine
// for the next task. One spinner is enough to catch a steady stream; more
// steal cycles from the workers that run tasks.
const (
	maxSpinners = 1
	spinRounds  = 16
)

// errNotInitialised is what an engine never initialised (a front-end's
// zero value) answers: it is closed, and says why.
var errNotInitialised = fmt.Errorf("%w: not created with New", ErrClosed)

// Init makes e ready to run units with run, size at once, configured by
// cfg. It is called once, before any other method; an engine that was
// never initialised refuses work and reports itself empty.
func (e *Engine[E]) Init(size int, run func(E), cfg Config) {
	e.cfg = cfg
	e.run = run
	e.gate.init(size)
	e.q.init(cfg.QueueSize)
	e.mu.done = make(chan struct{})
	n := cfg.MinWorkers
	e.mu.Lock()
	e.timings.Store(cfg.Timings)
	e.readProcs()
	e.mu.everTimed = cfg.Timings
	for i := 0; i < min(n, size); i++ {
		e.spawnParkedLocked()
	}
	e.unlock()
}

// hasWork reports whether a unit is at the front or in the queue (or being
// pushed there).
func (e *Engine[E]) hasWork() bool { return e.frontN.Load() > 0 || e.q.len() > 0 }
