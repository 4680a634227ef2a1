//go:build go1.25

package actorpool_test

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/resize"
)

// TestCrossSystemSendRunsOnItsSystem: s1 has one worker, s2 two. An s1
// handler tells an idle s2 actor and waits for it: the s2 actor must run on
// s2's workers, not wait in the s1 turn's local slot behind the waiting
// handler (a deadlock though s2 has free workers). And with s2's only
// worker held, an s2 actor told from an s1 handler must not run on s1's
// worker beside it (two s2 actors at once under capacity 1).
func TestCrossSystemSendRunsOnItsSystem(t *testing.T) {
	s1 := newSystem(t, actorpool.WithWorkers(1))
	s2 := newSystem(t, actorpool.WithWorkers(2))
	ran := make(chan struct{})
	b := spawn(t, s2, func(*actorpool.Context, any) { close(ran) })
	done := make(chan struct{})
	a := spawn(t, s1, func(c *actorpool.Context, _ any) {
		if err := c.Tell(b, 1); err != nil {
			t.Error(err)
		}
		<-ran // waits for the s2 actor, holding s1's only worker
		close(done)
	})
	tell(t, a, 1)
	wait(t, done, "an s1 handler waiting for an s2 actor")

	// Capacity: s3 has one worker, held by a blocked actor; an s3 actor
	// told from an s4 handler must wait for it.
	s3 := newSystem(t, actorpool.WithWorkers(1))
	s4 := newSystem(t, actorpool.WithWorkers(1))
	var running, peak atomic.Int32
	enter := func() {
		n := running.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
	}
	release := make(chan struct{})
	blocked := make(chan struct{})
	holder := spawn(t, s3, func(*actorpool.Context, any) {
		enter()
		close(blocked)
		<-release
		running.Add(-1)
	})
	other := make(chan struct{})
	c3 := spawn(t, s3, func(*actorpool.Context, any) { enter(); running.Add(-1); close(other) })
	tell(t, holder, 1)
	wait(t, blocked, "the s3 holder")
	sent := make(chan struct{})
	d := spawn(t, s4, func(c *actorpool.Context, _ any) {
		_ = c.Tell(c3, 1)
		close(sent)
	})
	tell(t, d, 1)
	wait(t, sent, "the s4 handler")
	close(release)
	wait(t, other, "the s3 actor told from s4")
	if peak.Load() > 1 {
		t.Errorf("%d actors of a system of one worker ran at once", peak.Load())
	}
}

// TestRouterOfShutDownSystem: after its system's Shutdown a router is
// closed: Resize returns an error matching resize.ErrClosed and changes
// nothing, and Stop on its Ref reports it stopped.
func TestRouterOfShutDownSystem(t *testing.T) {
	s, err := actorpool.New()
	if err != nil {
		t.Fatal(err)
	}
	r, err := actorpool.NewRouter(s, 3, func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(*actorpool.Context, any) {})
	})
	if err != nil {
		t.Fatal(err)
	}
	shutdown(t, s)
	before := r.Cap()
	if err := r.Resize(1); !errors.Is(err, resize.ErrClosed) {
		t.Errorf("Resize after Shutdown = %v, want an error matching resize.ErrClosed", err)
	}
	if r.Cap() != before {
		t.Errorf("Cap after a refused Resize = %d, want %d", r.Cap(), before)
	}
	if err := r.Ref().Stop(); !errors.Is(err, actorpool.ErrStopped) {
		t.Errorf("Stop on a router of a shut-down system = %v, want ErrStopped", err)
	}
}

// TestNilSystem: a nil *System is an error wherever it is given, and its
// methods return errors or zero values.
func TestNilSystem(t *testing.T) {
	behavior := func() actorpool.Behavior { return actorpool.BehaviorFunc(func(*actorpool.Context, any) {}) }
	if _, err := actorpool.NewRouter(nil, 1, behavior); !errors.Is(err, actorpool.ErrNilSystem) {
		t.Errorf("NewRouter(nil) = %v, want ErrNilSystem", err)
	}
	if _, err := actorpool.NewSerializer(nil, actorpool.Ref{}); !errors.Is(err, actorpool.ErrNilSystem) {
		t.Errorf("NewSerializer(nil) = %v, want ErrNilSystem", err)
	}
	var s *actorpool.System
	if _, err := s.Spawn(behavior); !errors.Is(err, actorpool.ErrNilSystem) {
		t.Errorf("nil System's Spawn = %v, want ErrNilSystem", err)
	}
	if err := s.Resize(1); !errors.Is(err, actorpool.ErrNilSystem) {
		t.Errorf("nil System's Resize = %v, want ErrNilSystem", err)
	}
	if err := s.Shutdown(context.Background()); !errors.Is(err, actorpool.ErrNilSystem) {
		t.Errorf("nil System's Shutdown = %v, want ErrNilSystem", err)
	}
	if s.Cap() != 0 || s.Stats() != (actorpool.Stats{}) {
		t.Error("nil System's Cap or Stats is not zero")
	}
}

// TestGoexitInLifecycle: runtime.Goexit in a behaviour's producer, PreStart
// or PostStop cannot be stopped, and must not wedge the actor: one that
// could not start stops (an Ask to it is answered ErrStopped; Stop reports
// it stopped), one whose PostStop exits finishes stopping, another actor
// the same worker was to run next still runs, and Shutdown returns.
func TestGoexitInLifecycle(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), failBound)
	defer cancel()
	for _, c := range []struct {
		name    string
		produce func() actorpool.Behavior
	}{
		{"producer", func() actorpool.Behavior { runtime.Goexit(); return nil }},
		{"PreStart", func() actorpool.Behavior {
			return &lifecycle{onStart: func() error { runtime.Goexit(); return nil }}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSystem(t, actorpool.WithWorkers(1))
			r, err := s.Spawn(c.produce)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.Ask(ctx, "hello"); !errors.Is(err, actorpool.ErrStopped) {
				t.Errorf("Ask to an actor whose %s called Goexit = %v, want ErrStopped", c.name, err)
			}
			if err := r.Stop(); !errors.Is(err, actorpool.ErrStopped) {
				t.Errorf("Stop = %v, want ErrStopped", err)
			}
			ok := spawn(t, s, func(c *actorpool.Context, _ any) { _ = c.Respond("ok") })
			if v, err := ok.Ask(ctx, 1); v != "ok" || err != nil {
				t.Errorf("another actor after the Goexit: Ask = %v, %v", v, err)
			}
			if err := s.Shutdown(ctx); err != nil {
				t.Errorf("Shutdown = %v", err)
			}
		})
	}
	t.Run("PostStop", func(t *testing.T) {
		s := newSystem(t, actorpool.WithWorkers(1))
		stopped := make(chan struct{})
		r, err := s.Spawn(func() actorpool.Behavior {
			return &lifecycle{onStop: func() { close(stopped); runtime.Goexit() }}
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Stop(); err != nil {
			t.Fatal(err)
		}
		wait(t, stopped, "PostStop")
		if err := r.Tell(1); !errors.Is(err, actorpool.ErrStopped) {
			t.Errorf("Tell after a PostStop that called Goexit = %v, want ErrStopped", err)
		}
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown after a PostStop that called Goexit = %v", err)
		}
	})
}
