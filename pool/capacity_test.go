//go:build go1.25

package pool_test

import (
	"errors"
	"testing"
	"testing/synctest"

	"github.com/poolkit/poolkit/pool"
)

// idleWorkers runs n quick tasks side by side so that the pool ends up
// with n parked workers, the situation in which ants lets a shrink be
// ignored.
func idleWorkers(t *testing.T, p *pool.Pool, n int) {
	t.Helper()
	gate := make(chan struct{})
	for range n {
		if err := p.Submit(bg, func() { <-gate }); err != nil {
			t.Fatal(err)
		}
	}
	synctest.Wait()
	close(gate)
	synctest.Wait()
	if s := p.Stats(); s.Idle != n || s.Running != 0 {
		t.Fatalf("setup: Idle %d, Running %d; want %d, 0", s.Idle, s.Running, n)
	}
}

// TestShrinkWithIdleWorkers: after Resize(n) returns, no task starts while
// n or more run, even though idle workers are there to take it.
func TestShrinkWithIdleWorkers(t *testing.T) {
	for _, mode := range []struct {
		name string
		opts []pool.Option
	}{
		{"queued", nil},
		{"no queue, non-blocking", []pool.Option{pool.WithQueueSize(0), pool.WithMaxWaiting(0)}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := mustNew(t, 4, mode.opts...)
				idleWorkers(t, p, 4)
				if err := p.Resize(2); err != nil {
					t.Fatal(err)
				}
				tr := newTracker()
				gate := make(chan struct{})
				defer close(gate)
				accepted := 0
				for i := range 4 {
					err := p.Submit(bg, tr.task(i, gate))
					switch {
					case err == nil:
						accepted++
					case !errors.Is(err, pool.ErrOverload):
						t.Fatalf("Submit = %v", err)
					}
				}
				synctest.Wait()
				if tr.peak.Load() != 2 {
					t.Errorf("peak concurrency = %d after Resize(2), want 2", tr.peak.Load())
				}
				checkGauges(t, p, 2, 2, accepted-2)
			})
		})
	}
}

// TestShrinkDrains: a shrink interrupts no running task, returns at once,
// and the excess drains: the running count falls to the new capacity as
// tasks finish, and only then do queued tasks start.
func TestShrinkDrains(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 4)
		tr := newTracker()
		gates := make([]chan struct{}, 6)
		for i := range gates {
			gates[i] = make(chan struct{})
			if err := p.Submit(bg, tr.task(i, gates[i])); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		checkGauges(t, p, 4, 4, 2)
		if err := p.Resize(1); err != nil { // returns with 4 tasks still running
			t.Fatal(err)
		}
		synctest.Wait()
		checkGauges(t, p, 1, 4, 2) // nothing interrupted
		for i := range 3 {
			close(gates[i])
			synctest.Wait()
			checkGauges(t, p, 1, 3-i, 2) // running falls, queued tasks wait
		}
		if tr.ran(4) != 0 || tr.ran(5) != 0 {
			t.Error("a queued task started while the pool was over capacity")
		}
		close(gates[3])
		synctest.Wait()
		checkGauges(t, p, 1, 1, 1) // now one queued task may start
		close(gates[4])
		close(gates[5])
		synctest.Wait()
		checkGauges(t, p, 1, 0, 0)
		if tr.peak.Load() != 4 || tr.total() != 6 {
			t.Errorf("peak %d, total %d; want 4, 6", tr.peak.Load(), tr.total())
		}
	})
}

// TestGrowIsPrompt: after a grow, waiting work starts at once, without
// waiting for a running task to finish; blocked submitters are admitted.
func TestGrowIsPrompt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(2))
		tr := newTracker()
		gate := make(chan struct{})
		defer close(gate)
		for i := range 3 {
			if err := p.Submit(bg, tr.task(i, gate)); err != nil {
				t.Fatal(err)
			}
		}
		blocked := make(chan error)
		go func() { blocked <- p.Submit(bg, tr.task(3, gate)) }()
		synctest.Wait()
		checkGauges(t, p, 1, 1, 3) // 2 queued + 1 blocked submitter
		if err := p.Resize(4); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if err := <-blocked; err != nil {
			t.Fatalf("blocked Submit = %v after grow", err)
		}
		synctest.Wait()
		checkGauges(t, p, 4, 4, 0)
	})
}

// TestQueueSizeZero: with no queue a task is accepted only when a worker
// can start it at once (ants' behaviour), and the non-blocking pool sheds
// the rest with ErrOverload.
func TestQueueSizeZero(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2, pool.WithQueueSize(0), pool.WithMaxWaiting(0))
		tr := newTracker()
		gate := make(chan struct{})
		for i := range 2 {
			if err := p.Submit(bg, tr.task(i, gate)); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.Submit(bg, tr.task(9, gate)); !errors.Is(err, pool.ErrOverload) {
			t.Errorf("third Submit = %v, want ErrOverload", err)
		}
		synctest.Wait()
		checkGauges(t, p, 2, 2, 0)
		close(gate)
		synctest.Wait()
		if err := p.Submit(bg, tr.task(10, nil)); err != nil {
			t.Errorf("Submit after a worker freed = %v", err)
		}
		synctest.Wait()
		if tr.ran(9) != 0 || tr.total() != 3 {
			t.Errorf("rejected task ran %d times; total %d, want 0, 3", tr.ran(9), tr.total())
		}
	})
}

// TestQueueBounded: the default queue is bounded: a saturated non-blocking
// pool holds exactly DefaultQueueSize waiting tasks and sheds the rest.
func TestQueueBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2, pool.WithMaxWaiting(0))
		gate := make(chan struct{})
		defer close(gate)
		accepted, overload := 0, 0
		for range defaultQueueSize + 100 {
			switch err := p.Submit(bg, func() { <-gate }); {
			case err == nil:
				accepted++
			case errors.Is(err, pool.ErrOverload):
				overload++
			default:
				t.Fatal(err)
			}
			synctest.Wait() // let the first tasks start
		}
		if want := defaultQueueSize + 2; accepted != want {
			t.Errorf("accepted %d, want %d (capacity + queue)", accepted, want)
		}
		if overload != 98 {
			t.Errorf("overloaded %d, want 98", overload)
		}
		checkGauges(t, p, 2, 2, defaultQueueSize)
	})
}
