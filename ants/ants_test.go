package ants_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/ants"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
)

func mustPool(t *testing.T, size int, opts ...ants.Option) *ants.Pool {
	t.Helper()
	p, err := ants.NewPool(size, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.ReleaseTimeout(10 * time.Second); err != nil {
			t.Errorf("ReleaseTimeout: %v", err)
		}
	})
	return p
}

// TestSizeBelowOne checks that no constructor takes a size below 1 to mean
// an unlimited pool.
func TestSizeBelowOne(t *testing.T) {
	fn := func(any) {}
	for _, size := range []int{0, -1} {
		_, err := ants.NewPool(size)
		if !errors.Is(err, ants.ErrInvalidPoolSize) || !errors.Is(err, resize.ErrInvalidSize) {
			t.Errorf("NewPool(%d): %v, want ErrInvalidPoolSize", size, err)
		}
		_, err = ants.NewPoolWithFunc(size, fn)
		if !errors.Is(err, ants.ErrInvalidPoolSize) {
			t.Errorf("NewPoolWithFunc(%d): %v, want ErrInvalidPoolSize", size, err)
		}
		_, err = ants.NewPoolWithFuncGeneric(size, func(int) {})
		if !errors.Is(err, ants.ErrInvalidPoolSize) {
			t.Errorf("NewPoolWithFuncGeneric(%d): %v, want ErrInvalidPoolSize", size, err)
		}
		_, err = ants.NewMultiPool(2, size, ants.RoundRobin)
		if !errors.Is(err, ants.ErrInvalidPoolSize) {
			t.Errorf("NewMultiPool(2, %d): %v, want ErrInvalidPoolSize", size, err)
		}
	}
	// Every invalid input is reported, ants' errors included.
	for _, size := range []int{0, -1} {
		_, err := ants.NewPool(size, ants.WithPreAlloc(true), ants.WithExpiryDuration(-1))
		for _, want := range []error{ants.ErrInvalidPoolSize, ants.ErrInvalidPreAllocSize, ants.ErrInvalidPoolExpiry} {
			if !errors.Is(err, want) {
				t.Errorf("NewPool(%d, PreAlloc, expiry -1): %v, want it to match %v", size, err, want)
			}
		}
	}
	if _, err := ants.NewPool(1, ants.WithMaxBlockingTasks(-1)); !errors.Is(err, ants.ErrInvalidOption) {
		t.Errorf("negative MaxBlockingTasks: %v, want ErrInvalidOption", err)
	}
	// A negative expiry is ignored when purging is off, as in ants.
	p, err := ants.NewPool(1, ants.WithDisablePurge(true), ants.WithExpiryDuration(-1))
	if err != nil {
		t.Fatalf("DisablePurge with a negative expiry: %v", err)
	}
	p.Release()
}

// TestNilTaskAndNilArgument checks Submit(nil) and PoolWithFunc's nil
// argument, which ants takes as its worker's signal to exit.
func TestNilTaskAndNilArgument(t *testing.T) {
	p := mustPool(t, 1)
	if err := p.Submit(nil); err != ants.ErrNilTask {
		t.Errorf("Submit(nil): %v, want ErrNilTask", err)
	}
	var got atomic.Int32
	done := make(chan struct{}, 3)
	fp, err := ants.NewPoolWithFunc(1, func(a any) {
		if a == nil {
			got.Add(1)
		}
		done <- struct{}{}
	})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := fp.Invoke(nil); err != nil {
			t.Fatalf("Invoke(nil): %v", err)
		}
	}
	for range 3 {
		<-done
	}
	if got.Load() != 3 {
		t.Errorf("the function saw nil %d times, want 3", got.Load())
	}
	if err := fp.ReleaseTimeout(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if err := fp.Invoke(nil); err != ants.ErrPoolClosed {
		t.Errorf("Invoke(nil) after release: %v, want ErrPoolClosed", err)
	}
	p.Release()
	if err := p.Submit(nil); err != ants.ErrPoolClosed {
		t.Errorf("Submit(nil) after release: %v, want ErrPoolClosed, as ants returns", err)
	}
}

// TestAdmission checks admission: a non-blocking pool has no queue and
// refuses as soon as every worker is busy; with MaxBlockingTasks m, m tasks
// wait and the next is refused; a blocking pool lets tasks wait, and runs
// each once.
func TestAdmission(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		p, _ := ants.NewPool(2, ants.WithNonblocking(true))
		for range 2 {
			if err := p.Submit(func() { <-release }); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.Submit(func() {}); err != ants.ErrPoolOverload {
			t.Fatalf("third Submit to a busy pool of 2: %v, want ErrPoolOverload", err)
		}
		if p.Running() != 2 || p.Free() != 0 || p.Waiting() != 0 {
			t.Errorf("Running %d, Free %d, Waiting %d; want 2, 0, 0", p.Running(), p.Free(), p.Waiting())
		}

		b, _ := ants.NewPool(1, ants.WithMaxBlockingTasks(1))
		if err := b.Submit(func() { <-release }); err != nil {
			t.Fatal(err)
		}
		var ran atomic.Bool
		go func() {
			if err := b.Submit(func() { ran.Store(true) }); err != nil {
				t.Errorf("blocked Submit: %v", err)
			}
		}()
		synctest.Wait()
		if b.Waiting() != 1 {
			t.Errorf("Waiting %d with one task waiting, want 1", b.Waiting())
		}
		if err := b.Submit(func() {}); err != ants.ErrPoolOverload {
			t.Errorf("Submit past MaxBlockingTasks: %v, want ErrPoolOverload", err)
		}
		close(release)
		synctest.Wait() // the first task returns; the blocked submitter's task starts
		if err := b.ReleaseTimeout(time.Second); err != nil {
			t.Fatal(err)
		}
		if !ran.Load() {
			t.Error("the blocked submitter's task did not run")
		}
		if err := p.ReleaseTimeout(time.Second); err != nil {
			t.Fatal(err)
		}

		// A blocking pool admits as ants does: Submit waits while the
		// worker is busy, unaccepted, and Waiting counts the blocked
		// submitters; a finished task lets the oldest in; a release wakes
		// the others with ErrPoolClosed, and their tasks never run.
		q, _ := ants.NewPool(1)
		first, second := make(chan struct{}), make(chan struct{})
		_ = q.Submit(func() { <-first })
		var started [3]atomic.Bool
		var errs [3]chan error
		for i := range 3 {
			errs[i] = make(chan error, 1)
			go func() {
				errs[i] <- q.Submit(func() {
					started[i].Store(true)
					<-second
				})
			}()
			synctest.Wait() // they block in this order
		}
		if q.Running() != 1 || q.Waiting() != 3 {
			t.Errorf("Running %d, Waiting %d; want 1, 3", q.Running(), q.Waiting())
		}
		for i := range 3 {
			if len(errs[i]) != 0 {
				t.Errorf("blocked Submit %d returned while the worker was busy", i)
			}
		}
		close(first)
		synctest.Wait()
		if err := <-errs[0]; err != nil || !started[0].Load() {
			t.Errorf("oldest blocked Submit: %v, ran %v; want nil, true", err, started[0].Load())
		}
		if q.Waiting() != 2 {
			t.Errorf("Waiting %d after one admission, want 2", q.Waiting())
		}
		q.Release()
		for i := 1; i < 3; i++ {
			if err := <-errs[i]; err != ants.ErrPoolClosed {
				t.Errorf("Submit %d blocked at the release: %v, want ErrPoolClosed", i, err)
			}
		}
		close(second)
		if err := q.ReleaseTimeout(time.Second); err != nil {
			t.Fatal(err)
		}
		if started[1].Load() || started[2].Load() {
			t.Error("a task refused with ErrPoolClosed ran")
		}
		if s := q.Stats(); s.Completed != 2 || s.Rejected != 2 {
			t.Errorf("completed %d, rejected %d; want 2, 2", s.Completed, s.Rejected)
		}
	})
}

// TestRunningCountsTasks checks that Running counts running tasks, not the
// idle workers that ants counts.
func TestRunningCountsTasks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := ants.NewPool(4, ants.WithDisablePurge(true))
		hold := make(chan struct{})
		for range 4 {
			_ = p.Submit(func() { <-hold })
		}
		if p.Running() != 4 || p.Free() != 0 {
			t.Errorf("Running %d, Free %d with 4 tasks running; want 4, 0", p.Running(), p.Free())
		}
		close(hold)
		synctest.Wait()
		if p.Running() != 0 || p.Free() != 4 || p.Stats().Workers != 4 {
			t.Errorf("Running %d, Free %d, workers %d after the tasks; want 0, 4, 4", p.Running(), p.Free(), p.Stats().Workers)
		}
		if err := p.ReleaseTimeout(time.Second); err != nil {
			t.Fatal(err)
		}
	})
}

// TestReleaseNowWaitLater checks that a second ReleaseTimeout waits for the
// tasks, where ants returns ErrPoolClosed at once, and that ReleaseContext
// refuses a nil context but releases the pool.
func TestReleaseNowWaitLater(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := ants.NewPool(1)
		var done atomic.Bool
		_ = p.Submit(func() { time.Sleep(time.Second); done.Store(true) })
		p.Release()
		if err := p.ReleaseTimeout(time.Millisecond); err != ants.ErrTimeout {
			t.Errorf("ReleaseTimeout before the task ends: %v, want ErrTimeout", err)
		}
		if err := p.ReleaseTimeout(2 * time.Second); err != nil || !done.Load() {
			t.Errorf("ReleaseTimeout after Release: %v (task done: %v), want nil after the task", err, done.Load())
		}

		q, _ := ants.NewPool(1)
		//lint:ignore SA1012 the nil context is the input under test
		if err := q.ReleaseContext(nil); err != ants.ErrNilContext || !q.IsClosed() {
			t.Errorf("ReleaseContext(nil): %v, closed %v; want ErrNilContext, closed", err, q.IsClosed())
		}
	})
}

// TestTuneAfterRelease checks that Tune on a released pool changes
// nothing, and that Resize says why.
func TestTuneAfterRelease(t *testing.T) {
	p, _ := ants.NewPool(2)
	p.Release()
	p.Tune(5)
	if p.Cap() != 2 {
		t.Errorf("Cap %d after Tune(5) on a released pool, want 2", p.Cap())
	}
	if err := p.Resize(5); !errors.Is(err, ants.ErrPoolClosed) {
		t.Errorf("Resize on a released pool: %v, want ErrPoolClosed", err)
	}
	p.Reboot()
	if p.Cap() != 2 || p.IsClosed() {
		t.Errorf("after Reboot: Cap %d, closed %v; want 2, open", p.Cap(), p.IsClosed())
	}
	p.Tune(0)
	if err := p.Resize(0); !errors.Is(err, ants.ErrInvalidPoolSize) || p.Cap() != 2 {
		t.Errorf("Resize(0): %v, Cap %d; want ErrInvalidPoolSize, 2", err, p.Cap())
	}
	p.Release()
}

// TestShrinkGate checks that a shrink holds for the next task even with
// idle workers at hand, which ants lets run above the new capacity.
func TestShrinkGate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := ants.NewPool(3, ants.WithNonblocking(true), ants.WithPreAlloc(true))
		block := make(chan struct{})
		_ = p.Submit(func() { <-block })
		p.Tune(1)
		if err := p.Submit(func() {}); err != ants.ErrPoolOverload {
			t.Errorf("Submit with 1 running after Tune(1): %v, want ErrPoolOverload", err)
		}
		close(block)
		if err := p.ReleaseTimeout(time.Second); err != nil {
			t.Fatal(err)
		}
	})
}

// TestRebootFromTask checks that Reboot called from a task returns, and the
// pool reopens once the task has returned.
func TestRebootFromTask(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := ants.NewPool(1)
		returned := make(chan struct{})
		_ = p.Submit(func() {
			p.Release()
			p.Reboot()
			close(returned)
		})
		<-returned
		synctest.Wait()
		if p.IsClosed() {
			t.Fatal("the pool is still closed after the task that rebooted it returned")
		}
		if err := p.ReleaseTimeout(time.Second); err != nil {
			t.Fatal(err)
		}
	})
}

// TestDefaultPool checks the package-level functions on the default pool.
func TestDefaultPool(t *testing.T) {
	if ants.Cap() != ants.DefaultAntsPoolSize {
		t.Errorf("Cap %d, want DefaultAntsPoolSize", ants.Cap())
	}
	var wg sync.WaitGroup
	wg.Add(10)
	for range 10 {
		if err := ants.Submit(wg.Done); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	if err := ants.ReleaseTimeout(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if err := ants.Submit(func() {}); err != ants.ErrPoolClosed {
		t.Errorf("Submit after release: %v, want ErrPoolClosed", err)
	}
	ants.Reboot()
	wg.Add(1)
	if err := ants.Submit(wg.Done); err != nil {
		t.Fatalf("Submit after Reboot: %v", err)
	}
	wg.Wait()
	if err := ants.ReleaseContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	ants.Reboot()
	if ants.Running() != 0 || ants.Free() != ants.DefaultAntsPoolSize {
		t.Errorf("Running %d, Free %d after the tasks; want 0, DefaultAntsPoolSize", ants.Running(), ants.Free())
	}
	ants.Release()
	ants.Reboot()
}

// TestZeroValues checks that pools not built by their constructors refuse
// work instead of panicking.
func TestZeroValues(t *testing.T) {
	var p ants.Pool
	var f ants.PoolWithFunc
	var mp ants.MultiPool
	if p.Submit(func() {}) != ants.ErrPoolClosed || f.Invoke(1) != ants.ErrPoolClosed || mp.Submit(func() {}) != ants.ErrPoolClosed {
		t.Error("a zero-value pool accepted work")
	}
	if p.Cap() != 0 || !p.IsClosed() || mp.Cap() != 0 || !mp.IsClosed() || mp.Resize(2) == nil {
		t.Error("a zero-value pool reports a capacity or accepts a resize")
	}
	p.Tune(3)
	p.Release()
	p.Reboot()
	_ = mp.ReleaseTimeout(0)
}

// TestPoolErrorsArePoolkits checks that the errors that mean the same are
// the same values.
func TestPoolErrorsArePoolkits(t *testing.T) {
	if ants.ErrPoolClosed != pool.ErrPoolClosed || ants.ErrPoolOverload != pool.ErrPoolOverload ||
		ants.ErrTimeout != pool.ErrTimeout || !errors.Is(ants.ErrPoolClosed, resize.ErrClosed) {
		t.Error("an ants error is not poolkit's")
	}
}
