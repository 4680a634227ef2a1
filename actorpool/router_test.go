//go:build go1.25

package actorpool_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/resize"
)

var _ resize.Resizer = (*actorpool.Router)(nil)
var _ resize.Resizer = (*actorpool.System)(nil)

// idWorkers is a worker behaviour that answers every message with its own
// Ref (and stops itself on "die").
func idWorkers() func() actorpool.Behavior {
	return func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) {
			if msg == "die" {
				_ = c.Self().Stop()
				return
			}
			_ = c.Respond(c.Self())
		})
	}
}

// askWorker asks the router and returns the index, in workers, of the
// worker that answered (-1 for one not in it).
func askWorker(t *testing.T, r *actorpool.Router, workers []actorpool.Ref) int {
	t.Helper()
	v, err := r.Ref().Ask(context.Background(), "id")
	if err != nil {
		t.Fatalf("Ask = %v", err)
	}
	return slices.Index(workers, v.(actorpool.Ref))
}

// TestRouterRoundRobinAndResize: P-1. Forwarded message i goes to worker
// i % N; after growing by 3 to i % (N+3); a shrink by 5 removes the oldest
// five (Ergo's TestT14Pool sequence).
func TestRouterRoundRobinAndResize(t *testing.T) {
	s := newSystem(t)
	r, err := actorpool.NewRouter(s, 5, idWorkers())
	if err != nil {
		t.Fatal(err)
	}
	all := r.Workers()
	for i := range 10 {
		if got := askWorker(t, r, all); got != i%5 {
			t.Fatalf("message %d went to worker %d, want %d", i, got, i%5)
		}
	}
	if err := r.Resize(8); err != nil {
		t.Fatal(err)
	}
	all = r.Workers()
	for i := range 16 {
		if got := askWorker(t, r, all); got != i%8 {
			t.Fatalf("after Resize(8), message %d went to worker %d, want %d", i, got, i%8)
		}
	}
	if err := r.Resize(3); err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		if got := askWorker(t, r, all); got != i%3+5 {
			t.Fatalf("after Resize(3), message %d went to worker %d, want %d (the oldest removed)", i, got, i%3+5)
		}
	}
	if err := r.Resize(0); !errors.Is(err, resize.ErrInvalidSize) {
		t.Errorf("Resize(0) = %v, want ErrInvalidSize", err)
	}
	if st := r.Stats(); st.Size != 3 || st.Forwarded != 32 {
		t.Errorf("Stats = %+v", st)
	}
}

// TestRouterKeepsSender: P-2. The worker sees the original sender, and its
// answer to an Ask goes straight to the caller.
func TestRouterKeepsSender(t *testing.T) {
	s := newSystem(t)
	seen := make(chan actorpool.Ref, 1)
	r, err := actorpool.NewRouter(s, 2, func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) {
			if msg == "who" {
				seen <- c.Sender()
				return
			}
			_ = c.Respond("from worker")
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := r.Ref().Ask(context.Background(), "q"); v != "from worker" || err != nil {
		t.Errorf("Ask through the router = %v, %v", v, err)
	}
	client := spawn(t, s, func(c *actorpool.Context, msg any) { _ = c.Tell(r.Ref(), "who") })
	tell(t, client, "go")
	if got := <-seen; got != client {
		t.Errorf("worker saw sender %v, want the client %v", got, client)
	}
}

// TestRouterFullMailboxes: P-3. Workers with one-message mailboxes, all
// blocked: 2N messages are accepted (one running and one queued per
// worker), the next is refused with ErrNoWorker and counted.
func TestRouterFullMailboxes(t *testing.T) {
	s := newSystem(t, actorpool.WithWorkers(4))
	const n = 3
	release := make(chan struct{})
	var entered sync.WaitGroup
	entered.Add(n)
	r, err := actorpool.NewRouter(s, n, func() actorpool.Behavior {
		first := true
		return actorpool.BehaviorFunc(func(*actorpool.Context, any) {
			if first {
				first = false
				entered.Done()
			}
			<-release
		})
	}, actorpool.WithWorkerOptions(actorpool.WithMailboxSize(1)))
	if err != nil {
		t.Fatal(err)
	}
	defer close(release)
	for i := range n {
		tell(t, r.Ref(), i)
	}
	entered.Wait()
	for i := range n {
		tell(t, r.Ref(), i)
	}
	if err := r.Ref().Tell("one too many"); !errors.Is(err, actorpool.ErrNoWorker) {
		t.Errorf("Tell with every mailbox full = %v, want ErrNoWorker", err)
	}
	if st := r.Stats(); st.Forwarded != 2*n || st.Unhandled != 1 {
		t.Errorf("Stats = %+v, want %d forwarded and 1 unhandled", st, 2*n)
	}
}

// TestRouterReplacesDeadWorker: P-4. A worker that stopped is replaced in
// its place by a new one, which gets the message; the size is unchanged.
func TestRouterReplacesDeadWorker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSystem(t)
		r, err := actorpool.NewRouter(s, 3, idWorkers())
		if err != nil {
			t.Fatal(err)
		}
		before := r.Workers()
		tell(t, r.Ref(), "die") // worker 0 stops itself
		synctest.Wait()         // and has stopped before the next message
		// Rotation: 1, 2, then worker 0's place, now a new worker.
		for askWorker(t, r, before) != 2 {
		}
		if got := askWorker(t, r, before); got != -1 {
			t.Errorf("the dead worker's place answered as worker %d, want a new one", got)
		}
		if after := r.Workers(); after[0] == before[0] || after[1] != before[1] {
			t.Errorf("workers %v after replacing %v", after, before)
		}
		if st := r.Stats(); st.Restarts != 1 || st.Size != 3 {
			t.Errorf("Stats = %+v, want 1 restart and size 3", st)
		}
	})
}

// TestRouterPriority: P-5. A Priority message is handled by the router's
// own behaviour and not forwarded.
func TestRouterPriority(t *testing.T) {
	s := newSystem(t)
	own := make(chan any, 1)
	r, err := actorpool.NewRouter(s, 2, idWorkers(), actorpool.WithRouterBehavior(func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) { own <- msg; _ = c.Respond("router") })
	}))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := r.Ref().Ask(context.Background(), actorpool.Priority{Msg: "stats?"}); v != "router" || err != nil {
		t.Errorf("Ask(Priority) = %v, %v", v, err)
	}
	if got := <-own; got != "stats?" {
		t.Errorf("router behaviour got %v", got)
	}
	if st := r.Stats(); st.Forwarded != 0 {
		t.Errorf("a priority message was forwarded: %+v", st)
	}
}

// systemCountingDeadLetters returns a system of two workers whose dead
// letters are counted: with ErrStopped (a stop left them), and otherwise.
func systemCountingDeadLetters(t *testing.T) (s *actorpool.System, stopped, other *atomic.Int64) {
	stopped, other = new(atomic.Int64), new(atomic.Int64)
	s = newSystem(t, actorpool.WithWorkers(2), actorpool.WithDeadLetters(func(d actorpool.DeadLetter) {
		if errors.Is(d.Reason, actorpool.ErrStopped) {
			stopped.Add(1)
		} else {
			other.Add(1)
		}
	}))
	return s, stopped, other
}

// TestRouterStatsAndShrinkWithoutLoss: P-6 and the resize rule. With
// producers racing shrinks and grows, every message told is accepted, and
// every accepted message is handled, or, at Shutdown, a dead letter: a
// removed worker's queue is never lost.
func TestRouterStatsAndShrinkWithoutLoss(t *testing.T) {
	s, deadStopped, deadRerouted := systemCountingDeadLetters(t)
	var handled atomic.Int64
	r, err := actorpool.NewRouter(s, 4, func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(*actorpool.Context, any) { handled.Add(1) })
	})
	if err != nil {
		t.Fatal(err)
	}
	const producers, each = 4, 2000
	var wg sync.WaitGroup
	for range producers {
		wg.Go(func() {
			for i := range each {
				tell(t, r.Ref(), i)
			}
		})
	}
	for _, n := range []int{1, 6, 2, 5, 1, 3} {
		if err := r.Resize(n); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	shutdown(t, s)
	st := r.Stats()
	if st.Forwarded != producers*each || st.Unhandled != 0 {
		t.Errorf("Stats = %+v, want every one of %d messages forwarded", st, producers*each)
	}
	if got := handled.Load() + deadStopped.Load(); got != producers*each || deadRerouted.Load() != 0 {
		t.Errorf("handled %d + dead at shutdown %d = %d of %d; %d lost in a shrink",
			handled.Load(), deadStopped.Load(), got, producers*each, deadRerouted.Load())
	}
}

// stopSignal is a router worker's behaviour that reports its PostStop,
// and holds in Receive while hold is open for the message "hold".
type stopSignal struct {
	entered, hold chan struct{}
	stopped       chan<- struct{}
}

func (b *stopSignal) PreStart(*actorpool.Context) error { return nil }
func (b *stopSignal) PostStop(*actorpool.Context)       { b.stopped <- struct{}{} }
func (b *stopSignal) Receive(_ *actorpool.Context, msg any) {
	if msg == "hold" {
		close(b.entered)
		<-b.hold
	}
}

// TestRouterRetiringAtShutdown: a worker a shrink removed, still in a
// turn when its system's Shutdown begins, hands its queue back after the
// router's other worker has stopped. No worker accepts it, and the
// router is not failing to route: every message is a dead letter with
// ErrStopped, as at any actor a stop left with a queue, and Unhandled
// stays 0 (it once counted them, each refused with ErrNoWorker).
func TestRouterRetiringAtShutdown(t *testing.T) {
	s, stopped, other := systemCountingDeadLetters(t)
	entered, hold, poststop := make(chan struct{}), make(chan struct{}), make(chan struct{}, 2)
	r, err := actorpool.NewRouter(s, 2, func() actorpool.Behavior {
		return &stopSignal{entered: entered, hold: hold, stopped: poststop}
	})
	if err != nil {
		t.Fatal(err)
	}
	old := r.Workers()[0] // the oldest: the one a shrink to 1 removes
	tell(t, old, "hold")
	wait(t, entered, "the oldest worker's turn")
	const queued = 5
	for i := range queued {
		tell(t, old, i)
	}
	if err := r.Resize(1); err != nil {
		t.Fatal(err)
	}
	down := make(chan error, 1)
	go func() { down <- s.Shutdown(context.Background()) }()
	// The other worker stops at once (it is idle); the retiring one is
	// held in its turn until then.
	wait(t, poststop, "the other worker's PostStop")
	close(hold)
	if err := <-down; err != nil {
		t.Fatalf("Shutdown = %v", err)
	}
	if st := r.Stats(); st.Unhandled != 0 {
		t.Errorf("Unhandled = %d, want 0: the messages a stop left are not ones the router failed to route", st.Unhandled)
	}
	if stopped.Load() != queued || other.Load() != 0 {
		t.Errorf("dead letters: %d with ErrStopped, %d otherwise; want %d and 0", stopped.Load(), other.Load(), queued)
	}
}

// TestRouterShrinkHandsQueueBack: RTR-6's resize rule where it bites. The
// workers have queues when a shrink removes two of three: the removed
// workers hand their queued messages back, and the remaining one handles
// all of them.
func TestRouterShrinkHandsQueueBack(t *testing.T) {
	var dead atomic.Int64
	s := newSystem(t, actorpool.WithWorkers(1), actorpool.WithDeadLetters(func(actorpool.DeadLetter) { dead.Add(1) }))
	open := gate(t, s)
	var handled atomic.Int64
	done := make(chan struct{})
	const n = 9
	r, err := actorpool.NewRouter(s, 3, func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(*actorpool.Context, any) {
			if handled.Add(1) == n {
				close(done)
			}
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		tell(t, r.Ref(), i)
	}
	if err := r.Resize(1); err != nil {
		t.Fatal(err)
	}
	open()
	wait(t, done, "every message handled after the shrink")
	if dead.Load() != 0 {
		t.Errorf("%d dead letters: a removed worker's queue was lost", dead.Load())
	}
}

// TestRouterAfterStop: once the router has stopped it has no workers; a
// message to it is refused with ErrStopped (and counted), never a panic.
func TestRouterAfterStop(t *testing.T) {
	s := newSystem(t)
	r, err := actorpool.NewRouter(s, 2, idWorkers())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Ref().Stop(); err != nil {
		t.Fatal(err)
	}
	if err := r.Ref().Tell("late"); !errors.Is(err, actorpool.ErrStopped) {
		t.Errorf("Tell after Stop = %v, want ErrStopped", err)
	}
	if _, err := r.Ref().Ask(context.Background(), "late"); !errors.Is(err, actorpool.ErrStopped) {
		t.Errorf("Ask after Stop = %v, want ErrStopped", err)
	}
	if st := s.Stats(); st.Refused != 2 {
		t.Errorf("Stats = %+v, want the 2 refused messages counted", st)
	}
}

// TestRouterDeadWorkersQueueForwarded: a worker that stops itself with
// messages queued behind it hands them back to the router, which
// forwards them to the other workers (or the dead one's replacement):
// none becomes a dead letter.
func TestRouterDeadWorkersQueueForwarded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var dead atomic.Int64
		s := newSystem(t, actorpool.WithDeadLetters(func(actorpool.DeadLetter) { dead.Add(1) }))
		gate := make(chan struct{})
		var handled atomic.Int64
		r, err := actorpool.NewRouter(s, 2, func() actorpool.Behavior {
			return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) {
				if msg == "die" {
					<-gate
					_ = c.Self().Stop()
					return
				}
				handled.Add(1)
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		// Rotation: die -> worker 0 (held at the gate), then 1, 0, 1, 0.
		for _, m := range []any{"die", 1, 2, 3, 4} {
			tell(t, r.Ref(), m)
		}
		synctest.Wait()
		close(gate)
		synctest.Wait()
		if handled.Load() != 4 || dead.Load() != 0 {
			t.Errorf("handled %d, dead letters %d; want the 4 messages handled, worker 0's two by another worker", handled.Load(), dead.Load())
		}
		if st := r.Stats(); st.Size != 2 || st.Unhandled != 0 {
			t.Errorf("Stats = %+v, want size 2 and nothing unhandled", st)
		}
	})
}
