//go:build go1.25

package actorpool_test

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/resize"
)

// TestRestartFreshStateLifecycle: a panic under Restart replaces the
// behaviour with a fresh one; PreStart and PostStop run exactly once per
// behaviour value; an Ask on the failing message gets a *PanicError.
func TestRestartFreshStateLifecycle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSystem(t)
		var starts, stops atomic.Int32
		r, err := s.Spawn(func() actorpool.Behavior {
			count := 0
			return &lifecycle{
				onStart: func() error { starts.Add(1); return nil },
				onStop:  func() { stops.Add(1) },
				recv: func(c *actorpool.Context, msg any) {
					if msg == "boom" {
						panic("boom")
					}
					count++
					_ = c.Respond(count)
				},
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		for want := 1; want <= 2; want++ {
			if v, err := r.Ask(ctx, "n"); v != want || err != nil {
				t.Fatalf("Ask = %v, %v; want %d", v, err, want)
			}
		}
		var pe *actorpool.PanicError
		if _, err := r.Ask(ctx, "boom"); !errors.As(err, &pe) {
			t.Fatalf("Ask of a panicking message = %v, want a *PanicError", err)
		}
		// After the backoff (1 ms, fake time) a fresh behaviour counts from 1.
		if v, err := r.Ask(ctx, "n"); v != 1 || err != nil {
			t.Fatalf("after a restart Ask = %v, %v; want 1 (fresh state)", v, err)
		}
		if err := r.Stop(); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if starts.Load() != 2 || stops.Load() != 2 {
			t.Errorf("PreStart ran %d times, PostStop %d; want 2 each (two behaviour values)", starts.Load(), stops.Load())
		}
		if st := s.Stats(); st.Restarts != 1 || st.Panics != 1 {
			t.Errorf("Stats = %+v, want 1 restart and 1 panic", st)
		}
	})
}

// TestResumeKeepsState: Resume goes on with the same behaviour.
func TestResumeKeepsState(t *testing.T) {
	s := newSystem(t)
	count := 0
	r := spawn(t, s, func(c *actorpool.Context, msg any) {
		if msg == "boom" {
			panic("boom")
		}
		count++
		_ = c.Respond(count)
	}, actorpool.WithSupervisor(actorpool.Supervisor{Directive: actorpool.Resume}))
	ctx := context.Background()
	_, _ = r.Ask(ctx, "n")
	_, _ = r.Ask(ctx, "boom")
	if v, err := r.Ask(ctx, "n"); v != 2 || err != nil {
		t.Errorf("after Resume Ask = %v, %v; want 2", v, err)
	}
}

// TestCrashLoopStops: a handler that always panics is restarted at most
// MaxRestarts times within the window, each after a doubling backoff, and
// then stopped: a crash loop cannot spin for ever.
func TestCrashLoopStops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var dead atomic.Int32
		s := newSystem(t, actorpool.WithDeadLetters(func(actorpool.DeadLetter) { dead.Add(1) }))
		var starts []time.Time
		sup := actorpool.Supervisor{Directive: actorpool.Restart, MaxRestarts: 3, Within: time.Minute,
			MinBackoff: 10 * time.Millisecond, MaxBackoff: 25 * time.Millisecond}
		r, err := s.Spawn(func() actorpool.Behavior {
			return &lifecycle{
				onStart: func() error { starts = append(starts, time.Now()); return nil },
				recv:    func(*actorpool.Context, any) { panic("always") },
			}
		}, actorpool.WithSupervisor(sup))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 10 {
			tell(t, r, i)
		}
		synctest.Wait()
		time.Sleep(time.Second) // fake time: lets every backoff pass
		synctest.Wait()
		if len(starts) != 4 {
			t.Fatalf("PreStart ran %d times, want 4 (1 + 3 restarts)", len(starts))
		}
		var gaps []time.Duration
		for i := 1; i < len(starts); i++ {
			gaps = append(gaps, starts[i].Sub(starts[0]))
			starts[0] = starts[i]
		}
		want := []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 25 * time.Millisecond}
		for i := range want {
			if gaps[i] != want[i] {
				t.Errorf("backoffs %v, want %v", gaps, want)
				break
			}
		}
		if err := r.Tell(1); !errors.Is(err, actorpool.ErrStopped) {
			t.Errorf("after the budget is spent Tell = %v, want ErrStopped", err)
		}
		// 4 messages panicked; the other 6 are dead letters.
		if dead.Load() != 6 {
			t.Errorf("dead letters %d, want 6", dead.Load())
		}
	})
}

// TestPreStartFailureStops: a PreStart error stops the actor; its messages
// become dead letters, and an Ask waiting on one is answered.
func TestPreStartFailureStops(t *testing.T) {
	s := newSystem(t)
	r, err := s.Spawn(func() actorpool.Behavior {
		return &lifecycle{onStart: func() error { return errors.New("no") }}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Ask(context.Background(), 1); !errors.Is(err, actorpool.ErrStopped) {
		t.Errorf("Ask to an actor whose PreStart failed = %v, want ErrStopped", err)
	}
}

// TestStopFromInsideHandler: an actor stopping itself, and a Shutdown from
// inside a handler, neither deadlocks.
func TestStopFromInsideHandler(t *testing.T) {
	s := newSystem(t)
	stopped := make(chan struct{})
	r, err := s.Spawn(func() actorpool.Behavior {
		return &lifecycle{onStop: func() { close(stopped) }, recv: func(c *actorpool.Context, any any) {
			_ = c.Self().Stop()
		}}
	})
	if err != nil {
		t.Fatal(err)
	}
	tell(t, r, 1)
	wait(t, stopped, "self-stop")

	s2, err := actorpool.New()
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	r2, err := s2.Spawn(func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(c *actorpool.Context, any any) {
			got <- c.System().Shutdown(context.Background())
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	tell(t, r2, 1)
	if err := <-got; !errors.Is(err, actorpool.ErrInsideTask) {
		t.Errorf("Shutdown from a handler = %v, want ErrInsideTask", err)
	}
	shutdown(t, s2)
	if _, err := s2.Spawn(func() actorpool.Behavior { return actorpool.BehaviorFunc(nil) }); !errors.Is(err, actorpool.ErrClosed) {
		t.Errorf("Spawn after Shutdown = %v, want ErrClosed", err)
	}
}

// TestShutdownAccountsForEveryMessage: messages queued at Shutdown are
// handled (at most one per actor) or reported as dead letters.
func TestShutdownAccountsForEveryMessage(t *testing.T) {
	var dead atomic.Int64
	s, err := actorpool.New(actorpool.WithWorkers(1), actorpool.WithDeadLetters(func(actorpool.DeadLetter) { dead.Add(1) }))
	if err != nil {
		t.Fatal(err)
	}
	open := gate(t, s)
	var handled atomic.Int64
	const actors, each = 20, 50
	for range actors {
		r := spawn(t, s, func(*actorpool.Context, any) { handled.Add(1) })
		for i := range each {
			tell(t, r, i)
		}
	}
	done := make(chan error, 1)
	go func() { done <- s.Shutdown(context.Background()) }()
	open()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := handled.Load() + dead.Load(); got != actors*each {
		t.Errorf("handled %d + dead %d = %d, want %d", handled.Load(), dead.Load(), got, actors*each)
	}
	if st := s.Stats(); st.DeadLetters != uint64(dead.Load()) || st.Actors != 0 {
		t.Errorf("Stats = %+v", st)
	}
}

// TestBadInput: each bad call returns its error, never panics or hangs,
// and a refused message is counted.
func TestBadInput(t *testing.T) {
	s := newSystem(t)
	r := spawn(t, s, func(c *actorpool.Context, msg any) { _ = c.Respond(msg) })
	var zero actorpool.Ref
	done, cancel := context.WithCancel(context.Background())
	cancel()
	checks := []struct {
		name string
		err  error
		want error
	}{
		{"Tell nil message", r.Tell(nil), actorpool.ErrNilMessage},
		{"Tell zero Ref", zero.Tell(1), actorpool.ErrNilRef},
		{"Stop zero Ref", zero.Stop(), actorpool.ErrNilRef},
		//lint:ignore SA1012 the nil context is the input under test
		{"Ask nil context", func() error { _, err := r.Ask(nil, 1); return err }(), actorpool.ErrNilContext},
		{"Ask done context", func() error { _, err := r.Ask(done, 1); return err }(), context.Canceled},
		{"Spawn nil behavior", func() error { _, err := s.Spawn(nil); return err }(), actorpool.ErrNilBehavior},
		{"Resize(0)", s.Resize(0), resize.ErrInvalidSize},
		{"New WithWorkers(0)", func() error { _, err := actorpool.New(actorpool.WithWorkers(0)); return err }(), actorpool.ErrInvalidOption},
		{"New WithBudget(0)", func() error { _, err := actorpool.New(actorpool.WithBudget(0)); return err }(), actorpool.ErrInvalidOption},
		{"Spawn mailbox 0", func() error {
			_, err := s.Spawn(func() actorpool.Behavior { return nil }, actorpool.WithMailboxSize(0))
			return err
		}(), actorpool.ErrInvalidOption},
		//lint:ignore SA1012 the nil context is the input under test
		{"Shutdown nil context", s.Shutdown(nil), actorpool.ErrNilContext},
	}
	for _, c := range checks {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.err, c.want)
		}
	}
	if st := s.Stats(); st.Refused != 1 {
		t.Errorf("Refused = %d, want 1 (the nil message)", st.Refused)
	}
	// A producer returning nil stops the actor at its first turn.
	n, err := s.Spawn(func() actorpool.Behavior { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.Ask(context.Background(), 1); !errors.Is(err, actorpool.ErrStopped) {
		t.Errorf("Ask to an actor with a nil behaviour = %v, want ErrStopped", err)
	}
}

// TestTellAfterStop: Stop is a request that the actor's turn takes after
// the message it is handling. Until then the actor has not stopped: a Tell
// returns nil and its message, queued behind the stop, becomes a dead
// letter (counted, passed to WithDeadLetters), an Ask's message too (the
// Ask returns ErrStopped), and a second Stop returns nil. Once the actor
// has stopped, Tell and Stop return ErrStopped, and the message is counted
// as refused. No message told after Stop is handled, and none is lost.
func TestTellAfterStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var dead []actorpool.DeadLetter
		s := newSystem(t, actorpool.WithDeadLetters(func(d actorpool.DeadLetter) { dead = append(dead, d) }))
		var handled []any
		hold := make(chan struct{})
		r := spawn(t, s, func(c *actorpool.Context, msg any) {
			handled = append(handled, msg)
			if msg == "hold" {
				<-hold
			}
		})
		tell(t, r, "hold")
		synctest.Wait() // the actor's turn is handling "hold"
		if err := r.Stop(); err != nil {
			t.Fatalf("Stop = %v, want nil", err)
		}
		if err := r.Tell("after"); err != nil {
			t.Errorf("Tell while the stop is pending = %v, want nil", err)
		}
		askErr := make(chan error, 1)
		go func() { _, err := r.Ask(context.Background(), "ask"); askErr <- err }()
		synctest.Wait()
		if err := r.Stop(); err != nil {
			t.Errorf("a second Stop while the first is pending = %v, want nil", err)
		}
		close(hold)
		synctest.Wait()
		if err := <-askErr; !errors.Is(err, actorpool.ErrStopped) {
			t.Errorf("Ask while the stop is pending = %v, want ErrStopped", err)
		}
		if len(handled) != 1 || handled[0] != "hold" {
			t.Errorf("handled %v, want only hold", handled)
		}
		if len(dead) != 2 || dead[0].Message != "after" || dead[1].Message != "ask" {
			t.Fatalf("dead letters %+v, want after and ask", dead)
		}
		for _, d := range dead {
			if d.To != r || !errors.Is(d.Reason, actorpool.ErrStopped) {
				t.Errorf("dead letter %+v, want To %v and Reason ErrStopped", d, r)
			}
		}
		if err := r.Tell("late"); !errors.Is(err, actorpool.ErrStopped) {
			t.Errorf("Tell after the actor stopped = %v, want ErrStopped", err)
		}
		if err := r.Stop(); !errors.Is(err, actorpool.ErrStopped) {
			t.Errorf("Stop after the actor stopped = %v, want ErrStopped", err)
		}
		if st := s.Stats(); st.DeadLetters != 2 || st.Refused != 1 || st.Actors != 0 {
			t.Errorf("Stats = %+v, want 2 dead letters, 1 refused, no actor", st)
		}
	})
}

// TestTellAfterStopOfRouter: Stop on a router's Ref stops the router at
// once: a Tell afterwards, and another Stop, return ErrStopped; a Priority
// message, for the router's own actor, whose stop is pending, becomes a
// dead letter. The system's one worker is held by another actor's
// handler meanwhile, so that the router's stop is still pending when the
// Priority message is told, whatever the scheduler does.
func TestTellAfterStopOfRouter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSystem(t, actorpool.WithWorkers(1))
		held, release := make(chan struct{}), make(chan struct{})
		blocker, err := s.Spawn(func() actorpool.Behavior {
			return actorpool.BehaviorFunc(func(*actorpool.Context, any) {
				close(held)
				<-release
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := blocker.Tell("hold"); err != nil {
			t.Fatal(err)
		}
		<-held
		rt, err := actorpool.NewRouter(s, 2, func() actorpool.Behavior {
			return actorpool.BehaviorFunc(func(*actorpool.Context, any) { t.Error("a message told after Stop was handled") })
		})
		if err != nil {
			t.Fatal(err)
		}
		r := rt.Ref()
		if err := r.Stop(); err != nil {
			t.Fatalf("Stop = %v, want nil", err)
		}
		if err := r.Tell("after"); !errors.Is(err, actorpool.ErrStopped) {
			t.Errorf("Tell after the router's Stop = %v, want ErrStopped", err)
		}
		if err := r.Tell(actorpool.Priority{Msg: "priority"}); err != nil {
			t.Errorf("Tell(Priority) while the router's own stop is pending = %v, want nil", err)
		}
		if err := r.Stop(); !errors.Is(err, actorpool.ErrStopped) {
			t.Errorf("a second Stop of the router = %v, want ErrStopped", err)
		}
		close(release)
		if err := blocker.Stop(); err != nil {
			t.Errorf("Stop of the blocker = %v", err)
		}
		synctest.Wait()
		if st := s.Stats(); st.DeadLetters != 1 || st.Refused != 1 || st.Actors != 0 {
			t.Errorf("Stats = %+v, want 1 dead letter, 1 refused, no actor", st)
		}
	})
}

// TestTellAfterStopOfIdleActor: a Tell right after Stop of an idle actor
// races with the turn that takes the stop. Either it returns nil and the
// message becomes a dead letter, or it returns ErrStopped and the message
// is refused; it is never handled, and never lost.
func TestTellAfterStopOfIdleActor(t *testing.T) {
	s := newSystem(t)
	const n = 200
	var handled atomic.Int32
	var accepted, refused uint64
	for range n {
		r := spawn(t, s, func(*actorpool.Context, any) { handled.Add(1) })
		if err := r.Stop(); err != nil {
			t.Fatal(err)
		}
		switch err := r.Tell("after"); {
		case err == nil:
			accepted++
		case errors.Is(err, actorpool.ErrStopped):
			refused++
		default:
			t.Fatalf("Tell after Stop = %v, want nil or ErrStopped", err)
		}
	}
	deadline := time.Now().Add(failBound)
	for s.Stats().Actors != 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if st := s.Stats(); handled.Load() != 0 || st.DeadLetters != accepted || st.Refused != refused || st.Actors != 0 {
		t.Errorf("handled %d; Stats = %+v; want none handled, %d dead letters, %d refused, no actor",
			handled.Load(), st, accepted, refused)
	}
	t.Logf("%d of %d told while the stop was pending", accepted, n)
}

// TestInvalidValueMessages: the error for an invalid size or option value
// names the value and the range of valid ones.
func TestInvalidValueMessages(t *testing.T) {
	s := newSystem(t)
	produce := func() actorpool.Behavior { return nil }
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"System.Resize(0)", s.Resize(0), "resize: invalid size 0: want 1 to 2147483647"},
		{"New WithWorkers(0)", func() error { _, err := actorpool.New(actorpool.WithWorkers(0)); return err }(),
			"poolkit: invalid option: workers 0: want 1 to 2147483647"},
		{"New WithBudget(0)", func() error { _, err := actorpool.New(actorpool.WithBudget(0)); return err }(),
			"poolkit: invalid option: budget 0: want at least 1"},
		{"Spawn WithMailboxSize(0)", func() error { _, err := s.Spawn(produce, actorpool.WithMailboxSize(0)); return err }(),
			"poolkit: invalid option: mailbox size 0: want at least 1"},
		{"NewRouter(0)", func() error { _, err := actorpool.NewRouter(s, 0, produce); return err }(),
			"resize: invalid size 0: want 1 to 2147483647"},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("%s = %v, want %q", c.name, c.err, c.want)
		}
	}
}

// TestMailboxFull: a bounded mailbox refuses past its size, with
// ErrMailboxFull, counted.
func TestMailboxFull(t *testing.T) {
	s := newSystem(t, actorpool.WithWorkers(1))
	open := gate(t, s)
	defer open()
	r := spawn(t, s, func(*actorpool.Context, any) {}, actorpool.WithMailboxSize(3))
	for i := range 3 {
		tell(t, r, i)
	}
	if err := r.Tell(3); !errors.Is(err, actorpool.ErrMailboxFull) {
		t.Errorf("Tell past the bound = %v, want ErrMailboxFull", err)
	}
	if st := s.Stats(); st.MailboxFull != 1 {
		t.Errorf("MailboxFull = %d, want 1", st.MailboxFull)
	}
}

// TestResizeChangesConcurrency: the system's capacity is how many actors
// run at once; growing it lets a waiting actor run.
func TestResizeChangesConcurrency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSystem(t, actorpool.WithWorkers(1))
		release := make(chan struct{})
		var running atomic.Int32
		for range 2 {
			r := spawn(t, s, func(*actorpool.Context, any) {
				running.Add(1)
				<-release
			})
			tell(t, r, 1)
		}
		synctest.Wait()
		if n := running.Load(); n != 1 {
			t.Fatalf("%d actors run at once on one worker", n)
		}
		if err := s.Resize(2); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if n := running.Load(); n != 2 {
			t.Fatalf("after Resize(2), %d actors run", n)
		}
		close(release)
		if s.Cap() != 2 {
			t.Errorf("Cap = %d", s.Cap())
		}
	})
}

// TestGoexitInHandler: a handler that calls runtime.Goexit ends its worker
// goroutine, not the actor: the Ask on that message is answered
// ErrGoexit, and the next message is handled with the same behaviour.
func TestGoexitInHandler(t *testing.T) {
	s := newSystem(t, actorpool.WithWorkers(1))
	count := 0
	r := spawn(t, s, func(c *actorpool.Context, msg any) {
		count++
		if msg == "exit" {
			runtime.Goexit()
		}
		_ = c.Respond(count)
	})
	ctx, cancel := context.WithTimeout(context.Background(), failBound)
	defer cancel()
	if _, err := r.Ask(ctx, "exit"); !errors.Is(err, actorpool.ErrGoexit) {
		t.Errorf("Ask of a Goexit message = %v, want ErrGoexit", err)
	}
	if v, err := r.Ask(ctx, "n"); v != 2 || err != nil {
		t.Errorf("after Goexit Ask = %v, %v; want 2 (same behaviour, next turn)", v, err)
	}
}
