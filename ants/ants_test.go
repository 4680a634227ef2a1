//go:build go1.25

package ants_test

import (
	"context"
	"errors"
	"math"
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
		if err := p.ReleaseTimeout(10 * time.Second); err != nil && err != ants.ErrPoolClosed {
			t.Errorf("ReleaseTimeout: %v", err)
		}
	})
	return p
}

// TestUnlimitedPools checks ants' sizes: below 1, and above
// math.MaxInt32 (math.MaxInt is -1 to ants), a pool of every type is
// unlimited: Cap and Free are -1, no submission ever waits, and Tune
// leaves it unlimited; Resize, which ants lacks, gives it a capacity. A
// multi-pool of unlimited sub-pools sums their -1s, as ants does.
func TestUnlimitedPools(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, size := range []int{0, -1, math.MaxInt} {
			p, err := ants.NewPool(size)
			if err != nil {
				t.Fatalf("NewPool(%d): %v", size, err)
			}
			if p.Cap() != -1 || p.Free() != -1 {
				t.Errorf("NewPool(%d): Cap %d, Free %d; want -1, -1", size, p.Cap(), p.Free())
			}
			hold := make(chan struct{})
			const tasks = 200
			for i := range tasks {
				if err := p.Submit(func() { <-hold }); err != nil {
					t.Fatalf("NewPool(%d): Submit %d: %v", size, i, err)
				}
			}
			synctest.Wait()
			if p.Running() != tasks || p.Waiting() != 0 {
				t.Errorf("NewPool(%d): Running %d, Waiting %d with %d tasks submitted; want %d, 0", size, p.Running(), p.Waiting(), tasks, tasks)
			}
			p.Tune(5)
			if p.Cap() != -1 {
				t.Errorf("NewPool(%d): Cap %d after Tune(5), want -1: ants' Tune ignores an unlimited pool", size, p.Cap())
			}
			close(hold)
			synctest.Wait()
			err = p.Resize(3)
			synctest.Wait() // the idle workers above 3 exit
			if err != nil || p.Cap() != 3 || p.Running() != 3 || p.Free() != 0 {
				t.Errorf("NewPool(%d): Resize(3) = %v, Cap %d, Running %d, Free %d; want nil, 3, 3, 0", size, err, p.Cap(), p.Running(), p.Free())
			}
			if err := p.ReleaseTimeout(time.Second); err != nil {
				t.Fatal(err)
			}
		}
		fp, err := ants.NewPoolWithFunc(-1, func(any) {})
		if err != nil || fp.Cap() != -1 {
			t.Errorf("NewPoolWithFunc(-1): %v, Cap %d; want an unlimited pool", err, fp.Cap())
		} else {
			fp.Release()
		}
		gp, err := ants.NewPoolWithFuncGeneric(0, func(int) {})
		if err != nil || gp.Cap() != -1 {
			t.Errorf("NewPoolWithFuncGeneric(0): %v, Cap %d; want an unlimited pool", err, gp.Cap())
		} else {
			gp.Release()
		}
		mp, err := ants.NewMultiPool(10, -1, ants.RoundRobin)
		if err != nil || mp.Cap() != -10 || mp.Free() != -10 {
			t.Fatalf("NewMultiPool(10, -1): %v, Cap %d, Free %d; want unlimited sub-pools, -10, -10", err, mp.Cap(), mp.Free())
		}
		hold := make(chan struct{})
		for i := range 100 {
			if err := mp.Submit(func() { <-hold }); err != nil {
				t.Fatalf("multi-pool Submit %d: %v", i, err)
			}
		}
		synctest.Wait()
		if mp.Running() != 100 {
			t.Errorf("multi-pool Running %d with 100 tasks, want 100", mp.Running())
		}
		close(hold)
		if err := mp.ReleaseTimeout(time.Second); err != nil {
			t.Fatal(err)
		}
	})
}

// TestConstructorErrors checks what ants refuses and what it accepts: a
// pre-allocated pool needs a size; a negative expiry is an error unless
// purging is off; a negative MaxBlockingTasks refuses every submitter that
// would wait, as ants' check does.
func TestConstructorErrors(t *testing.T) {
	for _, size := range []int{0, -1} {
		if _, err := ants.NewPool(size, ants.WithPreAlloc(true)); err != ants.ErrInvalidPreAllocSize {
			t.Errorf("NewPool(%d, PreAlloc): %v, want ErrInvalidPreAllocSize", size, err)
		}
	}
	if _, err := ants.NewPool(1, ants.WithExpiryDuration(-1)); !errors.Is(err, ants.ErrInvalidPoolExpiry) {
		t.Errorf("negative expiry: %v, want ErrInvalidPoolExpiry", err)
	}
	p, err := ants.NewPool(1, ants.WithDisablePurge(true), ants.WithExpiryDuration(-1))
	if err != nil {
		t.Fatalf("DisablePurge with a negative expiry: %v", err)
	}
	p.Release()
	synctest.Test(t, func(t *testing.T) {
		q, err := ants.NewPool(1, ants.WithMaxBlockingTasks(-1))
		if err != nil {
			t.Fatalf("negative MaxBlockingTasks: %v", err)
		}
		hold := make(chan struct{})
		_ = q.Submit(func() { <-hold })
		if err := q.Submit(func() {}); err != ants.ErrPoolOverload {
			t.Errorf("Submit to a busy pool with MaxBlockingTasks -1: %v, want ErrPoolOverload", err)
		}
		close(hold)
		if err := q.ReleaseTimeout(time.Second); err != nil {
			t.Fatal(err)
		}
	})
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
		synctest.Wait()
		if started[1].Load() || started[2].Load() {
			t.Error("a task refused with ErrPoolClosed ran")
		}
		if s := q.Stats(); s.Completed != 2 || s.Rejected != 2 {
			t.Errorf("completed %d, rejected %d; want 2, 2", s.Completed, s.Rejected)
		}
	})
}

// TestRunningCountsWorkers checks that Running counts live workers, idle
// ones included, as ants does: with purging off they count for ever, and
// Free stays 0; with an expiry they count until they expire.
func TestRunningCountsWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, purge := range []bool{false, true} {
			opts := []ants.Option{ants.WithDisablePurge(!purge)}
			if purge {
				opts = append(opts, ants.WithExpiryDuration(time.Second))
			}
			p, _ := ants.NewPool(4, opts...)
			hold := make(chan struct{})
			for range 4 {
				_ = p.Submit(func() { <-hold })
			}
			if p.Running() != 4 || p.Free() != 0 {
				t.Errorf("purge %v: Running %d, Free %d with 4 tasks running; want 4, 0", purge, p.Running(), p.Free())
			}
			close(hold)
			synctest.Wait()
			if p.Running() != 4 || p.Free() != 0 || p.Stats().Running != 0 {
				t.Errorf("purge %v: Running %d, Free %d, tasks running %d with the workers idle; want 4, 0, 0", purge, p.Running(), p.Free(), p.Stats().Running)
			}
			time.Sleep(3 * time.Second)
			synctest.Wait()
			want := 4
			if purge {
				want = 0
			}
			if p.Running() != want || p.Free() != 4-want {
				t.Errorf("purge %v: Running %d, Free %d after 3s idle; want %d, %d", purge, p.Running(), p.Free(), want, 4-want)
			}
			if err := p.ReleaseTimeout(time.Second); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestRepeatedRelease checks releases as ants answers them: a release
// waits for the tasks or times out; any release of a released pool,
// Release's included, returns ErrPoolClosed at once; ReleaseContext(nil)
// releases and returns nil.
func TestRepeatedRelease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := ants.NewPool(1)
		var done atomic.Bool
		_ = p.Submit(func() { time.Sleep(time.Second); done.Store(true) })
		if err := p.ReleaseTimeout(time.Millisecond); err != ants.ErrTimeout {
			t.Errorf("ReleaseTimeout before the task ends: %v, want ErrTimeout", err)
		}
		if err := p.ReleaseTimeout(2 * time.Second); err != ants.ErrPoolClosed || done.Load() {
			t.Errorf("second ReleaseTimeout: %v (task done: %v), want ErrPoolClosed at once", err, done.Load())
		}
		if err := p.ReleaseContext(context.Background()); err != ants.ErrPoolClosed {
			t.Errorf("ReleaseContext after ReleaseTimeout: %v, want ErrPoolClosed", err)
		}

		q, _ := ants.NewPool(1)
		q.Release()
		if err := q.ReleaseTimeout(time.Second); err != ants.ErrPoolClosed {
			t.Errorf("ReleaseTimeout after Release: %v, want ErrPoolClosed", err)
		}
		r, _ := ants.NewPool(1)
		//lint:ignore SA1012 the nil context is the input under test
		if err := r.ReleaseContext(nil); err != nil || !r.IsClosed() {
			t.Errorf("ReleaseContext(nil): %v, closed %v; want nil, closed", err, r.IsClosed())
		}
		time.Sleep(time.Second)
	})
}

// TestTuneAsAnts checks that Tune ignores what ants' Tune ignores (a pool
// built WithPreAlloc, a size below 1), while Resize resizes a
// pre-allocated pool.
func TestTuneAsAnts(t *testing.T) {
	p, _ := ants.NewPool(4, ants.WithPreAlloc(true))
	p.Tune(2)
	if p.Cap() != 4 {
		t.Errorf("Cap %d after Tune(2) on a pre-allocated pool of 4, want 4", p.Cap())
	}
	p.Tune(-3)
	if err := p.Resize(2); err != nil || p.Cap() != 2 {
		t.Errorf("Resize(2) on a pre-allocated pool: %v, Cap %d; want nil, 2", err, p.Cap())
	}
	q, _ := ants.NewPool(4)
	q.Tune(math.MaxInt)
	if q.Cap() != resize.MaxSize {
		t.Errorf("Cap %d after Tune(math.MaxInt), want %d", q.Cap(), resize.MaxSize)
	}
	p.Release()
	q.Release()
}

// TestTuneAfterRelease checks that Tune on a released pool sets the
// capacity it reopens with, as in ants, while Resize reports the close and
// changes nothing.
func TestTuneAfterRelease(t *testing.T) {
	p, _ := ants.NewPool(2)
	p.Release()
	if err := p.Resize(5); !errors.Is(err, ants.ErrPoolClosed) || p.Cap() != 2 {
		t.Errorf("Resize on a released pool: %v, Cap %d; want ErrPoolClosed, 2", err, p.Cap())
	}
	p.Tune(5)
	if p.Cap() != 5 {
		t.Errorf("Cap %d after Tune(5) on a released pool, want 5, as ants reports", p.Cap())
	}
	p.Reboot()
	if p.Cap() != 5 || p.IsClosed() {
		t.Errorf("after Reboot: Cap %d, closed %v; want 5, open", p.Cap(), p.IsClosed())
	}
	p.Tune(0)
	if err := p.Resize(0); !errors.Is(err, ants.ErrInvalidPoolSize) || p.Cap() != 5 {
		t.Errorf("Resize(0): %v, Cap %d; want ErrInvalidPoolSize, 5", err, p.Cap())
	}
	p.Release()
}

// TestShrinkGate checks that a shrink holds for the next task even with
// idle workers at hand, which ants lets run above the new capacity.
func TestShrinkGate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := ants.NewPool(3, ants.WithNonblocking(true))
		for range 3 { // three idle workers at hand
			_ = p.Submit(func() { time.Sleep(time.Millisecond) })
		}
		time.Sleep(2 * time.Millisecond)
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
	if ants.ErrPoolClosed != pool.ErrClosed || ants.ErrPoolOverload != pool.ErrOverload ||
		!errors.Is(ants.ErrPoolClosed, resize.ErrClosed) {
		t.Error("an ants error is not poolkit's")
	}
}
