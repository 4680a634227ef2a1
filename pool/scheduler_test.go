//go:build go1.25

package pool_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/internal/testkit"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
)

// mustScheduler builds a Scheduler on p or fails the test.
func mustScheduler(t testing.TB, p *pool.Pool, opts ...pool.SchedulerOption) *pool.Scheduler {
	t.Helper()
	s, err := pool.NewScheduler(p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// blocked fills every slot of p with a task that holds until the returned
// function is called.
func blocked(t testing.TB, p *pool.Pool) (release func()) {
	t.Helper()
	gate := make(chan struct{})
	started := make(chan struct{}, p.Cap())
	for range p.Cap() {
		if err := p.Submit(bg, func() { started <- struct{}{}; <-gate }); err != nil {
			t.Fatal(err)
		}
	}
	for range p.Cap() {
		<-started
	}
	var once sync.Once
	release = func() { once.Do(func() { close(gate) }) }
	t.Cleanup(release)
	return release
}

// TestSchedulerClassOrder: PRI-1. Higher classes start first; within a
// class, tasks start in the order they were accepted.
func TestSchedulerClassOrder(t *testing.T) {
	p := mustNew(t, 1)
	s := mustScheduler(t, p)
	release := blocked(t, p)
	var log order
	for _, x := range []struct {
		c    pool.Class
		name string
	}{{0, "L1"}, {2, "H1"}, {0, "L2"}, {1, "M1"}, {2, "H2"}, {7, "T1"}, {1, "M2"}} {
		if err := s.Submit(bg, x.c, log.task(x.name)); err != nil {
			t.Fatal(err)
		}
	}
	release()
	if err := shutdownWithin(p, testkit.FailBound); err != nil {
		t.Fatal(err)
	}
	want := []string{"T1", "H1", "H2", "M1", "M2", "L1", "L2"}
	if got := log.get(); !slices.Equal(got, want) {
		t.Errorf("start order %v, want %v", got, want)
	}
}

// TestSchedulerShare: PRI-2. A class with tasks waiting is owed one start
// after seven starts of higher classes, so a steady stream of urgent work
// never starves it.
func TestSchedulerShare(t *testing.T) {
	p := mustNew(t, 1)
	s := mustScheduler(t, p)
	release := blocked(t, p)
	var log order
	for i := range 3 {
		if err := s.Submit(bg, 0, log.task(fmt.Sprint("L", i))); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 20 {
		if err := s.Submit(bg, 1, log.task(fmt.Sprint("H", i))); err != nil {
			t.Fatal(err)
		}
	}
	release()
	if err := shutdownWithin(p, testkit.FailBound); err != nil {
		t.Fatal(err)
	}
	got := log.get()
	var lows []int
	for i, name := range got {
		if name[0] == 'L' {
			lows = append(lows, i)
		}
	}
	// Seven highs, a low, seven highs, a low, six highs, the last low.
	if want := []int{7, 15, 22}; !slices.Equal(lows, want) {
		t.Errorf("the low class started at positions %v of %v, want %v", lows, got, want)
	}
}

// TestSchedulerContextExpires: PRI-3. A task whose context ends while it
// waits never starts; its Future reports ctx.Err() at once, not when a
// worker gets to it; Stats counts it as expired, and the counts still add
// up.
func TestSchedulerContextExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1)
		s := mustScheduler(t, p)
		release := blocked(t, p)
		ctx, cancel := context.WithCancel(bg)
		f, err := pool.Schedule(ctx, s, 1, func() (int, error) { t.Error("a task whose context ended ran"); return 0, nil })
		if err != nil {
			t.Fatal(err)
		}
		deadlined, cancel2 := context.WithTimeout(bg, 5*time.Millisecond)
		defer cancel2()
		g, err := pool.Schedule(deadlined, s, 0, func() (int, error) { t.Error("a task past its deadline ran"); return 0, nil })
		if err != nil {
			t.Fatal(err)
		}
		ok, err := pool.Schedule(bg, s, 0, func() (int, error) { return 7, nil })
		if err != nil {
			t.Fatal(err)
		}
		cancel()
		synctest.Wait()
		select {
		case <-f.Done():
		default:
			t.Fatal("the Future of a task whose context was cancelled is not done while the pool is still busy")
		}
		if _, err := f.Wait(bg); !errors.Is(err, context.Canceled) {
			t.Errorf("Future of a cancelled task: %v, want context.Canceled", err)
		}
		time.Sleep(5 * time.Millisecond)
		synctest.Wait()
		if _, err := g.Wait(bg); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Future of a task past its context's deadline: %v, want context.DeadlineExceeded", err)
		}
		if st := p.Stats(); st.Expired != 2 {
			t.Errorf("Stats.Expired = %d, want 2", st.Expired)
		}
		release()
		if v, err := ok.Wait(bg); v != 7 || err != nil {
			t.Errorf("the task that did not expire gave %v, %v", v, err)
		}
		if err := p.Shutdown(bg); err != nil {
			t.Fatal(err)
		}
		st := p.Stats()
		if st.Submitted != st.Completed+st.Returned || st.Waiting != 0 {
			t.Errorf("stats do not add up after shutdown: %+v", st)
		}
	})
}

// TestSchedulerMaxWait: PRI-4. A task that waits longer than WithMaxWait
// never starts; its Future reports ErrExpired, which matches
// context.DeadlineExceeded, when the wait ends, not when a worker gets to
// it.
func TestSchedulerMaxWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1)
		s := mustScheduler(t, p, pool.WithMaxWait(10*time.Millisecond))
		release := blocked(t, p)
		var runs atomic.Int32
		f, err := pool.Schedule(bg, s, 1, func() (int, error) { runs.Add(1); return 0, nil })
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
		g, err := pool.Schedule(bg, s, 0, func() (int, error) { runs.Add(1); return 0, nil })
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(5*time.Millisecond - time.Nanosecond)
		synctest.Wait()
		select {
		case <-f.Done():
			t.Fatal("a task expired before its max wait")
		default:
		}
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		if _, err := f.Wait(bg); !errors.Is(err, pool.ErrExpired) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Future of a task past its max wait: %v, want ErrExpired matching context.DeadlineExceeded", err)
		}
		select {
		case <-g.Done():
			t.Fatal("the younger task expired with the older")
		default:
		}
		time.Sleep(5 * time.Millisecond)
		synctest.Wait()
		if _, err := g.Wait(bg); !errors.Is(err, pool.ErrExpired) {
			t.Errorf("Future of the second task: %v, want ErrExpired", err)
		}
		release()
		if err := p.Shutdown(bg); err != nil {
			t.Fatal(err)
		}
		if n := runs.Load(); n != 0 {
			t.Errorf("%d expired tasks ran", n)
		}
		if st := p.Stats(); st.Expired != 2 || st.Submitted != st.Completed {
			t.Errorf("Stats after two expiries: %+v", st)
		}
	})
}

// TestSchedulerMaxWaitAtStart: PRI-4. A worker that comes free at the
// very moment a task's wait ends does not start it, whether or not the
// scheduler's timer has expired it yet.
func TestSchedulerMaxWaitAtStart(t *testing.T) {
	for range 20 {
		synctest.Test(t, func(t *testing.T) {
			p := mustNew(t, 1)
			s := mustScheduler(t, p, pool.WithMaxWait(10*time.Millisecond))
			started := make(chan struct{})
			if err := p.Submit(bg, func() { close(started); time.Sleep(10 * time.Millisecond) }); err != nil {
				t.Fatal(err)
			}
			<-started
			f, err := pool.Schedule(bg, s, 0, func() (int, error) { return 1, nil })
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Wait(bg); !errors.Is(err, pool.ErrExpired) {
				t.Fatalf("a task whose wait ended as a worker came free: %v, want ErrExpired", err)
			}
			if err := p.Shutdown(bg); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestSchedulerShedsOnBreach: PRI-11. Under WithMaxWait, once a task of a
// class has expired for its wait while others still wait, arrivals of that
// class and lower ones are refused with ErrShed for one max wait, and
// higher classes are not; a class is admitted again once that has passed.
func TestSchedulerShedsOnBreach(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1)
		s := mustScheduler(t, p, pool.WithMaxWait(10*time.Millisecond))
		release := blocked(t, p)
		submit := func(c pool.Class) error { return s.Submit(bg, c, func() {}) }
		if err := submit(0); err != nil { // expires at 10 ms
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
		if err := submit(0); err != nil { // still waiting at 10 ms: a standing queue
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
		synctest.Wait()
		if st := p.Stats(); st.Expired != 1 {
			t.Fatalf("Expired = %d at 10 ms, want 1", st.Expired)
		}
		if err := submit(0); !errors.Is(err, pool.ErrShed) {
			t.Errorf("class 0 while its wait objective is breached: %v, want ErrShed", err)
		}
		for range 2 { // the second with a class-1 task waiting
			if err := submit(1); err != nil {
				t.Errorf("class 1 while only class 0's objective is breached: %v", err)
			}
		}
		time.Sleep(5 * time.Millisecond) // the second class-0 task expires at 15 ms
		synctest.Wait()
		if err := submit(0); !errors.Is(err, pool.ErrShed) {
			t.Errorf("class 0 with class 1 waiting, 1 ms after a class-0 expiry: %v, want ErrShed", err)
		}
		time.Sleep(10 * time.Millisecond) // 25 ms: the class-1 tasks have expired too, at 20 ms
		synctest.Wait()
		if err := submit(1); err != nil {
			t.Errorf("class 1 within a max wait of its expiry, nothing waiting (the queue has drained): %v", err)
		}
		time.Sleep(11 * time.Millisecond) // no expiry for a max wait: admitted again
		synctest.Wait()
		if err := submit(0); err != nil {
			t.Errorf("class 0 a max wait after the last expiry: %v", err)
		}
		st := p.Stats()
		if st.RejectedOverload < 2 {
			t.Errorf("refusals on a breached objective not counted as overload: %+v", st)
		}
		release()
		if err := p.Shutdown(bg); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSchedulerSheds: PRI-5. When the pool is full, an arrival takes the
// place of the newest waiting task of the lowest class below its own,
// which is shed (its Future reports ErrShed); with no lower class waiting
// the arrival is refused with ErrShed, which matches ErrOverload. The
// scheduler never waits.
func TestSchedulerSheds(t *testing.T) {
	for _, tc := range []struct {
		name string
		pool []pool.Option
		own  []pool.SchedulerOption
	}{
		{"pool queue full", []pool.Option{pool.WithQueueSize(2)}, nil},
		{"scheduler queue full", nil, []pool.SchedulerOption{pool.WithQueueSize(2)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustNew(t, 1, tc.pool...)
			s := mustScheduler(t, p, tc.own...)
			release := blocked(t, p)
			var log order
			schedule := func(c pool.Class, name string) (*pool.Future[int], error) {
				return pool.Schedule(bg, s, c, func() (int, error) { log.task(name)(); return 0, nil })
			}
			a, _ := schedule(0, "A")
			b, _ := schedule(0, "B")
			c, err := schedule(1, "C")
			if err != nil {
				t.Fatalf("a class-1 task on a full pool with class 0 waiting: %v", err)
			}
			if _, err := b.Wait(bg); !errors.Is(err, pool.ErrShed) || !errors.Is(err, pool.ErrOverload) || !errors.Is(err, resize.ErrOverload) {
				t.Errorf("the newest class-0 task: %v, want ErrShed matching ErrOverload", err)
			}
			if _, err := schedule(1, "D"); err != nil {
				t.Fatal(err)
			}
			if _, err := a.Wait(bg); !errors.Is(err, pool.ErrShed) {
				t.Errorf("the older class-0 task: %v, want ErrShed", err)
			}
			if _, err := schedule(1, "E"); !errors.Is(err, pool.ErrShed) {
				t.Errorf("a class-1 task with only class 1 waiting: %v, want ErrShed", err)
			}
			if err := s.Submit(bg, 0, func() { t.Error("a refused task ran") }); !errors.Is(err, pool.ErrShed) {
				t.Errorf("a class-0 task on a full pool: %v, want ErrShed", err)
			}
			st := p.Stats()
			if st.Shed != 2 || st.RejectedOverload != 2 {
				t.Errorf("Shed %d, RejectedOverload %d; want 2 and 2", st.Shed, st.RejectedOverload)
			}
			release()
			if _, err := c.Wait(bg); err != nil {
				t.Error(err)
			}
			if err := shutdownWithin(p, testkit.FailBound); err != nil {
				t.Fatal(err)
			}
			if got := log.get(); !slices.Equal(got, []string{"C", "D"}) {
				t.Errorf("ran %v, want [C D]", got)
			}
			if st := p.Stats(); st.Submitted != st.Completed {
				t.Errorf("stats do not add up: %+v", st)
			}
		})
	}
}

// TestSchedulerFromInsideTask: PRI-6. Submit and Schedule never wait, from
// inside a task of the pool too, and a Future.Wait there runs the waiting
// tasks in its own slot.
func TestSchedulerFromInsideTask(t *testing.T) {
	p := mustNew(t, 1, pool.WithQueueSize(1))
	s := mustScheduler(t, p)
	done := make(chan error, 1)
	if err := p.Submit(bg, func() {
		if err := s.Submit(bg, 0, func() {}); err != nil {
			done <- err
			return
		}
		if err := s.Submit(bg, 0, func() {}); !errors.Is(err, pool.ErrShed) {
			done <- fmt.Errorf("a second task on a full pool from inside a task: %v, want ErrShed", err)
			return
		}
		f, err := pool.Schedule(bg, s, 1, func() (int, error) { return 1, nil })
		if err != nil {
			done <- err
			return
		}
		_, err = f.Wait(bg)
		done <- err
	}); err != nil {
		t.Fatal(err)
	}
	if !testkit.Within(func() {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}) {
		t.Fatal("a task waiting on a scheduled Future of its own pool hung")
	}
	if err := shutdownWithin(p, testkit.FailBound); err != nil {
		t.Fatal(err)
	}
}

// TestSchedulerLifecycle: PRI-7. After Close the accepted tasks still run
// and Submit returns ErrClosed; ShutdownNow stops the expiries and
// it hands back the waiting tasks, most urgent first, and nothing else.
func TestSchedulerLifecycle(t *testing.T) {
	t.Run("Close", func(t *testing.T) {
		p := mustNew(t, 1)
		s := mustScheduler(t, p)
		release := blocked(t, p)
		var log order
		for i := range 3 {
			if err := s.Submit(bg, pool.Class(i), log.task(fmt.Sprint(i))); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithCancel(bg)
		if err := s.Submit(ctx, 0, log.task("gone")); err != nil {
			t.Fatal(err)
		}
		cancel() // its ticket stays in the pool's queue, with no task
		for p.Stats().Expired == 0 {
			runtime.Gosched()
		}
		p.Close()
		if err := s.Submit(bg, 7, func() {}); !errors.Is(err, pool.ErrClosed) {
			t.Errorf("Submit after Close, a ticket with no task left in the queue: %v, want ErrClosed", err)
		}
		release()
		if err := shutdownWithin(p, testkit.FailBound); err != nil {
			t.Fatal(err)
		}
		if got := log.get(); !slices.Equal(got, []string{"2", "1", "0"}) {
			t.Errorf("ran %v after Close, want [2 1 0]", got)
		}
	})
	t.Run("ShutdownNow", func(t *testing.T) {
		p := mustNew(t, 1)
		s := mustScheduler(t, p)
		release := blocked(t, p)
		var log order
		ctx, cancel := context.WithCancel(bg)
		if err := s.Submit(ctx, 1, log.task("gone")); err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if err := s.Submit(bg, pool.Class(i), log.task(fmt.Sprint(i))); err != nil {
				t.Fatal(err)
			}
		}
		cancel()
		for p.Stats().Expired == 0 {
			runtime.Gosched()
		}
		back := p.ShutdownNow()
		release()
		if err := shutdownWithin(p, testkit.FailBound); err != nil {
			t.Fatal(err)
		}
		if got := log.get(); len(got) != 0 {
			t.Fatalf("tasks ran after ShutdownNow before their functions were called: %v", got)
		}
		if len(back) != 3 {
			t.Fatalf("ShutdownNow handed back %d functions for 3 waiting tasks", len(back))
		}
		for _, f := range back {
			f()
		}
		if got := log.get(); !slices.Equal(got, []string{"2", "1", "0"}) {
			t.Errorf("the handed-back functions ran %v, want [2 1 0]", got)
		}
		if st := p.Stats(); st.Returned != 3 || st.Submitted != st.Completed+st.Returned {
			t.Errorf("stats after ShutdownNow: %+v", st)
		}
	})
}

// TestSchedulerPanics: PRI-8. A scheduled task that panics or calls
// runtime.Goexit ends as a plain task does; its Future reports it, and the
// scheduler's next tasks still run.
func TestSchedulerPanics(t *testing.T) {
	var handled atomic.Int32
	p := mustNew(t, 1, pool.WithPanicHandler(func(any) { handled.Add(1) }))
	s := mustScheduler(t, p)
	release := blocked(t, p)
	pf, _ := pool.Schedule(bg, s, 1, func() (int, error) { panic("boom") })
	gf, _ := pool.Schedule(bg, s, 1, func() (int, error) { runtimeGoexit(); return 0, nil })
	ok, _ := pool.Schedule(bg, s, 0, func() (int, error) { return 3, nil })
	release()
	var pe *pool.PanicError
	if _, err := pf.Wait(bg); !errors.As(err, &pe) || pe.Value != "boom" {
		t.Errorf("panicking task: %v, want a PanicError", err)
	}
	if _, err := gf.Wait(bg); !errors.Is(err, pool.ErrGoexit) {
		t.Errorf("task calling Goexit: %v, want ErrGoexit", err)
	}
	if v, err := ok.Wait(bg); v != 3 || err != nil {
		t.Errorf("the task after them: %v, %v", v, err)
	}
	if err := shutdownWithin(p, testkit.FailBound); err != nil {
		t.Fatal(err)
	}
	if handled.Load() != 1 {
		t.Errorf("the panic handler ran %d times, want 1", handled.Load())
	}
}

// TestSchedulerEdges: PRI-9. Nil and out-of-range inputs, done contexts
// and misplaced options are clear errors, and nothing is accepted.
func TestSchedulerEdges(t *testing.T) {
	p := mustNew(t, 1)
	s := mustScheduler(t, p)
	var nilS *pool.Scheduler
	done, cancel := context.WithCancel(bg)
	cancel()
	never := func() { t.Error("a refused task ran") }
	var nilCtx context.Context // the edge under test
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"nil scheduler", nilS.Submit(bg, 0, never), nil},
		{"nil task", s.Submit(bg, 0, nil), pool.ErrNilTask},
		{"nil ctx", s.Submit(nilCtx, 0, never), pool.ErrNilContext},
		{"class -1", s.Submit(bg, -1, never), pool.ErrInvalidClass},
		{"class 8", s.Submit(bg, 8, never), pool.ErrInvalidClass},
		{"done ctx", s.Submit(done, 0, never), context.Canceled},
		{"Schedule nil fn", scheduleErr(pool.Schedule[int](bg, s, 0, nil)), pool.ErrNilTask},
		{"Schedule nil scheduler", scheduleErr(pool.Schedule(bg, nilS, 0, func() (int, error) { return 0, nil })), nil},
		{"Schedule class 9", scheduleErr(pool.Schedule(bg, s, 9, func() (int, error) { return 0, nil })), pool.ErrInvalidClass},
		{"NewScheduler nil pool", newSchedErr(nil), pool.ErrInvalidOption},
		{"NewScheduler nil option", newSchedErr(p, nil), pool.ErrInvalidOption},
		{"NewScheduler queue 0", newSchedErr(p, pool.WithQueueSize(0)), pool.ErrInvalidOption},
		{"WithMaxWait negative", newSchedErr(p, pool.WithMaxWait(-1)), pool.ErrInvalidOption},
	} {
		switch {
		case tc.err == nil:
			t.Errorf("%s: no error", tc.name)
		case tc.want != nil && !errors.Is(tc.err, tc.want):
			t.Errorf("%s: %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	if err := shutdownWithin(p, testkit.FailBound); err != nil {
		t.Fatal(err)
	}
	if st := p.Stats(); st.Submitted != 0 {
		t.Errorf("refused submissions were accepted: %+v", st)
	}
}

func scheduleErr[T any](_ *pool.Future[T], err error) error { return err }

func newSchedErr(p *pool.Pool, opts ...pool.SchedulerOption) error {
	_, err := pool.NewScheduler(p, opts...)
	return err
}

// TestSchedulerExactlyOnce: PRI-10. Under concurrent submitters, cancels,
// max waits, shedding and resizes, every accepted task either runs once or
// ends without running, reported once; the reports and Stats agree.
func TestSchedulerExactlyOnce(t *testing.T) {
	p := mustNew(t, 2, pool.WithQueueSize(8), pool.WithPanicHandler(func(any) {}))
	s := mustScheduler(t, p, pool.WithMaxWait(2*time.Millisecond))
	ranN, endedN, refused := underContention(t, p, func(ctx context.Context, i int, fn func() (int, error)) (*pool.Future[int], error) {
		return pool.Schedule(ctx, s, pool.Class(i%3), fn)
	}, context.Canceled, context.DeadlineExceeded, pool.ErrShed)
	st := p.Stats()
	if st.Expired+st.Shed != endedN || st.Submitted != st.Completed || st.Submitted != ranN+endedN {
		t.Errorf("ran %d, ended %d; stats %+v", ranN, endedN, st)
	}
	if refused != st.Rejected {
		t.Errorf("%d refused, stats count %d", refused, st.Rejected)
	}
}
