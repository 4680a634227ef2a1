//go:build go1.25

package pool_test

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/poolkit/poolkit/pool"
)

// concurrency counts tasks running at once and keeps the highest count.
type concurrency struct {
	now, peak atomic.Int32
}

func (c *concurrency) enter() {
	n := c.now.Add(1)
	for {
		p := c.peak.Load()
		if n <= p || c.peak.CompareAndSwap(p, n) {
			return
		}
	}
}

func (c *concurrency) leave() { c.now.Add(-1) }

// order records the tasks' names as they start.
type order struct {
	mu    sync.Mutex
	names []string
}

func (o *order) add(name string) {
	o.mu.Lock()
	o.names = append(o.names, name)
	o.mu.Unlock()
}

// task returns a task that adds name.
func (o *order) task(name string) func() { return func() { o.add(name) } }

func (o *order) get() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.names)
}

// TestSubmitFromTaskOnFullPool: the only task of a pool of one, with a
// queue of one, submits two tasks with a blocking Submit. The second finds
// no room, and the room it waits for needs the slot its own submitter
// holds: instead of waiting for ever (what ants and pond do), it runs the
// queued task in that slot, then queues its own. Capacity holds
// throughout, and the tasks start in submission order.
func TestSubmitFromTaskOnFullPool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(1))
		var c concurrency
		var o order
		task := func(name string) func() {
			return func() { c.enter(); o.add(name); c.leave() }
		}
		errs := make(chan error, 2)
		mustSubmit(t, p, func() {
			c.enter()
			o.add("outer")
			c.leave() // the outer task waits in Submit; what it helps runs in its slot
			errs <- p.Submit(bg, task("a"))
			errs <- p.Submit(bg, task("b"))
			c.enter()
			c.leave()
		})
		for range 2 {
			if err := <-errs; err != nil {
				t.Errorf("Submit from inside the task = %v", err)
			}
		}
		synctest.Wait()
		if got, want := o.get(), []string{"outer", "a", "b"}; !slices.Equal(got, want) {
			t.Errorf("tasks started in order %v, want %v", got, want)
		}
		if c.peak.Load() > 1 {
			t.Errorf("%d tasks ran at once in a pool of one", c.peak.Load())
		}
	})
}

// TestSubmitFromTaskNoQueue: with no queue and no free slot, a task's own
// Submit, with nothing else waiting, runs the submitted task in the
// caller's slot before it returns.
func TestSubmitFromTaskNoQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(0))
		ran := false
		errc := make(chan error, 1)
		mustSubmit(t, p, func() { errc <- p.Submit(bg, func() { ran = true }) })
		if err := <-errc; err != nil || !ran {
			t.Errorf("Submit from the only task of a pool with no queue = %v, ran %v; want nil, true", err, ran)
		}
		synctest.Wait()
		if s := p.Stats(); s.Submitted != 2 || s.Completed != 2 {
			t.Errorf("Stats: submitted %d, completed %d; want 2, 2", s.Submitted, s.Completed)
		}
	})
}

// TestSubmitFromTaskCanceled: a task's Submit that finds no room
// still honours its context: canceled while it would wait, it returns
// ctx.Err() and its task never runs.
func TestSubmitFromTaskCanceled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(1))
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		errc := make(chan error, 1)
		mustSubmit(t, p, func() {
			_ = p.Submit(bg, func() {})
			errc <- p.Submit(ctx, func() { t.Error("a canceled submission ran") })
		})
		synctest.Wait()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Errorf("Submit with a canceled context from a task = %v, want context.Canceled", err)
		}
	})
}

// TestGroupWaitFromOnlyTask: the only running task of a pool of one starts
// a group and waits for it. The group's tasks are queued behind the
// waiting task, which runs them in its own slot.
func TestGroupWaitFromOnlyTask(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1)
		var c concurrency
		var ran atomic.Int32
		errc := make(chan error, 1)
		mustSubmit(t, p, func() {
			g, _ := p.Group(t.Context())
			for range 3 {
				g.Go(func() error { c.enter(); ran.Add(1); c.leave(); return nil })
			}
			errc <- g.Wait()
		})
		synctest.Wait()
		if err := <-errc; err != nil || ran.Load() != 3 {
			t.Errorf("Group.Wait in the only task = %v with %d of 3 tasks run", err, ran.Load())
		}
		if c.peak.Load() > 1 {
			t.Errorf("%d tasks ran at once in a pool of one", c.peak.Load())
		}
	})
}

// TestGroupGoFromTaskOnFullPool: a group started inside a pool's only
// task, on a pool with no queue, submits through the same help: every Go
// returns and Wait sees every task's outcome.
func TestGroupGoFromTaskOnFullPool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(0))
		errc := make(chan error, 1)
		boom := errors.New("boom")
		mustSubmit(t, p, func() {
			g, _ := p.Group(t.Context())
			g.Go(func() error { return nil })
			g.Go(func() error { return boom })
			errc <- g.Wait()
		})
		synctest.Wait()
		if err := <-errc; !errors.Is(err, boom) {
			t.Errorf("Group.Wait = %v, want %v", err, boom)
		}
	})
}

// TestFutureWaitFromOnlyTask: the only task of a pool of one waits for a
// future whose task is queued behind it, and gets its result.
func TestFutureWaitFromOnlyTask(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1)
		got := make(chan int, 1)
		mustSubmit(t, p, func() {
			f, err := pool.SubmitResult(t.Context(), p, func() (int, error) { return 42, nil })
			if err != nil {
				t.Error(err)
				return
			}
			v, err := f.Wait(t.Context())
			if err != nil {
				t.Error(err)
			}
			got <- v
		})
		synctest.Wait()
		if v := <-got; v != 42 {
			t.Errorf("Future.Wait in the only task = %d, want 42", v)
		}
	})
}

// TestHelpKeepsShrink: after a shrink leaves a slot above the capacity, a
// task that waits in a group does not run the group's tasks in it (rule
// S2); they start once a slot within the capacity is free.
func TestHelpKeepsShrink(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2)
		var c concurrency
		releaseA := make(chan struct{})
		mustSubmit(t, p, func() { c.enter(); <-releaseA; c.leave() })
		started := make(chan *pool.Group, 1)
		errc := make(chan error, 1)
		mustSubmit(t, p, func() {
			c.enter()
			g, _ := p.Group(t.Context())
			started <- g
			<-releaseA
			g.Go(func() error { c.enter(); c.leave(); return nil })
			c.leave()
			errc <- g.Wait()
		})
		synctest.Wait()
		<-started
		if err := p.Resize(1); err != nil {
			t.Fatal(err)
		}
		c.peak.Store(c.now.Load())
		close(releaseA)
		synctest.Wait()
		if err := <-errc; err != nil {
			t.Errorf("Group.Wait = %v", err)
		}
		if c.peak.Load() > 2 {
			t.Errorf("%d tasks ran at once", c.peak.Load())
		}
	})
}

// TestNilInputs: every nil input of the groups and futures is an error,
// never a panic.
func TestNilInputs(t *testing.T) {
	p := mustNew(t, 1)
	//lint:ignore SA1012 a nil context is the input under test
	g, gctx := p.Group(nil)
	g.Go(func() error { t.Error("a task of a group with a nil context ran"); return nil })
	if err := g.Wait(); !errors.Is(err, pool.ErrNilContext) {
		t.Errorf("Group(nil).Wait = %v, want ErrNilContext", err)
	}
	if gctx.Err() == nil {
		t.Error("the context of Group(nil) is not canceled")
	}
	if _, err := pool.SubmitResult(t.Context(), nil, func() (int, error) { return 0, nil }); err == nil {
		t.Error("SubmitResult on a nil pool = nil error")
	}
	var nilPool *pool.Pool
	ng, _ := nilPool.Group(t.Context())
	ng.Go(func() error { return nil })
	if err := ng.Wait(); err == nil {
		t.Error("Group.Go on a nil pool: Wait = nil")
	}
	f, err := pool.SubmitResult(t.Context(), p, func() (int, error) { return 1, nil })
	if err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1012 a nil context is the input under test
	if _, err := f.Wait(nil); !errors.Is(err, pool.ErrNilContext) {
		t.Errorf("Future.Wait(nil) = %v, want ErrNilContext", err)
	}
	fp, err := pool.NewFunc(1, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1012 a nil context is the input under test
	if err := fp.Invoke(nil, 1); !errors.Is(err, pool.ErrNilContext) {
		t.Errorf("Invoke(nil, 1) = %v, want ErrNilContext", err)
	}
	//lint:ignore SA1012 a nil context is the input under test
	if err := fp.Shutdown(nil); !errors.Is(err, pool.ErrNilContext) || !fp.Stats().Closed {
		t.Errorf("Shutdown(nil) = %v, closed %v; want ErrNilContext, and the pool closed", err, fp.Stats().Closed)
	}
	if s := fp.Stats(); s.Rejected != 0 {
		t.Errorf("a nil context counted as a refusal: Rejected %d", s.Rejected)
	}
}

// TestHelpedTaskPanicsOrExits: a task that a waiting task runs in its slot
// may panic or call runtime.Goexit like any task. A panic is the helped
// task's alone: the panic handler sees it and the waiting task goes on. A
// Goexit cannot be stopped and ends the goroutine the waiting task runs
// on, so the waiting task ends with it, as if it had called Goexit itself:
// both count as completed, nothing is lost, and the pool keeps its size.
func TestHelpedTaskPanicsOrExits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var handled atomic.Int32
		p := mustNew(t, 1, pool.WithPanicHandler(func(any) { handled.Add(1) }))
		errc := make(chan error, 1)
		mustSubmit(t, p, func() {
			g, _ := p.Group(t.Context())
			g.Go(func() error { panic("boom") })
			errc <- g.Wait()
		})
		synctest.Wait()
		var pe *pool.PanicError
		if err := <-errc; !errors.As(err, &pe) || handled.Load() != 1 {
			t.Errorf("Group.Wait after a helped task panicked = %v, handler called %d times; want a *PanicError, 1", err, handled.Load())
		}

		after := make(chan struct{})
		mustSubmit(t, p, func() {
			g, _ := p.Group(t.Context())
			g.Go(func() error { runtime.Goexit(); return nil })
			_ = g.Wait()
			t.Error("the waiting task went on after the task it helped with called Goexit")
		})
		synctest.Wait()
		mustSubmit(t, p, func() { close(after) })
		synctest.Wait()
		select {
		case <-after:
		default:
			t.Fatal("the pool ran nothing after a helped task called Goexit")
		}
		if s := p.Stats(); s.Completed != s.Submitted || s.Cap != 1 || s.Workers > 1 {
			t.Errorf("Stats after a helped Goexit: %+v; want every submitted task completed, one worker", s)
		}
	})
}
