//go:build go1.25

package actorpool_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/poolkit/poolkit/actorpool"
)

type seqMsg struct {
	producer, seq int
}

// TestSingleThreadedFIFONoLoss: D-1 (an actor's handler never runs twice at
// once), D-2 (FIFO per producer) and D-3 (every message handled exactly
// once) with producers racing on several actors.
func TestSingleThreadedFIFONoLoss(t *testing.T) {
	matrix(t, func(t *testing.T, workers, budget int) {
		s := newSystem(t, actorpool.WithWorkers(workers), actorpool.WithBudget(budget))
		const actors, producers, perProducer = 4, 4, 300
		var handled atomic.Int64
		done := make(chan struct{})
		total := int64(actors * producers * perProducer)
		refs := make([]actorpool.Ref, actors)
		for i := range refs {
			var inFlight atomic.Int32
			last := make([]int, producers)
			for p := range last {
				last[p] = -1
			}
			refs[i] = spawn(t, s, func(c *actorpool.Context, msg any) {
				if inFlight.Add(1) != 1 {
					t.Error("two turns of one actor ran at once (D-1)")
				}
				m := msg.(seqMsg)
				if m.seq != last[m.producer]+1 {
					t.Errorf("producer %d: seq %d after %d (D-2)", m.producer, m.seq, last[m.producer])
				}
				last[m.producer] = m.seq
				inFlight.Add(-1)
				if handled.Add(1) == total {
					close(done)
				}
			})
		}
		var wg sync.WaitGroup
		for p := range producers {
			wg.Go(func() {
				for seq := range perProducer {
					for _, r := range refs {
						tell(t, r, seqMsg{p, seq})
					}
				}
			})
		}
		wg.Wait()
		wait(t, done, "every message handled")
		shutdown(t, s)
		if got := handled.Load(); got != total {
			t.Errorf("handled %d of %d (D-3)", got, total)
		}
		if st := s.Stats(); st.DeadLetters != 0 || st.Actors != 0 || st.Stopped != actors {
			t.Errorf("after Shutdown: %+v", st)
		}
	})
}

// gate blocks the one worker of a system in a handler until opened, so
// that mailboxes can be filled while nothing runs.
func gate(t *testing.T, s *actorpool.System) (open func()) {
	t.Helper()
	entered, release := make(chan struct{}), make(chan struct{})
	g := spawn(t, s, func(*actorpool.Context, any) {
		close(entered)
		<-release
	})
	tell(t, g, "hold")
	wait(t, entered, "gate entered")
	return func() { close(release) }
}

// TestBudgetHonoured: D-4. One worker, two actors with long backlogs: no
// turn handles more than the budget, so the two interleave at least every
// budget messages.
func TestBudgetHonoured(t *testing.T) {
	for _, budget := range []int{1, 2, 32} {
		s := newSystem(t, actorpool.WithWorkers(1), actorpool.WithBudget(budget))
		open := gate(t, s)
		var mu sync.Mutex
		var order []int
		done := make(chan struct{})
		const each = 100
		mk := func(id int) actorpool.Ref {
			return spawn(t, s, func(*actorpool.Context, any) {
				mu.Lock()
				order = append(order, id)
				if len(order) == 2*each {
					close(done)
				}
				mu.Unlock()
			})
		}
		a, b := mk(0), mk(1)
		for range each {
			tell(t, a, 1)
			tell(t, b, 1)
		}
		open()
		wait(t, done, "both backlogs handled")
		run, longest := 0, 0
		for i := range order {
			if i > 0 && order[i] == order[i-1] {
				run++
			} else {
				run = 1
			}
			longest = max(longest, run)
		}
		// Both actors have a backlog until one finishes, so a run may
		// exceed the budget only at the very end.
		tail := 0
		for i := len(order) - 1; i >= 0 && order[i] == order[len(order)-1]; i-- {
			tail++
		}
		if longest > budget && longest != tail {
			t.Errorf("budget %d: a turn handled %d messages", budget, longest)
		}
		if longest < min(budget, each) {
			t.Errorf("budget %d: turns handled at most %d messages; the budget is not used", budget, longest)
		}
	}
}

// TestNoStarvation: D-5. One worker, a hot actor that tells itself for
// ever: a cold actor told once is handled after at most one more turn of
// the hot one.
func TestNoStarvation(t *testing.T) {
	for _, budget := range []int{1, 32, 1024} {
		s := newSystem(t, actorpool.WithWorkers(1), actorpool.WithBudget(budget))
		var hot atomic.Int64
		var stop atomic.Bool
		started := make(chan struct{})
		h := spawn(t, s, func(c *actorpool.Context, msg any) {
			if hot.Add(1) == 1 {
				close(started)
			}
			if !stop.Load() {
				_ = c.Tell(c.Self(), msg)
			}
		})
		tell(t, h, 1)
		wait(t, started, "hot actor running")
		coldDone := make(chan struct{})
		var atCold int64
		cold := spawn(t, s, func(*actorpool.Context, any) {
			atCold = hot.Load()
			close(coldDone)
		})
		tell(t, cold, 1)
		// Read after the Tell: read before it, a test goroutine held off
		// its CPU between the read and the Tell (under the interleaving
		// hooks and -race, on 2 cores) counts the hot messages handled
		// meanwhile as the cold actor's wait. Read after, such a delay can
		// only shorten the wait measured.
		before := hot.Load()
		wait(t, coldDone, "cold actor handled")
		stop.Store(true)
		// The cold actor's first turn (PreStart) and its message each wait
		// behind at most one hot turn.
		if waited := atCold - before; waited > int64(2*budget+2) {
			t.Errorf("budget %d: the cold actor waited %d hot messages", budget, waited)
		}
	}
}

// TestPoisonPillBehindBacklog: D-6. The actor is held in message 1;
// 10,000 messages are queued behind it, then PoisonPill: it stops after at
// most one more user message, and the rest are dead letters.
func TestPoisonPillBehindBacklog(t *testing.T) {
	for _, stopWith := range []string{"PoisonPill", "Stop"} {
		t.Run(stopWith, func(t *testing.T) {
			var dead atomic.Int64
			s := newSystem(t, actorpool.WithDeadLetters(func(actorpool.DeadLetter) { dead.Add(1) }))
			entered, release := make(chan struct{}), make(chan struct{})
			var handled atomic.Int64
			stopped := make(chan struct{})
			r, err := s.Spawn(func() actorpool.Behavior {
				return &lifecycle{onStop: func() { close(stopped) }, recv: func(c *actorpool.Context, msg any) {
					if handled.Add(1) == 1 {
						close(entered)
						<-release
					}
				}}
			})
			if err != nil {
				t.Fatal(err)
			}
			tell(t, r, 0)
			wait(t, entered, "first message")
			const backlog = 10000
			for i := range backlog {
				tell(t, r, i+1)
			}
			if stopWith == "Stop" {
				if err := r.Stop(); err != nil {
					t.Fatal(err)
				}
			} else {
				tell(t, r, actorpool.PoisonPill)
			}
			close(release)
			wait(t, stopped, "PostStop")
			after := handled.Load() - 1
			if after > 1 {
				t.Errorf("%d user messages handled after the stop was queued; want at most 1", after)
			}
			if got := after + dead.Load(); got != backlog {
				t.Errorf("handled %d + dead letters %d = %d, want %d accounted for", after, dead.Load(), got, backlog)
			}
			if err := r.Tell(1); err != actorpool.ErrStopped {
				t.Errorf("Tell to a stopped actor = %v, want ErrStopped", err)
			}
		})
	}
}

// lifecycle is a behaviour with PreStart and PostStop hooks.
type lifecycle struct {
	onStart func() error
	onStop  func()
	recv    func(c *actorpool.Context, msg any)
}

func (l *lifecycle) PreStart(*actorpool.Context) error {
	if l.onStart != nil {
		return l.onStart()
	}
	return nil
}

func (l *lifecycle) PostStop(*actorpool.Context) {
	if l.onStop != nil {
		l.onStop()
	}
}

func (l *lifecycle) Receive(c *actorpool.Context, msg any) {
	if l.recv != nil {
		l.recv(c, msg)
	}
}

// TestIdleTransition: D-7. One message at a time, each told right as the
// actor goes idle after the previous one: no wake-up may be lost. Under
// the poolkit_hooks build tag every step of the transition yields from a
// seeded schedule.
func TestIdleTransition(t *testing.T) {
	matrix(t, func(t *testing.T, workers, budget int) {
		s := newSystem(t, actorpool.WithWorkers(workers), actorpool.WithBudget(budget))
		handled := make(chan struct{}, 1)
		r := spawn(t, s, func(*actorpool.Context, any) { handled <- struct{}{} })
		for i := range 2000 {
			tell(t, r, i)
			wait(t, handled, "message handled after the actor went idle")
		}
	})
}

// TestAskRoundTrip: Ask returns the handler's answer.
func TestAskRoundTrip(t *testing.T) {
	s := newSystem(t)
	r := spawn(t, s, func(c *actorpool.Context, msg any) { _ = c.Respond(msg.(int) * 2) })
	for i := range 100 {
		v, err := r.Ask(context.Background(), i)
		if err != nil || v != i*2 {
			t.Fatalf("Ask(%d) = %v, %v", i, v, err)
		}
	}
}

// TestLocalSlotDoesNotStarve: two actors that wake each other for ever
// run through each other's local slot on one worker, but only maxChain
// turns in a row: an actor asked meanwhile still gets its turn.
func TestLocalSlotDoesNotStarve(t *testing.T) {
	s := newSystem(t, actorpool.WithWorkers(1))
	var stop atomic.Bool
	var ping, pong actorpool.Ref
	bounce := func(other *actorpool.Ref) func(*actorpool.Context, any) {
		return func(c *actorpool.Context, msg any) {
			if !stop.Load() {
				_ = c.Tell(*other, msg)
			}
		}
	}
	ping = spawn(t, s, bounce(&pong))
	pong = spawn(t, s, bounce(&ping))
	echo := spawn(t, s, func(c *actorpool.Context, msg any) { _ = c.Respond(msg) })
	tell(t, ping, "ball")
	ctx, cancel := context.WithTimeout(context.Background(), failBound)
	defer cancel()
	for i := range 100 {
		if v, err := echo.Ask(ctx, i); v != i || err != nil {
			t.Fatalf("Ask %d beside a bouncing pair = %v, %v", i, v, err)
		}
	}
	stop.Store(true)
}

// TestLeakedContextTell: a Context used after its handler returned (a
// misuse the doc warns of) still delivers, even when the only worker is
// busy: the send cannot land in the local slot of a turn that has ended,
// where nobody would run it.
func TestLeakedContextTell(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSystem(t, actorpool.WithWorkers(1))
		leaked := make(chan *actorpool.Context, 1)
		a := spawn(t, s, func(c *actorpool.Context, msg any) {
			if msg == "leak" {
				leaked <- c
			}
		})
		var got atomic.Int32
		b := spawn(t, s, func(c *actorpool.Context, msg any) {
			if msg == "late" {
				got.Add(1)
			}
			_ = c.Respond(msg)
		})
		gate := make(chan struct{})
		z := spawn(t, s, func(*actorpool.Context, any) { <-gate })
		tell(t, a, "leak")
		c := <-leaked
		synctest.Wait() // a's turn has ended, b is idle
		tell(t, z, "block")
		synctest.Wait() // z holds the only worker: no worker is free
		if err := c.Tell(b, "late"); err != nil {
			t.Fatal(err)
		}
		close(gate)
		if _, err := b.Ask(context.Background(), "after"); err != nil || got.Load() != 1 {
			t.Errorf("after a late Tell through a leaked Context: Ask = %v, late handled %d times; want nil, 1", err, got.Load())
		}
	})
}

// TestSlotNeverBesideFreeWorker: D-10 for a shared queue. A handler
// wakes another actor and then blocks; with a second worker free, the
// woken actor runs at once on it, not in the blocked turn's local slot.
func TestSlotNeverBesideFreeWorker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSystem(t, actorpool.WithWorkers(2))
		var handled atomic.Int32
		y := spawn(t, s, func(*actorpool.Context, any) { handled.Add(1) })
		gate := make(chan struct{})
		x := spawn(t, s, func(c *actorpool.Context, msg any) {
			_ = c.Tell(y, "hi")
			<-gate
		})
		synctest.Wait() // both started, both workers idle
		tell(t, x, "go")
		synctest.Wait() // x blocks in its handler
		if handled.Load() != 1 {
			t.Error("the actor woken by a blocked handler waited for it beside a free worker")
		}
		close(gate)
	})
}
