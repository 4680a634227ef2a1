//go:build poolkit_hooks && go1.25

package actorpool_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/actorpool"
)

// TestIdleTransitionOwnsNothing holds a turn right after it stored idle,
// lets a sender hand the actor to another worker whose turn panics and
// suspends the actor for a restart backoff, then lets the first turn go
// on. The first turn must not touch what the second owns: it read the
// actor's suspended flag after its store, a data race that -race reports
// (CI runs this file with -race; it was found by the seeded yields, seed
// 1795474476506743507).
func TestIdleTransitionOwnsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSystem(t, actorpool.WithWorkers(2))
		sup := actorpool.DefaultSupervisor
		sup.MinBackoff = time.Millisecond
		r, err := s.Spawn(func() actorpool.Behavior {
			return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) {
				if msg == "boom" {
					panic("boom")
				}
				_ = c.Respond(msg)
			})
		}, actorpool.WithSupervisor(sup))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		if _, err := r.Ask(ctx, "warm"); err != nil {
			t.Fatal(err)
		}
		reached, resume := actorpool.BreakAtIdle()
		defer actorpool.ClearBreak()
		tell(t, r, "n") // its turn goes idle and is held there
		synctest.Wait()
		select {
		case <-reached:
		default:
			t.Fatal("no turn reached the idle transition")
		}
		var pe *actorpool.PanicError
		if _, err := r.Ask(ctx, "boom"); !errors.As(err, &pe) {
			t.Fatalf("Ask boom = %v, want a *PanicError", err)
		}
		close(resume)
		if v, err := r.Ask(ctx, "after"); v != "after" || err != nil {
			t.Fatalf("after the restart Ask = %v, %v", v, err)
		}
	})
}

// TestRouteAcrossRetiredSet holds a sender that has read the router's
// worker set [w0 w1], grows the router to four and shrinks it to two,
// which retires w0 and w1, and lets the sender go on: every worker it
// read refuses, and it must try the new set rather than give up with
// ErrNoWorker.
func TestRouteAcrossRetiredSet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSystem(t)
		r, err := actorpool.NewRouter(s, 2, idWorkers())
		if err != nil {
			t.Fatal(err)
		}
		old := r.Workers()
		reached, resume := actorpool.BreakAtRoute()
		defer actorpool.ClearBreak()
		answer := make(chan error, 1)
		go func() {
			_, err := r.Ref().Ask(context.Background(), "id")
			answer <- err
		}()
		<-reached
		if err := r.Resize(4); err != nil {
			t.Fatal(err)
		}
		if err := r.Resize(2); err != nil {
			t.Fatal(err)
		}
		synctest.Wait() // the two retired workers have stopped
		for _, w := range old {
			if err := w.Tell("id"); !errors.Is(err, actorpool.ErrStopped) {
				t.Fatalf("retired worker Tell = %v, want ErrStopped", err)
			}
		}
		close(resume)
		if err := <-answer; err != nil {
			t.Errorf("Ask through the router across a retired worker set = %v, want an answer", err)
		}
	})
}

// TestTakeBackKeepsLocalSlot: a turn whose handler woke B (into its local
// slot: the only worker is busy) goes idle; a message to it arrives in
// that window, and the turn takes its actor back before the sender can.
// B must still run: the slot reopens with B in it.
func TestTakeBackKeepsLocalSlot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSystem(t, actorpool.WithWorkers(1))
		var hi atomic.Int32
		b := spawn(t, s, func(c *actorpool.Context, msg any) {
			if msg == "hi" {
				hi.Add(1)
			}
		})
		a := spawn(t, s, func(c *actorpool.Context, msg any) {
			if msg == "go" {
				_ = c.Tell(b, "hi")
			}
		})
		synctest.Wait() // both started and idle
		defer actorpool.ClearBreak()
		idleReached, idleResume := actorpool.BreakAtIdle()
		tell(t, a, "go")
		<-idleReached // a's turn stored idle, b in its slot
		putReached, putResume := actorpool.BreakAtPut()
		go func() { _ = a.Tell("x") }()
		<-putReached // the message is in a's mailbox, its sender not yet waking a
		close(idleResume)
		synctest.Wait() // a's turn took a back, handled x, and ran its slot
		close(putResume)
		synctest.Wait()
		if hi.Load() != 1 {
			t.Errorf("b handled hi %d times, want 1: the slot was lost when the turn took its actor back", hi.Load())
		}
	})
}
