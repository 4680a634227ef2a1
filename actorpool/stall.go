package actorpool

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/poolkit/poolkit/internal/enginehook"
)

// An Ask made from inside a turn of its own system may wait for work that
// needs the caller's own worker: the actor it asks is queued behind the
// caller on a system with no other free worker, or it is the caller's own
// actor, whose turn is the one waiting. Telling such a caller apart costs
// a short traceback (about 2 µs: the engine knows its workers by
// goroutine), which an Ask to a busy actor would pay every time. So an Ask
// pays it only once it has waited a whole stallCheck: a system-wide timer,
// armed while Asks wait, pokes each Ask that has waited that long once
// (the epoch channel it waits on is closed). And only an Ask sent into a
// system with no free worker registers (the caller may hold the last): an
// Ask into a system with a free worker when it is sent is answered by that
// worker, or, if the system saturates later, the Ask that saturates it
// registers and, helping, runs the queued turns the others wait for.
// Registering costs the wait a few tens of nanoseconds (one more channel
// in its select), which every Ask to a running actor would pay if that
// were the trigger: so an actor that asks itself while a worker is free is
// not caught, and waits until its ctx is done. A poked Ask inside a turn of its system then asks
// itself to its own actor fails with ErrInHandler; any other helps: it
// runs the system's queued turns in its own slot, as a task of a pool that
// waits for a task queued behind it does (the engine's helpWait), until
// its answer comes. Outside every turn, it waits as before.

// stallCheck is the period of the stall timer: an Ask is poked after
// between one and two periods of waiting, never sooner.
const stallCheck = 10 * time.Millisecond

// askStall is the system's part: the Asks waiting, and the epochs they wait
// on. An Ask waits on the current epoch's channel; each tick closes the
// previous epoch's and makes the current one previous, so that only Asks
// that have waited a whole period are poked, and an Ask answered sooner
// never pays for the check.
type askStall struct {
	waiting atomic.Int64
	armed   atomic.Bool
	epoch   atomic.Pointer[chan struct{}] // the current epoch's channel
	mu      sync.Mutex                    // serialises ticks
	prev    chan struct{}                 // the previous epoch's; guarded by mu
	timer   *time.Timer                   // runs tick; stopped by Shutdown
}

func (st *askStall) init(tick func()) {
	ch := make(chan struct{})
	st.epoch.Store(&ch)
	st.timer = time.AfterFunc(time.Hour, tick)
	st.timer.Stop()
}

// enter registers a waiting Ask and returns the channel whose close pokes
// it, arming the timer if it is not.
func (st *askStall) enter() <-chan struct{} {
	st.waiting.Add(1)
	ep := *st.epoch.Load()
	if !st.armed.Load() && st.armed.CompareAndSwap(false, true) {
		st.timer.Reset(stallCheck)
	}
	return ep
}

func (st *askStall) leave() { st.waiting.Add(-1) }

// tick pokes the Asks of the previous epoch, starts a new one, and re-arms
// while Asks wait.
func (st *askStall) tick() {
	ch := make(chan struct{})
	st.mu.Lock()
	old := st.prev
	st.prev = *st.epoch.Swap(&ch)
	st.mu.Unlock()
	if old != nil {
		close(old)
	}
	st.armed.Store(false)
	if st.waiting.Load() > 0 && st.armed.CompareAndSwap(false, true) {
		st.timer.Reset(stallCheck)
	}
}

// await waits for the answer to an Ask to a, as ctx allows (pending.wait),
// and, poked, does what the comment above says.
//
// Only an Ask that may be stuck so registers (mayStall): its wait watches
// one more channel, which costs a few tens of nanoseconds.
func (s *System) await(ctx context.Context, p *pending, a *actor, mayStall bool) (any, error) {
	if !mayStall {
		return p.wait(ctx)
	}
	poke := s.stall.enter()
	select {
	case ans := <-p.ch:
		s.stall.leave()
		return ans.v, ans.err
	case <-ctx.Done():
		s.stall.leave()
		return nil, ctx.Err()
	case <-poke:
		s.stall.leave()
	}
	cur, inside := enginehook.CallerLocal(s.eng)
	if !inside {
		return p.wait(ctx)
	}
	if cur == any(a) {
		return nil, ErrInHandler // its answer needs the turn that waits for it
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
	enginehook.HelpWait(s.eng, done, ctx.Done())
	<-done
	if got {
		return ans.v, ans.err
	}
	return nil, ctx.Err()
}
