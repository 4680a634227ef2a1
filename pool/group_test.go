//go:build go1.25

package pool_test

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/poolkit/poolkit/pool"
)

// TestGroup: Wait waits for every task and returns the first error; the
// group's context is canceled by that error, and later Go calls submit
// nothing.
func TestGroup(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2)
		g, ctx := p.Group(context.Background())
		var ran atomic.Int32
		first := errors.New("first")
		for i := range 10 {
			g.Go(func() error {
				ran.Add(1)
				if i == 3 {
					return first
				}
				return nil
			})
		}
		if err := g.Wait(); !errors.Is(err, first) {
			t.Errorf("Wait = %v, want the first error", err)
		}
		if ctx.Err() == nil {
			t.Error("group context not canceled after an error")
		}
		before := ran.Load()
		g.Go(func() error { ran.Add(1); return nil })
		synctest.Wait()
		if ran.Load() != before {
			t.Error("Go submitted a task after the group failed")
		}
	})
}

// TestGroupPanicAndGoexit: a task that panics or calls runtime.Goexit
// fails the group instead of hanging Wait.
func TestGroupPanicAndGoexit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2, pool.WithPanicHandler(func(any) {}))
		g, _ := p.Group(context.Background())
		g.Go(func() error { panic("group boom") })
		var pe *pool.PanicError
		if err := g.Wait(); !errors.As(err, &pe) || pe.Value != "group boom" {
			t.Errorf("Wait = %v, want a *PanicError for the panic", err)
		}
		g2, _ := p.Group(context.Background())
		g2.Go(func() error { runtime.Goexit(); return nil })
		if err := g2.Wait(); !errors.Is(err, pool.ErrGoexit) {
			t.Errorf("Wait = %v, want ErrGoexit", err)
		}
	})
}

// TestGroupClosedPool: a Go on a closed pool fails the group with
// ErrClosed.
func TestGroupClosedPool(t *testing.T) {
	p := mustNew(t, 1)
	p.Close()
	g, _ := p.Group(context.Background())
	g.Go(func() error { return nil })
	if err := g.Wait(); !errors.Is(err, pool.ErrClosed) {
		t.Errorf("Wait = %v, want ErrClosed", err)
	}
}

// TestSubmitResult: a Future delivers the task's typed result, its error,
// or a *PanicError; Wait honours its context.
func TestSubmitResult(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2, pool.WithPanicHandler(func(any) {}))
		ctx := context.Background()
		f, err := pool.SubmitResult(ctx, p, func() (int, error) { return 42, nil })
		if err != nil {
			t.Fatal(err)
		}
		if v, err := f.Wait(ctx); v != 42 || err != nil {
			t.Errorf("Wait = %d, %v; want 42, nil", v, err)
		}
		bad := errors.New("bad")
		f2, _ := pool.SubmitResult(ctx, p, func() (string, error) { return "", bad })
		if _, err := f2.Wait(ctx); !errors.Is(err, bad) {
			t.Errorf("Wait = %v, want the task's error", err)
		}
		f3, _ := pool.SubmitResult(ctx, p, func() (int, error) { panic("result boom") })
		var pe *pool.PanicError
		if _, err := f3.Wait(ctx); !errors.As(err, &pe) {
			t.Errorf("Wait = %v, want *PanicError", err)
		}
		gate := make(chan struct{})
		f4, _ := pool.SubmitResult(ctx, p, func() (int, error) { <-gate; return 1, nil })
		short, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := f4.Wait(short); !errors.Is(err, context.Canceled) {
			t.Errorf("Wait(canceled) = %v, want context.Canceled", err)
		}
		close(gate)
		<-f4.Done()
		if _, err := pool.SubmitResult[int](ctx, p, nil); !errors.Is(err, pool.ErrNilTask) {
			t.Errorf("SubmitResult(nil) = %v, want ErrNilTask", err)
		}
	})
}

// TestGroupGoAfterItsContextEnds: API-34. Once a group's context is done,
// Go submits nothing: the pool counts no refusal for it, and the group's
// error is the first one.
func TestGroupGoAfterItsContextEnds(t *testing.T) {
	p := mustNew(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	g, _ := p.Group(ctx)
	cancel()
	for range 5 {
		g.Go(func() error { t.Error("a task of an ended group ran"); return nil })
	}
	if err := g.Wait(); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait = %v, want context.Canceled", err)
	}
	if s := p.Stats(); s.Rejected != 0 || s.Submitted != 0 {
		t.Errorf("Stats after Go on an ended group: Submitted %d, Rejected %d; want 0, 0", s.Submitted, s.Rejected)
	}
}
