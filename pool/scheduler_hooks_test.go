//go:build poolkit_hooks && go1.25

package pool_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/poolkit/poolkit/internal/testkit"
	"github.com/poolkit/poolkit/pool"
)

// The scheduler's protocol's windows (pool/scheduler.go, P1-P4), each held
// open with a breakpoint while the test acts.

// TestBreakSchedTakeThenExpire: P1, P2. A ticket has started on a worker
// and is held before it takes the scheduler's lock; the task it was made
// for expires meanwhile. The ticket, released, finds nothing and ends; the
// task never runs, and the next task accepted takes the ticket left
// behind.
func TestBreakSchedTakeThenExpire(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 1)
	s := mustScheduler(t, p)
	paused, resume := pauseAt(t, "sched-take")
	ctx, cancel := context.WithCancel(bg)
	f, err := pool.Schedule(ctx, s, 0, func() (int, error) { t.Error("an expired task ran"); return 0, nil })
	if err != nil {
		t.Fatal(err)
	}
	<-paused
	cancel()
	if !testkit.Within(func() { <-f.Done() }) {
		t.Fatal("the Future of a task whose ticket is held did not report its context's end")
	}
	if _, err := f.Wait(bg); !errors.Is(err, context.Canceled) {
		t.Errorf("Future: %v, want context.Canceled", err)
	}
	ran := make(chan struct{})
	if err := s.Submit(bg, 0, func() { close(ran) }); err != nil {
		t.Fatal(err)
	}
	resume()
	if !testkit.Within(func() { <-ran }) {
		t.Fatal("the task accepted on the ticket left behind never ran")
	}
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	if st := p.Stats(); st.Expired != 1 || st.Submitted != 2 || st.Completed != 2 {
		t.Errorf("stats: %+v", st)
	}
}

// TestBreakSchedExpireThenTake: P2. A task's context has ended and its
// expiry is held before it takes the scheduler's lock; a ticket takes the
// task meanwhile and runs it. Released, the expiry finds the task gone:
// the Future reports the task's result, and nothing counts it expired.
func TestBreakSchedExpireThenTake(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 1)
	s := mustScheduler(t, p)
	release := blocked(t, p)
	paused, resume := pauseAt(t, "sched-expire")
	ctx, cancel := context.WithCancel(bg)
	f, err := pool.Schedule(ctx, s, 0, func() (int, error) { return 5, nil })
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	<-paused
	release()
	if !testkit.Within(func() { <-f.Done() }) {
		t.Fatal("the task was not run while its expiry was held")
	}
	resume()
	if v, err := f.Wait(bg); v != 5 || err != nil {
		t.Errorf("Future: %v, %v; want 5, nil", v, err)
	}
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	if st := p.Stats(); st.Expired != 0 {
		t.Errorf("a task that ran is counted expired: %+v", st)
	}
}

// TestBreakSchedTakeBeforeShutdownNow: P4. A worker has taken a ticket but
// not used it when ShutdownNow is called: the ticket is not among the
// units the pool hands back, and no task may start in the pool after
// ShutdownNow. ShutdownNow hands the task back; the held ticket, released,
// finds nothing.
func TestBreakSchedTakeBeforeShutdownNow(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 1)
	s := mustScheduler(t, p)
	paused, resume := pauseAt(t, "sched-take")
	shut := make(chan struct{})
	ran := 0
	if err := s.Submit(bg, 0, func() {
		select {
		case <-shut:
		default:
			t.Error("the task started in the pool, not handed back by ShutdownNow")
		}
		ran++
	}); err != nil {
		t.Fatal(err)
	}
	shutdownNowWhileHeld(t, p, paused, resume, shut, "the task")()
	if ran != 1 {
		t.Errorf("the task ran %d times, want 1", ran)
	}
	if st := p.Stats(); st.Submitted != st.Completed+st.Returned || st.Returned != 1 {
		t.Errorf("stats: %+v", st)
	}
}

// TestBreakSchedOfferVsClose: P4. A submitter holds the scheduler's lock
// and is about to offer a ticket when the pool closes: it is refused with
// ErrClosed, or accepted and then run (Close) or handed back
// (ShutdownNow); never lost.
func TestBreakSchedOfferVsClose(t *testing.T) {
	for _, now := range []bool{false, true} {
		breakpoints(t)
		p := mustNew(t, 1)
		s := mustScheduler(t, p)
		paused, resume := pauseAt(t, "sched-offer")
		ran := make(chan struct{}, 1)
		errc := make(chan error, 1)
		go func() { errc <- s.Submit(bg, 0, func() { ran <- struct{}{} }) }()
		<-paused
		var back []func()
		closed := make(chan struct{})
		go func() {
			if now {
				back = p.ShutdownNow()
			} else {
				p.Close()
			}
			close(closed)
		}()
		for { // WaitRoom does not take the scheduler's lock, which the held submitter has
			if _, err := p.WaitRoom(bg); errors.Is(err, pool.ErrClosed) {
				break
			}
			runtime.Gosched()
		}
		resume()
		err := <-errc
		<-closed
		if err := shutdownWithin(p, time.Minute); err != nil {
			t.Fatal(err)
		}
		for _, f := range back {
			f()
		}
		select {
		case <-ran:
			if err != nil {
				t.Errorf("now=%v: a refused task (%v) ran", now, err)
			}
		default:
			if err == nil {
				t.Errorf("now=%v: an accepted task was neither run nor handed back", now)
			} else if !errors.Is(err, pool.ErrClosed) {
				t.Errorf("now=%v: Submit racing the close: %v, want nil or ErrClosed", now, err)
			}
		}
	}
}
