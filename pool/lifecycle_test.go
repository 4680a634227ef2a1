//go:build go1.25

package pool_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// TestSubmitBlocksWhenSaturated: with every worker busy and the queue full,
// Submit blocks, is counted in Waiting, and returns nil once a finishing
// task makes room; the task then runs.
func TestSubmitBlocksWhenSaturated(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(1))
		tr := newTracker()
		gate := make(chan struct{})
		for i := range 2 {
			if err := p.Submit(bg, tr.task(i, gate)); err != nil {
				t.Fatal(err)
			}
		}
		res := make(chan error, 1)
		go func() { res <- p.Submit(bg, tr.task(2, nil)) }()
		synctest.Wait()
		select {
		case err := <-res:
			t.Fatalf("Submit on a saturated pool returned %v, want it to block", err)
		default:
		}
		checkGauges(t, p, 1, 1, 2)
		close(gate)
		synctest.Wait()
		if err := <-res; err != nil {
			t.Fatalf("blocked Submit = %v, want nil", err)
		}
		if tr.total() != 3 {
			t.Errorf("%d tasks ran, want 3", tr.total())
		}
	})
}

// TestMaxWaitingZeroOverload: a non-blocking saturated pool returns
// ErrOverload at once, and the task never runs.
func TestMaxWaitingZeroOverload(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(1), pool.WithMaxWaiting(0))
		tr := newTracker()
		gate := make(chan struct{})
		for i := range 2 {
			if err := p.Submit(bg, tr.task(i, gate)); err != nil {
				t.Fatal(err)
			}
		}
		for i := 2; i < 5; i++ {
			if err := p.Submit(bg, tr.task(i, nil)); !errors.Is(err, pool.ErrOverload) {
				t.Errorf("Submit on saturated non-blocking pool = %v, want ErrOverload", err)
			}
		}
		close(gate)
		synctest.Wait()
		if tr.total() != 2 {
			t.Errorf("%d tasks ran, want 2", tr.total())
		}
		if s := p.Stats(); s.Rejected != 3 || s.Submitted != 2 {
			t.Errorf("Rejected %d, Submitted %d; want 3, 2", s.Rejected, s.Submitted)
		}
	})
}

// TestMaxWaiting: past WithMaxWaiting blocked callers, Submit
// returns ErrOverload instead of blocking.
func TestMaxWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(0), pool.WithMaxWaiting(2))
		gate := make(chan struct{})
		if err := p.Submit(bg, func() { <-gate }); err != nil {
			t.Fatal(err)
		}
		res := make(chan error, 2)
		for range 2 {
			go func() { res <- p.Submit(bg, func() {}) }()
		}
		synctest.Wait()
		if err := p.Submit(bg, func() {}); !errors.Is(err, pool.ErrOverload) {
			t.Errorf("Submit past the blocking limit = %v, want ErrOverload", err)
		}
		close(gate)
		for range 2 {
			if err := <-res; err != nil {
				t.Errorf("blocked Submit = %v, want nil", err)
			}
		}
	})
}

// TestSubmitContextCancel: a submitter blocked on a saturated pool returns
// ctx.Err() when its context ends, and its task never runs; a context that
// is already done is rejected even when there is room.
func TestSubmitContextCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(0))
		tr := newTracker()
		gate := make(chan struct{})
		if err := p.Submit(bg, tr.task(0, gate)); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		start := time.Now()
		err := p.Submit(ctx, tr.task(1, nil))
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Submit = %v, want context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d != 2*time.Second {
			t.Errorf("Submit returned after %v, want 2s", d)
		}
		close(gate)
		synctest.Wait()
		done, cancel2 := context.WithCancel(context.Background())
		cancel2()
		if err := p.Submit(done, tr.task(2, nil)); !errors.Is(err, context.Canceled) {
			t.Errorf("Submit(done ctx) = %v, want context.Canceled", err)
		}
		synctest.Wait()
		if tr.ran(1) != 0 || tr.ran(2) != 0 {
			t.Error("a task whose Submit failed ran")
		}
		checkGauges(t, p, 1, 0, 0)
	})
}

// TestCloseWakesWaitingSubmitters: Close wakes blocked submitters with
// ErrClosed; their tasks never run, accepted tasks still do.
func TestCloseWakesWaitingSubmitters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(1))
		tr := newTracker()
		gate := make(chan struct{})
		for i := range 2 {
			if err := p.Submit(bg, tr.task(i, gate)); err != nil {
				t.Fatal(err)
			}
		}
		res := make(chan error, 3)
		for i := range 3 {
			go func() { res <- p.Submit(bg, tr.task(10+i, nil)) }()
		}
		synctest.Wait()
		p.Close()
		for range 3 {
			if err := <-res; !errors.Is(err, pool.ErrClosed) {
				t.Errorf("blocked Submit after Close = %v, want ErrClosed", err)
			}
		}
		close(gate)
		if err := shutdownWithin(p, time.Second); err != nil {
			t.Fatal(err)
		}
		if tr.total() != 2 || tr.ran(0) != 1 || tr.ran(1) != 1 {
			t.Errorf("ran %v, want exactly the two accepted tasks once", tr.runs)
		}
	})
}

// TestCloseRunsQueued: accepted tasks that were queued at Close still
// run, and Shutdown after Close waits for them ("release now, wait
// later").
func TestCloseRunsQueued(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2)
		tr := newTracker()
		gate := make(chan struct{})
		for i := range 10 {
			if err := p.Submit(bg, tr.task(i, gate)); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		p.Close()
		if err := shutdownWithin(p, time.Second); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Shutdown with running tasks = %v, want context.DeadlineExceeded", err)
		}
		close(gate)
		if err := shutdownWithin(p, time.Second); err != nil {
			t.Errorf("Shutdown = %v, want nil", err)
		}
		if tr.total() != 10 || tr.peak.Load() > 2 {
			t.Errorf("ran %d (peak %d), want 10 (peak <= 2)", tr.total(), tr.peak.Load())
		}
		if s := p.Stats(); s.Workers != 0 || s.Completed != 10 || s.Submitted != 10 {
			t.Errorf("after Shutdown Stats = %+v", s)
		}
	})
}

// TestShutdownDeadline: Shutdown returns ErrTimeout after exactly the
// timeout when a task is stuck, and nil once everything has finished.
func TestShutdownDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1)
		gate := make(chan struct{})
		if err := p.Submit(bg, func() { <-gate }); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if err := shutdownWithin(p, 3*time.Second); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Shutdown = %v, want context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d != 3*time.Second {
			t.Errorf("Shutdown returned after %v, want 3s", d)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if err := p.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Shutdown = %v, want context.DeadlineExceeded", err)
		}
		close(gate)
		if err := p.Shutdown(context.Background()); err != nil {
			t.Errorf("Shutdown after the task finished = %v", err)
		}
	})
}

// TestShutdownNow: the tasks that have not started are handed back, oldest
// first; running ones finish; after ShutdownNow returns no task starts.
func TestShutdownNow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, err := pool.NewFunc(2, func(ch chan struct{}) {
			if ch != nil {
				<-ch
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		gate := make(chan struct{})
		queued := make([]chan struct{}, 5)
		for range 2 {
			if err := p.Invoke(bg, gate); err != nil {
				t.Fatal(err)
			}
		}
		for i := range queued {
			queued[i] = make(chan struct{})
			if err := p.Invoke(bg, queued[i]); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		back := p.ShutdownNow()
		if len(back) != len(queued) {
			t.Fatalf("ShutdownNow returned %d tasks, want %d", len(back), len(queued))
		}
		for i := range back {
			if back[i] != queued[i] {
				t.Errorf("ShutdownNow()[%d] is not the %dth queued argument", i, i)
			}
		}
		close(gate)
		if err := shutdownWithin(p, time.Second); err != nil {
			t.Fatal(err)
		}
		if s := p.Stats(); s.Completed != 2 || s.Returned != 5 || s.Submitted != 7 {
			t.Errorf("Stats = %+v, want 2 completed, 5 returned of 7", s)
		}
	})
}

// TestCloseIdempotentAndFromTask: Close and Shutdown may be
// called many times, from many goroutines and from inside a task, without
// deadlock.
func TestCloseIdempotentAndFromTask(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2)
		inTask := make(chan error, 1)
		if err := p.Submit(bg, func() {
			p.Close()
			p.Close()
			inTask <- shutdownWithin(p, time.Second)
		}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				p.Close()
				_ = shutdownWithin(p, time.Minute)
			})
		}
		if err := <-inTask; !errors.Is(err, pool.ErrInsideTask) {
			t.Errorf("Shutdown from inside a task = %v, want ErrInsideTask", err)
		}
		wg.Wait()
		if err := shutdownWithin(p, time.Second); err != nil {
			t.Errorf("Shutdown = %v", err)
		}
	})
}

// TestIdleExpiry: idle workers exit after the expiry duration, not before;
// WithIdleTimeout(0) keeps them; WithMinWorkers keeps that many.
func TestIdleExpiry(t *testing.T) {
	cases := []struct {
		name string
		opts []pool.Option
		want int
	}{
		{"default", []pool.Option{pool.WithIdleTimeout(5 * time.Second)}, 0},
		{"purge disabled", []pool.Option{pool.WithIdleTimeout(0)}, 4},
		{"min workers", []pool.Option{pool.WithIdleTimeout(5 * time.Second), pool.WithMinWorkers(1)}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := mustNew(t, 4, c.opts...)
				idleWorkers(t, p, 4)
				time.Sleep(4 * time.Second)
				synctest.Wait()
				if s := p.Stats(); s.Workers != 4 {
					t.Errorf("after 4s idle: Workers %d, want 4", s.Workers)
				}
				time.Sleep(2 * time.Second)
				synctest.Wait()
				if s := p.Stats(); s.Workers != c.want {
					t.Errorf("after 6s idle: Workers %d, want %d", s.Workers, c.want)
				}
				// The pool still works after its workers expired.
				tr := newTracker()
				if err := p.Submit(bg, tr.task(0, nil)); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				if tr.total() != 1 {
					t.Error("task did not run after idle expiry")
				}
			})
		})
	}
}

// TestMinWorkersStartWorkers: WithMinWorkers starts its workers at New.
func TestMinWorkersStartWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 3, pool.WithMinWorkers(3))
		synctest.Wait()
		if s := p.Stats(); s.Workers != 3 || s.Idle != 3 || s.Running != 0 {
			t.Errorf("Stats = %+v, want 3 idle workers", s)
		}
	})
}

// TestExpiryCountsFromTheLastPark: a worker that is woken and parks again
// has its idle time counted from the later park, though the purger set its
// timer when the worker first parked.
func TestExpiryCountsFromTheLastPark(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithIdleTimeout(time.Second))
		run := func() {
			t.Helper()
			if err := p.Submit(bg, func() {}); err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
		}
		run() // the worker parks at 0s
		time.Sleep(600 * time.Millisecond)
		run() // and again at 0.6s
		time.Sleep(600 * time.Millisecond)
		synctest.Wait()
		if s := p.Stats(); s.Workers != 1 {
			t.Errorf("at 1.2s, idle 0.6s: Workers %d, want 1", s.Workers)
		}
		time.Sleep(401 * time.Millisecond)
		synctest.Wait()
		if s := p.Stats(); s.Workers != 0 {
			t.Errorf("at 1.601s, idle 1.001s: Workers %d, want 0", s.Workers)
		}
	})
}

// TestShutdownFromTask: Shutdown with a context that is
// never done, called from inside one of the pool's own tasks, cannot wait
// for that task: it releases the pool and returns ErrInsideTask at once,
// and the pool finishes closing once the task returns. From inside a task
// of another pool it waits, as any caller does, until the pool's tasks have
// returned; a pool with nothing left to finish returns nil.
func TestShutdownFromTask(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2)
		got := make(chan error, 1)
		mustSubmit(t, p, func() { got <- p.Shutdown(context.Background()) })
		synctest.Wait()
		select {
		case err := <-got:
			if !errors.Is(err, pool.ErrInsideTask) {
				t.Errorf("Shutdown from its own task = %v, want ErrInsideTask", err)
			}
		default:
			t.Fatal("Shutdown from inside its own task blocks")
		}
		if !p.Stats().Closed {
			t.Error("the pool is not released")
		}
		if err := p.Shutdown(context.Background()); err != nil {
			t.Errorf("Shutdown from outside once the task returned = %v", err)
		}

		other, q := mustNew(t, 1), mustNew(t, 1)
		release := make(chan struct{})
		mustSubmit(t, q, func() { <-release })
		mustSubmit(t, other, func() { got <- q.Shutdown(context.Background()) })
		synctest.Wait()
		if len(got) != 0 || !q.Stats().Closed {
			t.Errorf("Shutdown from another pool's task returned before q's task did (closed %v)", q.Stats().Closed)
		}
		close(release)
		synctest.Wait() // q's task returns, its worker exits: q's life ends
		if err := <-got; err != nil {
			t.Errorf("Shutdown from another pool's task, once q's task returned = %v, want nil", err)
		}
		mustSubmit(t, other, func() { got <- q.Shutdown(context.Background()) })
		synctest.Wait()
		if err := <-got; err != nil {
			t.Errorf("Shutdown from a task, on a pool with nothing left = %v, want nil", err)
		}
	})
}
