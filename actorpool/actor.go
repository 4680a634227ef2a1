package actorpool

import (
	"runtime/debug"
	"sync/atomic"
	"time"
)

// An actor's scheduling state. The transitions, and who makes them:
//
//	idle -> scheduled     a sender, after adding a message (wake); the one
//	                      whose CAS wins hands the actor to the engine
//	scheduled -> running  the worker that runs the actor's turn
//	running -> scheduled  the turn, when its budget is spent and messages
//	                      remain: it hands the actor to the engine again
//	running -> idle       the turn, when it finds the mailbox empty; then
//	                      it looks again (below)
//	idle -> running       the same turn, taking the actor back
//	running -> dead       the turn that stops the actor
//
// So the actor is in the engine's queue, or running, at most once at a
// time (A1), and only the goroutine running its turn touches its
// behaviour (A2).
//
// Why no message is left behind at the idle transition (A3): a sender
// adds its message under the mailbox lock, then loads state; the turn
// stores idle, then looks at the mailbox under the same lock. Either the
// sender's critical section comes first, and the turn sees the message,
// or the turn's does, and then its store of idle happened before the
// sender's lock, so the sender's load sees idle (or a later state) and
// schedules the actor. When both see each other they race for the actor
// with a CAS that only one can win. Whoever wins owns the actor.
const (
	stateIdle int32 = iota
	stateScheduled
	stateRunning
	stateDead
)

type actor struct {
	sys     *System
	state   atomic.Int32
	mb      mailbox
	produce func() Behavior
	sup     Supervisor

	// Touched only by the goroutine running the actor's turn (A2).
	beh       Behavior
	started   bool // PreStart was called on beh (or beh received a message)
	suspended bool // waiting out a restart backoff: system messages only
	restarts  []time.Time
	ctx       Context

	router   *Router        // set on a router's own actor: what is told to it is routed
	owner    *Router        // set on a router's worker
	retiring atomic.Bool    // the router removed this worker: its queue goes back to the router
	tm       *workerTimings // a router worker's timings, from its first timed message; touched only by its turns (A2)

	// next is the turn's local slot: an actor this turn woke by a send
	// from its handler, run by the same worker right after this turn
	// instead of going through the engine's queue. Open (nil) while a
	// turn runs; the turn closes it (slotClosed) before it gives the
	// actor up, and takes what it holds along.
	next atomic.Pointer[actor]
}

// slotClosed marks a local slot no send may fill: the turn has ended.
var slotClosed = new(actor)

// maxChain is how many turns in a row one engine unit runs through local
// slots before the next woken actor goes through the engine's queue like
// any other: a pair of actors that keep waking each other cannot keep a
// worker from the rest of the queue.
const maxChain = 16

// wake makes sure the actor will look at its mailbox: called by whoever
// added a message, after adding it (A3).
func (a *actor) wake() { a.wakeFrom(nil) }

// wakeFrom is wake for a send made by cur's handler (cur nil: from
// outside any turn): the actor goes into cur's local slot if the slot is
// empty and no worker is free. A free worker (or a spinning one) would
// take it from the engine's queue at once, where the slot would keep it
// waiting for the rest of cur's turn: an actor never waits in a slot
// beside a free worker.
func (a *actor) wakeFrom(cur *actor) {
	if a.state.Load() == stateIdle && a.state.CompareAndSwap(stateIdle, stateScheduled) {
		hook(hkScheduled)
		// Only an actor of the sender's own system may take the slot: it
		// runs on the sender's worker, which is a worker of that system
		// alone (another system's actor would run beside its own system's
		// capacity, and wait behind a turn its system cannot see).
		if cur != nil && cur.sys == a.sys && cur.sys.eng.Free() == 0 && cur.next.CompareAndSwap(nil, a) {
			return
		}
		a.sys.schedule(a)
	}
}

// runTurns is the engine's unit of work for an actor: its turn, then the
// turns of the actors left in the local slots, up to maxChain.
func runTurns(a *actor) {
	var local any
	runTurnsIn(a, &local)
}

// runTurnsIn is runTurns with the worker's local slot (engine.Config.RunLocal),
// which holds the actor whose turn runs: an Ask poked inside a turn reads
// it to tell an Ask to its own actor (stall.go).
func runTurnsIn(a *actor, local *any) {
	for i := 0; i < maxChain; i++ {
		*local = a
		a = a.turn()
		if a == nil {
			return
		}
	}
	a.sys.schedule(a)
}

// release closes the local slot and returns what it held, to be run
// next; called by every turn before it gives the actor up.
func (a *actor) release() *actor {
	if nx := a.next.Swap(slotClosed); nx != nil && nx != slotClosed {
		return nx
	}
	return nil
}

// turn is one turn of an actor (runTurns chains them): it handles up to
// the budget of user messages (system messages first, at every dequeue),
// then either goes idle or, with messages left, yields to the back of the
// engine's queue so that other actors get their turn. It returns the
// actor its local slot held, to run next on this worker, or nil.
func (a *actor) turn() (next *actor) {
	a.next.Store(nil)
	a.state.Store(stateRunning)
	handled := 0
	for {
		if handled >= a.sys.budget {
			if a.mb.pending(true) {
				next = a.release()
				a.untimed() // the next turn's first message waits in the engine's queue meanwhile
				a.state.Store(stateScheduled)
				hook(hkYield)
				a.sys.schedule(a)
				return next
			}
			handled = 0 // budget spent on an empty mailbox: go idle, not round again
		}
		k, e, at, ok := a.mb.take(!a.suspended)
		if !ok {
			next = a.release()
			if !a.idle() {
				return next
			}
			a.next.Store(next) // taken back: the slot reopens with what it held
			continue
		}
		if k != 0 {
			if a.system(k) {
				return a.release() // stopped
			}
			continue
		}
		if a.handle(e, at) {
			return a.release() // stopped
		}
		handled++
	}
}

// idle is the running -> idle transition (A3). It reports whether the
// turn took the actor back because a message arrived meanwhile.
func (a *actor) idle() bool {
	// Read before the store: once the actor is idle a sender may hand it
	// to another worker, whose turn owns it (A2).
	suspended := a.suspended
	a.state.Store(stateIdle)
	hook(hkIdle)
	if !a.mb.pending(!suspended) {
		return false
	}
	hook(hkReclaim)
	return a.state.CompareAndSwap(stateIdle, stateRunning)
}

// system handles a system message; it reports whether the actor stopped.
func (a *actor) system(k sysKind) bool {
	switch k {
	case sysStart, sysRestart:
		a.suspended = false
		return !a.begin()
	case sysStop:
		a.stop()
		return true
	case sysRetire:
		a.stop()
		return true
	}
	return false
}

// begin makes a fresh behaviour and runs its PreStart; it reports whether
// the actor lives on (on failure it has stopped).
func (a *actor) begin() bool {
	a.untimed()
	beh, ok := a.safeProduce()
	if !ok {
		a.stop()
		return false
	}
	a.beh, a.started = beh, true
	if s, isStarter := beh.(Starter); isStarter {
		if panicked, err := a.safePreStart(s); err != nil || panicked {
			a.stop()
			return false
		}
	}
	return true
}

func (a *actor) safeProduce() (b Behavior, ok bool) {
	returned := false
	defer func() {
		if r := recover(); r != nil {
			a.sys.failed(inProducer, r)
			ok = false
		} else if !returned {
			a.exitedStarting(inProducer)
		}
	}()
	b = a.produce()
	returned = true
	if b == nil {
		a.sys.failed(inProducer, ErrNilBehavior)
		return nil, false
	}
	return b, true
}

func (a *actor) safePreStart(s Starter) (panicked bool, err error) {
	returned := false
	defer func() {
		if r := recover(); r != nil {
			a.sys.failed(inPreStart, r)
			panicked = true
		} else if !returned {
			a.exitedStarting(inPreStart)
		}
	}()
	a.ctx.env = envelope{}
	err = s.PreStart(&a.ctx)
	returned = true
	return false, err
}

// exitedStarting ends a turn that runtime.Goexit is ending inside the
// producer or PreStart, which cannot be stopped: the actor could not
// start, so it stops (its queued messages become dead letters, a pending
// Ask is answered), and the actor in the turn's local slot, which the turn
// can no longer run, goes to the engine.
func (a *actor) exitedStarting(where callbackName) {
	a.sys.failed(where, ErrGoexit)
	a.stop()
	a.releaseToEngine()
}

// releaseToEngine closes the turn's local slot and hands the actor it held
// to the engine: the turn will not run it (runtime.Goexit ends it).
func (a *actor) releaseToEngine() {
	if nx := a.release(); nx != nil {
		a.sys.schedule(nx)
	}
}

// postStop runs PostStop on the current behaviour, once.
func (a *actor) postStop() {
	if !a.started {
		return
	}
	a.started = false
	s, ok := a.beh.(Stopper)
	if !ok {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			a.sys.failed(inPostStop, r)
		}
	}()
	a.ctx.env = envelope{}
	s.PostStop(&a.ctx)
}

// handle delivers one user message, with its router's stamp at (0: none;
// timings.go); it reports whether the actor stopped.
func (a *actor) handle(e envelope, at int64) bool {
	var p *PanicError
	if at == 0 && a.tm == nil {
		p = a.deliver(e)
	} else {
		p = a.deliverTimed(e, at)
	}
	if p == nil {
		return false
	}
	// The handler panicked.
	if e.reply != nil {
		e.reply.answer(nil, p)
	}
	switch a.sup.Directive {
	case Resume:
		return false
	case Restart:
		now := time.Now()
		d, ok := a.sup.restartDelay(&a.restarts, now)
		if !ok {
			break // the budget is spent: stop
		}
		a.sys.restarts.Add(1)
		a.postStop()
		if d <= 0 {
			return !a.begin()
		}
		a.suspended = true
		time.AfterFunc(d, func() {
			if a.mb.putSys(sysRestart) == nil {
				a.wake()
			}
		})
		return false
	}
	a.stop()
	return true
}

// deliver calls the behaviour; it returns the panic, if the handler
// panicked, with the stack read as the panic unwinds, where it still
// shows the panicking call.
//
// A handler that calls runtime.Goexit cannot be stopped: its worker
// goroutine ends (the engine replaces it), and this turn with it. Its
// deferred call then answers the Ask, if any, and hands the actor back to
// the engine, still owned (state scheduled), so that its next message runs
// in a new turn with the same behaviour, as after a Resume.
//
// A timed message (deliverTimed) whose handler panics or exits has its
// service recorded here, first: before the panic is reported, and before
// the actor is handed back.
func (a *actor) deliver(e envelope) (panicked *PanicError) {
	returned := false
	defer func() {
		r := recover()
		if r != nil {
			a.timedAbort()
			panicked = &PanicError{Value: r, Stack: debug.Stack()}
			a.sys.failedWith(inReceive, r, panicked.Stack)
			return
		}
		if !returned {
			a.timedAbort()
			a.sys.failed(inReceive, ErrGoexit)
			if e.reply != nil {
				e.reply.answer(nil, ErrGoexit)
			}
			a.ctx.env = envelope{}
			a.releaseToEngine()
			a.state.Store(stateScheduled)
			a.sys.schedule(a)
		}
	}()
	a.ctx.env = e
	a.beh.Receive(&a.ctx, e.msg)
	a.ctx.env = envelope{}
	returned = true
	return nil
}

// stop ends the actor: the mailbox closes (a sender from now on gets
// ErrStopped), the messages left become dead letters (or, for a router's
// worker while the router runs, go back to the router to be forwarded
// again), and then PostStop runs, so that by then every message is
// accounted for.
func (a *actor) stop() {
	left, ats := a.mb.close()
	hook(hkStop)
	if a.router != nil {
		// The router's own actor stopped (a Shutdown of its system stops
		// it directly): the router is closed too, whatever stopped it.
		a.router.markClosed()
	}
	back := len(left) > 0 && a.owner != nil && (a.retiring.Load() || a.owner.takesBack())
	a.dispose(left, ats, back)
}

// dispose completes a stop: it accounts for the messages left (ats: their
// router stamps, or nil), then runs PostStop. The dead-letter function and
// PostStop are user code, and one that calls runtime.Goexit cannot be
// stopped: the rest of the stop then runs as the goroutine unwinds (the
// letters after the one being reported, then PostStop, once), and the
// turn, which ends with the goroutine, hands its local slot on.
func (a *actor) dispose(left []envelope, ats []int64, back bool) {
	i := 0
	returned := false
	defer func() {
		if returned {
			return
		}
		if i < len(left) {
			a.sys.failed(inDeadLetters, ErrGoexit)
			var rest []int64
			if ats != nil {
				rest = ats[i+1:]
			}
			a.dispose(left[i+1:], rest, back)
		} else {
			a.sys.failed(inPostStop, ErrGoexit)
			a.stopped()
		}
		a.releaseToEngine()
	}()
	for ; i < len(left); i++ {
		e := left[i]
		if back {
			var at int64
			if ats != nil {
				at = ats[i]
			}
			a.owner.reroute(a, e, at)
			continue
		}
		a.sys.deadLetter(a, e, ErrStopped)
	}
	a.postStop()
	returned = true
	a.stopped()
}

// stopped is the end of stop, once PostStop has run.
func (a *actor) stopped() {
	if a.tm != nil {
		a.owner.foldTimings(a.tm)
	}
	a.state.Store(stateDead)
	a.sys.stopped(a)
}
