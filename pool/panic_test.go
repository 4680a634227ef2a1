//go:build go1.25

package pool_test

import (
	"errors"
	"log/slog"
	"runtime"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// TestPanicKeepsCapacity: tasks that panic cost no capacity; every panic
// reaches the handler and is counted, and the pool keeps running tasks at
// full width afterwards.
func TestPanicKeepsCapacity(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var handled atomic.Int32
		p := mustNew(t, 2, pool.WithPanicHandler(func(v any) {
			if v != "boom" {
				t.Errorf("handler got %v, want boom", v)
			}
			handled.Add(1)
		}))
		for range 10 {
			if err := p.Submit(bg, func() { panic("boom") }); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		if handled.Load() != 10 {
			t.Errorf("handler called %d times, want 10", handled.Load())
		}
		assertFullWidth(t, p, 2)
		if s := p.Stats(); s.Panicked != 10 || s.Completed != 12 {
			t.Errorf("Panicked %d, Completed %d; want 10, 12", s.Panicked, s.Completed)
		}
	})
}

// TestGoexitKeepsCapacity: tasks that call runtime.Goexit cost no capacity
// and their workers are replaced.
func TestGoexitKeepsCapacity(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2)
		for range 10 {
			if err := p.Submit(bg, runtime.Goexit); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		assertFullWidth(t, p, 2)
		if s := p.Stats(); s.Completed != 12 || s.Panicked != 0 || s.Workers > 2 {
			t.Errorf("Stats = %+v, want 12 completed, no panics, at most 2 workers", s)
		}
	})
}

// assertFullWidth checks that n gated tasks can run at once.
func assertFullWidth(t *testing.T, p *pool.Pool, n int) {
	t.Helper()
	tr := newTracker()
	gate := make(chan struct{})
	for i := range n {
		if err := p.Submit(bg, tr.task(i, gate)); err != nil {
			t.Fatal(err)
		}
	}
	synctest.Wait()
	if tr.now.Load() != int64(n) || p.Stats().Running != n {
		t.Errorf("%d tasks running (Running() = %d), want %d", tr.now.Load(), p.Stats().Running, n)
	}
	close(gate)
	synctest.Wait()
}

// TestRunningDropsBeforePanicHandler checks that a task that panicked is
// no longer counted in Running when the panic handler runs (ants' order),
// and that the worker counts again once it runs its next task.
func TestRunningDropsBeforePanicHandler(t *testing.T) {
	for _, queue := range []int{0, defaultQueueSize} {
		var p *pool.Pool
		var inHandler, statsInHandler atomic.Int64
		handled := make(chan struct{})
		p, err := pool.New(1, pool.WithQueueSize(queue), pool.WithPanicHandler(func(any) {
			inHandler.Store(int64(p.Stats().Running))
			statsInHandler.Store(int64(p.Stats().Running))
			close(handled)
		}))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Submit(bg, func() { panic("boom") }); err != nil {
			t.Fatal(err)
		}
		<-handled
		if n, s := inHandler.Load(), statsInHandler.Load(); n != 0 || s != 0 {
			t.Errorf("queue %d: Running() = %d, Stats().Running = %d inside the panic handler, want 0", queue, n, s)
		}
		hold := make(chan struct{})
		started := make(chan struct{})
		if err := p.Submit(bg, func() { close(started); <-hold }); err != nil {
			t.Fatal(err)
		}
		<-started
		if n := p.Stats().Running; n != 1 {
			t.Errorf("queue %d: Running() = %d with the next task running, want 1", queue, n)
		}
		close(hold)
		if err := shutdownWithin(p, 5*time.Second); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReportedPanicsAreNotLogged: a panic that a Future (SubmitResult,
// Schedule) or a Group reports to its Wait is counted in Stats.Panicked
// but not logged, whether its task ran on a worker of its own or in the
// slot of a task waiting for it; a panic no one reports is still logged.
// A panic handler set with WithPanicHandler sees every panic.
func TestReportedPanicsAreNotLogged(t *testing.T) {
	// reported makes its pool run four tasks that panic, each reported to
	// its Wait: a SubmitResult, a Schedule, a Group's and a SubmitResult
	// that a task of the pool waits for, running it in its own slot.
	reported := func(t *testing.T, p *pool.Pool) {
		t.Helper()
		isPanic := func(what string, err error) {
			t.Helper()
			var pe *pool.PanicError
			if !errors.As(err, &pe) || pe.Value != what {
				t.Errorf("%s: Wait = %v, want a *PanicError of %q", what, err, what)
			}
		}
		f, err := pool.SubmitResult(bg, p, func() (int, error) { panic("future") })
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.Wait(bg)
		isPanic("future", err)

		s, err := pool.NewScheduler(p)
		if err != nil {
			t.Fatal(err)
		}
		sf, err := pool.Schedule(bg, s, 0, func() (int, error) { panic("scheduled") })
		if err != nil {
			t.Fatal(err)
		}
		_, err = sf.Wait(bg)
		isPanic("scheduled", err)

		g, _ := p.Group(bg)
		g.Go(func() error { panic("group") })
		isPanic("group", g.Wait())

		inside, err := pool.SubmitResult(bg, p, func() (error, error) {
			f, err := pool.SubmitResult(bg, p, func() (int, error) { panic("helped") })
			if err != nil {
				return nil, err
			}
			_, err = f.Wait(bg) // a pool of one: it runs f's task in this slot
			return err, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		helped, err := inside.Wait(bg)
		if err != nil {
			t.Fatal(err)
		}
		isPanic("helped", helped)
	}

	t.Run("default logging", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			var logged atomic.Int32
			p := mustNew(t, 1, pool.WithLogger(slog.New(countHandler{&logged})))
			reported(t, p)
			synctest.Wait()
			if n, s := logged.Load(), p.Stats(); n != 0 || s.Panicked != 4 {
				t.Errorf("after 4 reported panics: logged %d, Panicked %d; want 0, 4", n, s.Panicked)
			}
			if err := p.Submit(bg, func() { panic("unreported") }); err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
			if n, s := logged.Load(), p.Stats(); n != 1 || s.Panicked != 5 {
				t.Errorf("after a plain task's panic: logged %d, Panicked %d; want 1, 5", n, s.Panicked)
			}
		})
	})

	t.Run("panic handler", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			var logged, handled atomic.Int32
			p := mustNew(t, 1, pool.WithLogger(slog.New(countHandler{&logged})),
				pool.WithPanicHandler(func(any) { handled.Add(1) }))
			reported(t, p)
			if err := p.Submit(bg, func() { panic("unreported") }); err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
			if n, h, s := logged.Load(), handled.Load(), p.Stats(); n != 0 || h != 5 || s.Panicked != 5 {
				t.Errorf("logged %d, handled %d, Panicked %d; want 0, 5, 5", n, h, s.Panicked)
			}
		})
	})
}
