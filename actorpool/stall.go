package actorpool

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// An Ask made from inside a turn of its own system may wait for work that
// needs the caller's own worker: the actor it asks is queued behind the
// caller on a system with no other free worker, or it is the caller's own
// actor, whose turn is the one waiting. Telling such a caller apart costs
// a short traceback (about 2 µs: the engine knows its workers by
// goroutine), which an Ask to a busy actor would pay every time. So an Ask
// pays it only once it has waited a whole stallCheck: a system-wide timer,
// armed while Asks wait, pokes each Ask that has waited that long once.
//
// Only an Ask that may be stuck registers: one sent into a system with no
// free worker (the caller may hold the last), or to an actor whose turn
// runs as it is sent (the caller may be that turn). An Ask into a system
// with a free worker, to an actor not running, is answered by that worker;
// if the system saturates later, the Ask that saturates it registers and,
// helping, runs the queued turns the others wait for. Registering pushes
// the Ask's pending on the current epoch's list (one compare-and-swap);
// the poke comes through the channel the answer comes on (it has room for
// both), so that the wait itself is the same select as any Ask's.
//
// A poked Ask inside a turn of its system to its own actor fails with
// ErrInsideTask; any other helps: it runs the system's queued turns in its
// own slot, as a task of a pool that waits for a task queued behind it
// does (the engine's helpWait), until its answer comes. Outside every
// turn, it waits as before.

// stallCheck is the period of the stall timer: an Ask is poked after
// between one and two periods of waiting, never sooner.
const stallCheck = 10 * time.Millisecond

// errPoked is the poke, delivered as an answer; no caller sees it.
var errPoked = errors.New("actorpool: poked")

// askStall is the system's part: the epochs the registered Asks are listed
// in. Each tick pokes the Asks of the previous epoch that are still
// unanswered and makes the current epoch previous, so that only Asks that
// have waited a whole period are poked, and an Ask answered sooner never
// pays for the check.
//
// Invariant: while an epoch lists an Ask, the timer is armed. An Ask
// pushes itself, then arms the timer if it is not; a tick disarms, then
// re-arms if either list is not empty. These are sequentially consistent
// atomics, so of an Ask's push-then-load and a tick's store-then-load, one
// sees the other: the Ask sees the disarm and arms, or the tick sees the
// push and re-arms.
type askStall struct {
	armed atomic.Bool
	epoch atomic.Pointer[pending] // the current epoch's list, by pending.nextStall
	mu    sync.Mutex              // serialises ticks
	prev  *pending                // the previous epoch's list; guarded by mu
	timer *time.Timer             // runs tick; stopped by Shutdown
}

func (st *askStall) init(tick func()) {
	st.timer = time.AfterFunc(time.Hour, tick)
	st.timer.Stop()
}

// enter registers p, the pending of a waiting Ask made with
// newStallPending, arming the timer if it is not.
func (st *askStall) enter(p *pending) {
	for {
		head := st.epoch.Load()
		p.nextStall = head
		if st.epoch.CompareAndSwap(head, p) {
			break
		}
	}
	if !st.armed.Load() && st.armed.CompareAndSwap(false, true) {
		st.timer.Reset(stallCheck)
	}
}

// tick pokes the unanswered Asks of the previous epoch, starts a new one,
// and re-arms while a registered Ask may wait unpoked.
func (st *askStall) tick() {
	st.mu.Lock()
	old := st.prev
	st.prev = st.epoch.Swap(nil)
	cur := st.prev
	st.mu.Unlock()
	hook(hkStallSwapped)
	for p := old; p != nil; p = p.nextStall {
		if !p.done.Load() {
			select {
			case p.ch <- answer{err: errPoked}:
			default: // the answer came meanwhile and the buffer is full
			}
		}
	}
	st.armed.Store(false)
	// Re-arm for the list just made previous (the next tick pokes it), and
	// for the current one: an Ask that pushed itself after the swap may
	// have seen the timer armed, before the store above, and left it so.
	if (cur != nil || st.epoch.Load() != nil) && st.armed.CompareAndSwap(false, true) {
		st.timer.Reset(stallCheck)
	}
}

// await waits for the answer to an Ask to a, as ctx allows, and, poked,
// does what the comment above says. p is registered (enter) when it may
// be stuck.
func (s *System) await(ctx context.Context, p *pending, a *actor) (any, error) {
	v, err := p.wait(ctx)
	if err != errPoked {
		return v, err
	}
	cur, inside := s.eng.CallerLocal()
	if !inside {
		return p.wait(ctx) // a pending is poked once
	}
	if cur == any(a) {
		return nil, ErrInsideTask // its answer needs the turn that waits for it
	}
	// Hand the answer over through a channel helpWait can watch; the
	// goroutine ends with the answer or with ctx.
	done := make(chan struct{})
	var ans answer
	var got bool
	go func() {
		select {
		case ans = <-p.ch:
			got = true
		case <-ctx.Done():
		}
		close(done)
	}()
	s.eng.HelpCaller(done, ctx.Done())
	<-done
	if got {
		return ans.v, ans.err
	}
	return nil, ctx.Err()
}
