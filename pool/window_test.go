//go:build go1.25

package pool_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// The tests in this file drive, through the public API only, the engine's
// protocol windows as a pool's user meets them: a blocked submitter and a
// worker's take, a shrink beside idle workers or blocked submitters, a
// worker freed with submitters waiting. The engine's own tests of its
// windows, which repeat a scenario until the goroutines meet in it or hold
// it open with a breakpoint, are beside the engine (internal/engine).

// TestShutdownDoneContext: a timeout of zero or less does not wait: nil when
// the pool has nothing left to finish, ErrTimeout while a task runs.
func TestShutdownDoneContext(t *testing.T) {
	for try := range 200 {
		var opts []pool.Option
		if try%2 == 0 {
			opts = append(opts, pool.WithMinWorkers(2)) // the workers exist already
		}
		p, err := pool.New(2, opts...)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []time.Duration{0, -time.Second} {
			if err := shutdownWithin(p, d); err != nil {
				t.Fatalf("try %d: Shutdown(%v) on an idle pool = %v, want nil", try, d, err)
			}
		}
	}
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1)
		hold := make(chan struct{})
		mustSubmit(t, p, func() { <-hold })
		if err := shutdownWithin(p, 0); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Shutdown(0) while a task runs = %v, want context.DeadlineExceeded", err)
		}
		close(hold)
	})
}

func mustSubmit(t testing.TB, p *pool.Pool, task func()) {
	t.Helper()
	if err := p.Submit(bg, task); err != nil {
		t.Fatalf("Submit = %v", err)
	}
}

// TestBlockedSubmitterAdmittedOnTake: capacity 1, queue 1: A runs, B is
// queued, C blocks. When A ends and its worker takes B, the queue has room
// for C at once: C's Submit returns while B still runs.
func TestBlockedSubmitterAdmittedOnTake(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(1))
		releaseA, releaseB := make(chan struct{}), make(chan struct{})
		mustSubmit(t, p, func() { <-releaseA })
		mustSubmit(t, p, func() { <-releaseB })
		accepted := make(chan error, 1)
		go func() { accepted <- p.Submit(bg, func() {}) }()
		synctest.Wait()
		close(releaseA)
		synctest.Wait()
		select {
		case err := <-accepted:
			if err != nil {
				t.Errorf("blocked Submit = %v", err)
			}
		default:
			t.Error("with B running and the queue empty, C's Submit is still blocked")
		}
		close(releaseB)
	})
}

// TestShrinkRetiresIdleWorkers: a shrink lets idle workers above the new
// capacity go at once.
func TestShrinkRetiresIdleWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 4, pool.WithMinWorkers(4))
		synctest.Wait()
		if err := p.Resize(1); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if s := p.Stats(); s.Workers > 1 {
			t.Errorf("after Resize(1) of an idle pool: %d workers, want at most 1", s.Workers)
		}
	})
}

// TestShrinkThenWaiterTakesSlot: no queue, capacity 2; A and B run, C and
// D are blocked in Submit. After Resize(1), B returns: its worker, which
// would otherwise run C in the slot it holds (rule W5), must give the slot
// back instead, since A alone fills the new capacity; C starts when A
// returns, then D, one at a time.
func TestShrinkThenWaiterTakesSlot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2, pool.WithQueueSize(0))
		releaseA, releaseB := make(chan struct{}), make(chan struct{})
		var running, peak atomic.Int32
		track := func(hold chan struct{}) func() {
			return func() {
				n := running.Add(1)
				if n > peak.Load() {
					peak.Store(n)
				}
				if hold != nil {
					<-hold
				}
				running.Add(-1)
			}
		}
		mustSubmit(t, p, track(releaseA))
		mustSubmit(t, p, track(releaseB))
		releaseC := make(chan struct{})
		errs := make(chan error, 2)
		go func() { errs <- p.Submit(bg, track(releaseC)) }()
		synctest.Wait()
		go func() { errs <- p.Submit(bg, track(nil)) }()
		synctest.Wait()
		if err := p.Resize(1); err != nil {
			t.Fatal(err)
		}
		peak.Store(0) // from here on, a start beside A makes it 2
		close(releaseB)
		synctest.Wait()
		if got := p.Stats().Running; got != 1 || peak.Load() > 1 {
			t.Fatalf("after Resize(1) and B's return: Running %d, peak %d; want 1, 1 (C must wait for A)", got, peak.Load())
		}
		if len(errs) != 0 {
			t.Fatal("a blocked Submit returned while A filled the capacity")
		}
		close(releaseA)
		synctest.Wait()
		if err := <-errs; err != nil {
			t.Fatalf("C's Submit = %v", err)
		}
		close(releaseC)
		synctest.Wait()
		if err := <-errs; err != nil {
			t.Fatalf("D's Submit = %v", err)
		}
		if peak.Load() > 1 {
			t.Errorf("peak %d tasks at once after Resize(1)", peak.Load())
		}
	})
}

// TestWaiterRunsOnFreedWorker: no queue, capacity 1, submitters blocked
// behind a running task. Each task's worker runs the oldest blocked
// submitter's task itself when it returns (rule W5): every task runs on
// the one goroutine, in the order the submitters blocked. Handing the slot
// back for another worker to take would wake or start a goroutine per
// task.
func TestWaiterRunsOnFreedWorker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(0))
		release := make(chan struct{})
		var order []int
		var goroutines []string
		task := func(i int) func() {
			return func() {
				if i == 0 {
					<-release
				}
				order = append(order, i)
				goroutines = append(goroutines, goroutineID())
			}
		}
		mustSubmit(t, p, task(0))
		errs := make(chan error, 4)
		for i := 1; i <= 4; i++ {
			go func() { errs <- p.Submit(bg, task(i)) }()
			synctest.Wait()
		}
		close(release)
		synctest.Wait()
		for range 4 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if fmt.Sprint(order) != "[0 1 2 3 4]" {
			t.Errorf("tasks ran in the order %v, want the order their submitters blocked in", order)
		}
		for i, g := range goroutines {
			if g != goroutines[0] {
				t.Errorf("task %d ran on goroutine %s, task 0 on %s: the freed worker did not run the waiter's task", i, g, goroutines[0])
			}
		}
	})
}

// goroutineID returns the calling goroutine's number, from its stack
// trace's header ("goroutine 42 [running]:").
func goroutineID() string {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	f := strings.Fields(string(buf[:n]))
	if len(f) < 2 {
		return "?"
	}
	return f[1]
}
