//go:build poolkit_hooks

package actorpool_test

import (
	"context"
	"errors"
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
		if _, err := r.Ask(ctx, "boom"); !errors.Is(err, actorpool.ErrPanicked) {
			t.Fatalf("Ask boom = %v, want ErrPanicked", err)
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
