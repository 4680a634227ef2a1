//go:build go1.25

package pool_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// TestWaitBacklog: API-40. WaitBacklog waits while every task has a
// worker, returns at once with the tasks waiting when as many as asked
// for (at least one) wait with every slot held, and is woken the moment
// enough are queued, or their submitters block, with no free worker; a
// grow that gives the waiting tasks workers ends the backlog; a close
// wakes it with ErrClosed; its context bounds it and a nil one is
// refused.
func TestWaitBacklog(t *testing.T) {
	type result struct {
		n   int
		err error
		at  time.Duration
	}
	for _, c := range []struct {
		name  string
		procs int // GOMAXPROCS: above 2 a blocked submitter joins without the lock
		opts  []pool.Option
	}{
		{"queue", 2, nil},
		{"no-queue/procs=2", 2, []pool.Option{pool.WithQueueSize(0)}},
		{"no-queue/procs=4", 4, []pool.Option{pool.WithQueueSize(0)}},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			old := runtime.GOMAXPROCS(c.procs)
			defer runtime.GOMAXPROCS(old)
			synctest.Test(t, func(t *testing.T) {
				p := mustNew(t, 2, c.opts...)
				ctx, cancel := context.WithTimeout(bg, time.Minute)
				if n, err := p.WaitBacklog(ctx, 1); n != 0 || !errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("WaitBacklog on an idle pool, bounded by a minute = %d, %v; want 0, DeadlineExceeded", n, err)
				}
				cancel()

				hold := make(chan struct{})
				if err := p.Submit(bg, func() { <-hold }); err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				got := make(chan result, 1)
				go func() { n, err := p.WaitBacklog(bg, 1); got <- result{n, err, time.Since(start)} }()
				synctest.Wait()
				// One worker of two is busy: a second task starts at once.
				if err := p.Submit(bg, func() { <-hold }); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				select {
				case r := <-got:
					t.Fatalf("WaitBacklog returned %d, %v with every task started", r.n, r.err)
				default:
				}
				time.Sleep(time.Second)
				// The third task waits: both workers are busy.
				go func() { _ = p.Submit(bg, func() { <-hold }) }()
				synctest.Wait()
				select {
				case r := <-got:
					if r.n != 1 || r.err != nil || r.at != time.Second {
						t.Fatalf("WaitBacklog as a task began to wait = %d, %v after %v; want 1, nil, after 1s (at once)", r.n, r.err, r.at)
					}
				default:
					t.Fatal("a task waiting with no free worker did not wake WaitBacklog")
				}
				if n, err := p.WaitBacklog(bg, 0); n != 1 || err != nil {
					t.Fatalf("WaitBacklog(ctx, 0) with a task waiting = %d, %v; want 1, nil, at once", n, err)
				}

				// A caller that waits for 3 is not woken by the second
				// waiting task, and is by the third.
				go func() { n, err := p.WaitBacklog(bg, 3); got <- result{n, err, 0} }()
				synctest.Wait()
				go func() { _ = p.Submit(bg, func() { <-hold }) }()
				synctest.Wait()
				select {
				case r := <-got:
					t.Fatalf("WaitBacklog(ctx, 3) returned %d, %v with 2 tasks waiting", r.n, r.err)
				default:
				}
				go func() { _ = p.Submit(bg, func() { <-hold }) }()
				synctest.Wait()
				select {
				case r := <-got:
					if r.n != 3 || r.err != nil {
						t.Fatalf("WaitBacklog(ctx, 3) as a third task began to wait = %d, %v; want 3, nil", r.n, r.err)
					}
				default:
					t.Fatal("a third task waiting did not wake WaitBacklog(ctx, 3)")
				}

				// A grow starts the waiting tasks: no backlog any more.
				if err := p.Resize(5); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				ctx, cancel = context.WithTimeout(bg, time.Minute)
				if n, err := p.WaitBacklog(ctx, 1); n != 0 || !errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("WaitBacklog after a grow started every task = %d, %v; want 0, DeadlineExceeded", n, err)
				}
				cancel()

				// A close wakes a waiter with ErrClosed.
				go func() { n, err := p.WaitBacklog(bg, 1); got <- result{n, err, 0} }()
				synctest.Wait()
				p.Close()
				synctest.Wait()
				select {
				case r := <-got:
					if !errors.Is(r.err, pool.ErrClosed) {
						t.Fatalf("WaitBacklog woken by a close = %d, %v; want ErrClosed", r.n, r.err)
					}
				default:
					t.Fatal("a close did not wake WaitBacklog")
				}
				close(hold)
				if _, err := p.WaitBacklog(bg, 1); !errors.Is(err, pool.ErrClosed) {
					t.Fatalf("WaitBacklog on a closed pool = %v, want ErrClosed", err)
				}
				//lint:ignore SA1012 a nil context is the input under test
				if _, err := p.WaitBacklog(nil, 1); !errors.Is(err, pool.ErrNilContext) {
					t.Fatalf("WaitBacklog(nil) = %v, want ErrNilContext", err)
				}
			})
		})
	}
}

// TestWaitBacklogFuncPool: API-40, for FuncPool: a queued argument with
// every worker busy wakes it.
func TestWaitBacklogFuncPool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hold := make(chan struct{})
		p, err := pool.NewFunc(1, func(int) { <-hold })
		if err != nil {
			t.Fatal(err)
		}
		defer func() { close(hold); p.Close() }()
		got := make(chan int, 1)
		go func() { n, _ := p.WaitBacklog(bg, 1); got <- n }()
		if err := p.Invoke(bg, 1); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if len(got) != 0 {
			t.Fatal("WaitBacklog returned with the one argument started")
		}
		if err := p.Invoke(bg, 2); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		select {
		case n := <-got:
			if n != 1 {
				t.Fatalf("WaitBacklog = %d, want 1", n)
			}
		default:
			t.Fatal("a queued argument with the worker busy did not wake WaitBacklog")
		}
	})
}
