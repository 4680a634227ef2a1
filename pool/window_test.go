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

// The tests in this file drive, through the public API only, the protocol
// windows where an engine breaks: a worker between two tasks, a spinner
// that finds work or gives up, a Reopen between a close and its wait. Each
// repeats its scenario, because the window is hit only when the goroutines
// meet in it; under the poolkit_hooks build tag the engine yields at every
// protocol step and the windows are hit far more often (hooks_test.go).

// windowTries is how many times each scenario is repeated. A bound, not a
// wait: every try of a correct pool ends in microseconds.
func windowTries(short, long int) int {
	if testing.Short() {
		return short
	}
	return long
}

// failBound is how long a try may take before the pool is declared stuck.
// Only a pool with a lost wake-up or a hang ever reaches it.
const failBound = 5 * time.Second

// within runs f on its own goroutine and reports whether it returned within
// failBound.
func within(f func()) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	t := time.NewTimer(failBound)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// TestShrinkBetweenTasks: capacity 2; A runs and holds; B runs and returns,
// leaving its worker between tasks (looking for more work, still holding
// its slot); Resize(1) returns; then C is submitted. C must not start
// while A runs: after the shrink, A alone fills the capacity.
func TestShrinkBetweenTasks(t *testing.T) {
	for try := range windowTries(200, 2000) {
		p, err := pool.New(2)
		if err != nil {
			t.Fatal(err)
		}
		var aRunning atomic.Bool
		aRunning.Store(true)
		releaseA := make(chan struct{})
		bDone := make(chan struct{})
		cStarted := make(chan bool, 1)
		mustSubmit(t, p, func() {
			<-releaseA
			aRunning.Store(false)
		})
		mustSubmit(t, p, func() { close(bDone) })
		<-bDone
		if err := p.Resize(1); err != nil {
			t.Fatal(err)
		}
		mustSubmit(t, p, func() { cStarted <- aRunning.Load() })
		// Give a misbehaving worker the chance to start C beside A.
		for range 64 {
			if len(cStarted) > 0 {
				break
			}
			runtime.Gosched()
		}
		close(releaseA)
		var sawA bool
		if !within(func() { sawA = <-cStarted }) {
			t.Fatalf("try %d: C never started after A returned", try)
		}
		if sawA {
			p.Close()
			t.Fatalf("try %d: C started while A ran, after Resize(1) returned", try)
		}
		if err := shutdownWithin(p, failBound); err != nil {
			t.Fatalf("try %d: Shutdown = %v", try, err)
		}
	}
}

// TestNoTaskWaitsBesideAFreeSlot: capacity 2; a short task runs and ends;
// then X and Y are submitted back to back, and X waits for Y. With a slot
// free, Y must start; a lost wake-up leaves it queued for good, with
// Running()=1, Waiting()=1, Free()=1.
func TestNoTaskWaitsBesideAFreeSlot(t *testing.T) {
	for try := range windowTries(200, 2000) {
		p, err := pool.New(2)
		if err != nil {
			t.Fatal(err)
		}
		first := make(chan struct{})
		mustSubmit(t, p, func() { close(first) })
		<-first
		xDone := submitXWaitingForY(t, p)
		mustFinish(t, p, xDone, fmt.Sprintf("try %d: Y never started", try))
		if err := shutdownWithin(p, failBound); err != nil {
			t.Fatalf("try %d: Shutdown = %v", try, err)
		}
	}
}

// TestShutdownNowRacingReopen: an abandoning close and a Reopen at the same
// time both return, whichever wins.
func TestShutdownNowRacingReopen(t *testing.T) {
	for try := range windowTries(500, 3000) {
		p, err := pool.New(2)
		if err != nil {
			t.Fatal(err)
		}
		if try%2 == 1 {
			mustSubmit(t, p, func() {})
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			pool.Reopen(p)
		}()
		if !within(func() { p.ShutdownNow() }) {
			t.Fatalf("try %d: ShutdownNow racing Reopen did not return (IsClosed()=%v)", try, p.Stats().Closed)
		}
		<-done
		p.Close()
		if err := shutdownWithin(p, failBound); err != nil {
			t.Fatalf("try %d: Shutdown = %v", try, err)
		}
	}
}

// TestShutdownRacingReopen: a bounded close racing a Reopen waits for
// the life it closed, which has no task: it returns nil at once, never
// ErrTimeout.
func TestShutdownRacingReopen(t *testing.T) {
	for try := range windowTries(500, 3000) {
		p, err := pool.New(2)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			pool.Reopen(p)
		}()
		err = shutdownWithin(p, failBound)
		<-done
		if err != nil {
			t.Fatalf("try %d: Shutdown racing Reopen on an idle pool = %v (Running()=%d)", try, err, p.Stats().Running)
		}
		if err := shutdownWithin(p, failBound); err != nil {
			t.Fatalf("try %d: final Shutdown = %v", try, err)
		}
	}
}

// TestReopenFromTask: a task that releases its own pool and reboots it
// cannot wait for itself. Reopen returns at once, and the pool reopens as
// soon as the task has returned.
func TestReopenFromTask(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2)
		returned := make(chan struct{})
		mustSubmit(t, p, func() {
			p.Close()
			pool.Reopen(p)
			close(returned)
		})
		<-returned
		synctest.Wait()
		if p.Stats().Closed {
			t.Fatal("IsClosed() = true once the task that called Reopen has returned")
		}
		ran := make(chan struct{})
		mustSubmit(t, p, func() { close(ran) })
		<-ran
	})
}

// TestReopenThenCloseFromTask: a Close after a Reopen that has not yet
// taken effect wins: the pool stays closed.
func TestReopenThenCloseFromTask(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2)
		mustSubmit(t, p, func() {
			p.Close()
			pool.Reopen(p)
			p.Close()
		})
		synctest.Wait()
		if !p.Stats().Closed {
			t.Fatal("IsClosed() = false after Close, Reopen, Close from a task")
		}
	})
}

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

// submitXWaitingForY submits X, which holds until Y has run, then Y, back
// to back; the returned channel is closed when X ends.
func submitXWaitingForY(t testing.TB, p *pool.Pool) <-chan struct{} {
	t.Helper()
	yRan := make(chan struct{})
	xDone := make(chan struct{})
	mustSubmit(t, p, func() {
		<-yRan
		close(xDone)
	})
	mustSubmit(t, p, func() { close(yRan) })
	return xDone
}

// mustFinish waits for done, or fails the test with the pool's gauges once
// failBound has passed; it then grows the pool by one, so that a task
// stuck beside a free slot can run and the pool can close.
func mustFinish(t testing.TB, p *pool.Pool, done <-chan struct{}, what string) {
	t.Helper()
	if within(func() { <-done }) {
		return
	}
	running, waiting, free := p.Stats().Running, p.Stats().Waiting, free(p)
	steps := recentSteps()
	stacks := make([]byte, 1<<16)
	stacks = stacks[:runtime.Stack(stacks, true)]
	_ = p.Resize(p.Cap() + 1)
	t.Fatalf("%s: Running()=%d Waiting()=%d Free()=%d\n%s\ngoroutines:\n%s", what, running, waiting, free, steps, stacks)
}

func mustSubmit(t testing.TB, p *pool.Pool, task func()) {
	t.Helper()
	if err := p.Submit(bg, task); err != nil {
		t.Fatalf("Submit = %v", err)
	}
}

// TestReopenWaitsThenOpens: a Reopen that has to wait for a running task
// returns with the pool open: the end of the old life reopens the pool
// before it lets the waiting Reopen go.
func TestReopenWaitsThenOpens(t *testing.T) {
	for range windowTries(20, 200) {
		synctest.Test(t, func(t *testing.T) {
			p := mustNew(t, 1)
			hold := make(chan struct{})
			mustSubmit(t, p, func() { <-hold })
			p.Close()
			openAfter := make(chan bool, 1)
			go func() {
				pool.Reopen(p)
				// The gate first, read without the engine's lock (as ants'
				// IsClosed reads it): Stats and Submit's slow path would
				// wait for the critical section that reopens.
				openAfter <- !pool.GateClosed(p) && !p.Stats().Closed && p.Submit(bg, func() {}) == nil
			}()
			synctest.Wait()
			close(hold)
			if !<-openAfter {
				t.Fatal("Reopen returned with the pool still closed")
			}
		})
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

// TestReopenQueueWorks: a rebooted pool queues again.
func TestReopenQueueWorks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithMaxWaiting(0))
		p.Close()
		pool.Reopen(p)
		hold := make(chan struct{})
		defer close(hold)
		mustSubmit(t, p, func() { <-hold })
		if err := p.Submit(bg, func() {}); err != nil {
			t.Errorf("Submit to a rebooted pool with its one worker busy = %v, want it queued", err)
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
