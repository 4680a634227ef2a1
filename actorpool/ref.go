package actorpool

import (
	"context"
	"fmt"
)

// Ref refers to an actor (or a router, or a serializer, which are actors
// too). It is a small comparable value: copy it, compare it, use it as a
// map key. The zero Ref refers to no actor; its methods return ErrNilRef.
type Ref struct {
	a *actor
}

// IsZero reports whether r is the zero Ref.
func (r Ref) IsZero() bool { return r.a == nil }

// String names the actor by its address, for logs.
func (r Ref) String() string {
	if r.a == nil {
		return "actor(nil)"
	}
	return fmt.Sprintf("actor(%p)", r.a)
}

// Tell adds msg to the actor's mailbox and returns; it never blocks and
// never waits for the message to be handled. It returns nil once the
// message is accepted: it will be handled, or, if the actor stops first,
// reported as a dead letter. It returns ErrMailboxFull when a bounded
// mailbox has no room, ErrStopped when the actor has stopped, ErrNilRef
// and ErrNilMessage for bad input; a refused message is counted and
// nothing else happens. Messages told by one goroutine (or one actor) are
// handled in the order told. Telling PoisonPill stops the actor.
//
// A Tell after Stop returns nil while the stop is pending (the actor's
// turn has not taken it yet), and its message becomes a dead letter: the
// stop is handled before every message queued, so a message told after
// Stop is never handled. Once the actor has stopped, Tell returns
// ErrStopped. A router's Ref refuses with ErrStopped as soon as Stop has
// returned.
func (r Ref) Tell(msg any) error { return r.send(envelope{msg: msg}) }

// Ask tells msg to the actor and waits for the answer its handler gives
// with Context.Respond. It returns that answer; or a *PanicError if the
// handler panicked first (ErrGoexit if it called runtime.Goexit),
// ErrStopped if the actor stopped before handling it, ctx.Err() when ctx
// is done first (the message may still be handled; its answer is then
// dropped), or Tell's errors. A nil ctx is ErrNilContext; a ctx already
// done returns its error without sending.
//
// Called from inside a turn of the actor's own system (a handler, a
// lifecycle hook, a dead-letter function), it does not wait on the worker
// its own turn holds: once it has waited 10-20 ms, an Ask to the caller's
// own actor returns ErrInsideTask (the message may still be handled, after
// the caller's turn; its answer is then dropped), and an Ask to another
// actor of the system, when no worker of the system is free, runs the
// system's queued turns in the caller's slot until its answer comes.
func (r Ref) Ask(ctx context.Context, msg any) (any, error) {
	if ctx == nil {
		return nil, ErrNilContext
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a := r.a
	if a == nil {
		return nil, ErrNilRef
	}
	// An Ask that may be stuck registers for a poke (stall.go): one sent
	// into a system with no free worker (read before the send, which may
	// take the last), or to an actor whose turn runs (it may be the
	// caller's own: its answer would then wait for the turn that waits).
	mayStall := a.sys.eng.Free() == 0 || a.state.Load() == stateRunning
	p := newPending()
	if mayStall {
		p = newStallPending()
	}
	if err := r.send(envelope{msg: msg, reply: p}); err != nil {
		return nil, err
	}
	if mayStall {
		a.sys.stall.enter(p)
	}
	return a.sys.await(ctx, p, a)
}

// Stop asks the actor to stop after the message it is handling, if any,
// and returns without waiting. The stop is a system message, which the
// actor's turn takes before every user message still queued: those become
// dead letters (counted in Stats.DeadLetters and passed to
// WithDeadLetters; an Ask waiting on one returns ErrStopped), and PostStop
// runs. A router's worker hands them back to its router instead, while
// the router runs (see Router).
//
// Until the turn takes the stop, the actor has not stopped: a Tell or an
// Ask is still accepted, and its message becomes a dead letter, never
// handled; another Stop returns nil. Once the actor has stopped, Tell, Ask
// and Stop return ErrStopped. On a router's Ref, Stop stops the router at
// once: from its return, Tell and Stop return ErrStopped (a Priority
// message told meanwhile becomes a dead letter of the router's own
// actor).
func (r Ref) Stop() error {
	if r.a == nil {
		return ErrNilRef
	}
	if r.a.router != nil {
		return r.a.router.stop()
	}
	if err := r.a.mb.putSys(sysStop); err != nil {
		return err
	}
	r.a.wake()
	return nil
}

// send is the one way into a mailbox, from outside any turn.
func (r Ref) send(e envelope) error { return r.sendFrom(e, nil) }

// sendFrom sends from the handler of cur (nil: from outside any turn):
// an idle receiver may then run next on cur's worker (actor.next).
func (r Ref) sendFrom(e envelope, cur *actor) error {
	if r.a == nil {
		return ErrNilRef
	}
	a := r.a
	if e.msg == nil {
		a.sys.refused.Add(1)
		return ErrNilMessage
	}
	if _, ok := e.msg.(poisonPill); ok {
		return r.Stop()
	}
	if a.router != nil {
		if p, ok := e.msg.(Priority); ok {
			e.msg = p.Msg
		} else {
			return a.router.route(e)
		}
	}
	if err := a.mb.put(e, 0); err != nil {
		if err == ErrMailboxFull {
			a.sys.mailboxFull.Add(1)
		} else {
			a.sys.refused.Add(1)
		}
		return err
	}
	hook(hkPut)
	a.wakeFrom(cur)
	return nil
}
