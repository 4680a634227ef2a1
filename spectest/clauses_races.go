package spectest

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The clauses in this file check protocol windows: moments, a few
// instructions wide, where a pool's goroutines hand work or state to one
// another (a worker between two tasks, a submitter on its way to block, a
// close between closing and waiting) and where a step taken by another
// goroutine can be lost. testing/synctest cannot show them: inside a
// bubble the test only acts once every goroutine has come to rest, so the
// window is never open when it acts. They run on real goroutines instead,
// and repeat the scenario enough times that the goroutines meet in the
// window. A correct pool ends each try in microseconds; waits are bounded
// by hangBound, which only a pool that lost a wake-up or hangs reaches.

// hangBound is how long a try may wait for something that a correct pool
// does at once before the clause calls the pool stuck. It is a bound on
// failure, not a pause: nothing waits for it to pass.
const hangBound = 2 * time.Second

// How many times each window clause repeats its scenario. Each count keeps
// the clause under two seconds on a correct pool, with -race too, and is
// several times what the pools that have the bug needed to show it (see
// known_test.go; the engine of poolkit before these clauses showed each
// within the first few hundred tries).
const (
	shrinkTries   = 500
	growTries     = 1000
	wakeupTries   = 1000
	settleTries   = 600
	abandonTries  = 2000
	rebootTries   = 1000
	growArrivals  = 32 // submitters arriving while a grow happens
	misbehaveTurn = 64 // runtime.Gosched calls a pool gets to start C early
)

// closedWithin reports whether ch is closed (or receives) within d.
func closedWithin(d time.Duration, ch <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}

// await fails the clause if ch is not closed within hangBound.
func (c *Case) await(ch <-chan struct{}, format string, args ...any) {
	c.T.Helper()
	if !closedWithin(hangBound, ch) {
		c.T.Fatalf("%s: not within %v", fmt.Sprintf(format, args...), hangBound)
	}
}

// mustSubmit submits task and fails the clause if it is not accepted.
func (c *Case) mustSubmit(p Pool, task func()) {
	c.T.Helper()
	if err := submit(p, task); err != nil {
		c.T.Fatalf("Submit = %v", err)
	}
}

// closeBounded releases p, bounded by hangBound, and returns the outcome
// (a context error if the close hung).
func closeBounded(p Pool) error {
	ctx, cancel := contextWithTimeout(hangBound)
	defer cancel()
	return p.Shutdown(ctx)
}

// gaugesText describes p's gauges for a failure message, if it has them.
func gaugesText(p Pool) string {
	if g := asGauges(p); g != nil {
		return fmt.Sprintf(" (Running()=%d, Waiting()=%d)", g.Running(), g.Waiting())
	}
	return ""
}

// rotation hands a clause's tries their pool: the same one for triesPerPool
// tries in a row, then a new one. Reusing a pool keeps a try cheap (ants'
// MultiPool takes some 20 ms to close on two cores); building new ones
// keeps the early life of a pool in the sample.
type rotation struct {
	c    *Case
	size int
	p    Pool
}

// triesPerPool is how many tries a rotation's pool serves.
const triesPerPool = 25

// pool returns the pool for try, closing the previous one when it builds
// a new one.
func (r *rotation) pool(try int) Pool {
	r.c.T.Helper()
	if try%triesPerPool == 0 {
		r.close(try)
		p, err := r.c.newRaw(Config{Size: r.size})
		if err != nil {
			r.c.T.Fatal(err)
		}
		r.p = p
	}
	return r.p
}

// close closes the current pool, if any.
func (r *rotation) close(try int) {
	r.c.T.Helper()
	if r.p == nil {
		return
	}
	if err := closeBounded(r.p); err != nil {
		r.c.T.Fatalf("try %d: Shutdown = %v", try, err)
	}
	r.p = nil
}

// checkShrinkBetweenTasks is CAP-7. Capacity 2: A runs and holds; B runs
// and returns, so that B's worker is between tasks, possibly still looking
// for more work while holding B's place; Resize(1) returns while A runs;
// then C is submitted. A alone fills the new capacity, so C may start only
// once A has returned. C reads a flag that A clears just before it
// returns. Each try ends by growing the pool back to 2.
func checkShrinkBetweenTasks(c *Case) {
	pools := rotation{c: c, size: 2}
	for try := range shrinkTries {
		p := pools.pool(try)
		var aRunning atomic.Bool
		aRunning.Store(true)
		aStarted, releaseA, bDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
		cSaw := make(chan bool, 1) // whether A still ran when C started
		c.mustSubmit(p, func() {
			close(aStarted)
			<-releaseA
			aRunning.Store(false)
		})
		c.await(aStarted, "try %d: task A did not start", try)
		c.mustSubmit(p, func() { close(bDone) })
		c.await(bDone, "try %d: task B did not run beside A at capacity 2", try)
		if err := asResizer(p).Resize(1); err != nil {
			c.T.Fatalf("try %d: Resize(1) = %v", try, err)
		}
		// From a goroutine: a pool without a queue (tunny) blocks Submit
		// until C starts, which is after A returns.
		submitted := goSubmit(p, func() { cSaw <- aRunning.Load() })
		// Give a pool that breaks the bound the chance to start C beside A.
		for range misbehaveTurn {
			if len(cSaw) > 0 {
				break
			}
			runtime.Gosched()
		}
		close(releaseA)
		t := time.NewTimer(hangBound)
		select {
		case beside := <-cSaw:
			t.Stop()
			if beside {
				c.T.Fatalf("try %d: after Resize(1) returned, C started while A was still running", try)
			}
		case <-t.C:
			c.T.Fatalf("try %d: C did not start within %v of A returning%s", try, hangBound, gaugesText(p))
		}
		if err := <-submitted; err != nil {
			c.T.Fatalf("try %d: Submit(C) = %v", try, err)
		}
		if err := asResizer(p).Resize(2); err != nil {
			c.T.Fatalf("try %d: Resize(2) = %v", try, err)
		}
	}
	pools.close(shrinkTries)
}

// checkGrowWhileArriving is CAP-8. A pool of 1 runs a task that holds;
// growArrivals submitters are let go at once, each with a task that holds;
// while they arrive (from a different point in each try) the pool grows
// two slots at a time until it can take them all, and after each grow the
// tasks that fit must start. A grow wakes the waiting submitters; those
// that find no room go back to wait, and are on their way to wait when
// the next grow comes at once: a pool that loses a wake-up given in that
// moment leaves a slot free and a submitter waiting.
func checkGrowWhileArriving(c *Case) {
	const total = growArrivals + 1
	for try := range growTries {
		p, err := c.newRaw(Config{Size: 1})
		if err != nil {
			c.T.Fatal(err)
		}
		started := make(chan struct{}, total)
		hold := make(chan struct{})
		task := func() { started <- struct{}{}; <-hold }
		c.mustSubmit(p, task)
		c.await(started, "try %d: the first task did not start", try)
		var arrived atomic.Int32
		letGo := make(chan struct{})
		results := make([]chan error, growArrivals)
		for i := range results {
			results[i] = make(chan error, 1)
			go func() {
				<-letGo
				arrived.Add(1)
				results[i] <- submit(p, task)
			}()
		}
		close(letGo)
		// Start growing once `at` submitters have set out: early in some
		// tries, late in others.
		at := int32(try % growArrivals)
		for arrived.Load() < at {
			runtime.Gosched()
		}
		t := time.NewTimer(hangBound)
		running := 1
		for size := 3; size <= total; size += 2 {
			if err := asResizer(p).Resize(size); err != nil {
				c.T.Fatalf("try %d: Resize(%d) = %v", try, size, err)
			}
			for ; running < size; running++ {
				select {
				case <-started:
				case <-t.C:
					stuck := gaugesText(p)
					close(hold) // let the pool finish, so that it can close
					c.T.Fatalf("try %d: grown two at a time from 1 to %d while %d submitters arrived (the grows began after %d had set out): "+
						"%d tasks running %v after the grow to %d%s", try, total, growArrivals, at, running, hangBound, size, stuck)
				}
			}
		}
		t.Stop()
		close(hold)
		for i, res := range results {
			if err := <-res; err != nil {
				c.T.Fatalf("try %d: Submit #%d = %v", try, i, err)
			}
		}
		if err := closeBounded(p); err != nil {
			c.T.Fatalf("try %d: Shutdown = %v", try, err)
		}
	}
}

// checkNoLostWakeup is CAP-9. Capacity 2: a short task runs and returns
// (its worker is now between tasks); then X and Y are submitted back to
// back, and X holds until Y has run. With a slot free, Y must start, and
// so X must finish.
func checkNoLostWakeup(c *Case) {
	pools := rotation{c: c, size: 2}
	for try := range wakeupTries {
		p := pools.pool(try)
		first := make(chan struct{})
		c.mustSubmit(p, func() { close(first) })
		c.await(first, "try %d: the first task did not run", try)
		yRan, xDone, yDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
		var yOnce sync.Once
		letX := func() { yOnce.Do(func() { close(yRan) }) }
		errs := make(chan error, 2)
		// One goroutine submits both, back to back: a pool without a queue
		// (tunny) blocks each Submit until its task starts.
		go func() {
			errs <- submit(p, func() { <-yRan; close(xDone) })
			errs <- submit(p, func() { letX(); close(yDone) })
		}()
		if !closedWithin(hangBound, xDone) {
			stuck := gaugesText(p)
			letX() // X finishes and its worker can take Y, so that the pool closes
			c.T.Fatalf("try %d: Y did not start within %v beside X at capacity 2%s", try, hangBound, stuck)
		}
		c.await(yDone, "try %d: Y did not finish", try)
		for range 2 {
			if err := <-errs; err != nil {
				c.T.Fatalf("try %d: Submit = %v", try, err)
			}
		}
	}
	pools.close(wakeupTries)
}

// checkWaitingMeansFull is CAP-10. Capacity 2: a short task runs and
// returns; then a burst of 1 to 4 holding tasks is submitted, the first two
// back to back from one goroutine and the rest from goroutines of their
// own (they may block). The burst has settled when every slot is busy, or
// when nothing waits and every task of the burst runs; a pool with work
// waiting beside a free slot (Waiting() > 0 with Running() < Cap()) never
// gets there, and the clause fails once hangBound has passed. Each try
// lets its burst finish before the next begins.
func checkWaitingMeansFull(c *Case) {
	const size = 2
	pools := rotation{c: c, size: size}
	for try := range settleTries {
		p := pools.pool(try)
		g := asGauges(p)
		first := make(chan struct{})
		c.mustSubmit(p, func() { close(first) })
		c.await(first, "try %d: the first task did not run", try)
		n := 1 + try%4
		hold := make(chan struct{})
		finished := make(chan struct{}, n)
		task := func() { <-hold; finished <- struct{}{} }
		errs := make(chan error, n)
		go func() {
			errs <- submit(p, task)
			if n > 1 {
				errs <- submit(p, task)
			}
		}()
		for range n - 2 {
			go func() { errs <- submit(p, task) }()
		}
		// Only a settled state is judged: a task handed over a moment ago
		// may show as waiting beside a slot its worker is about to fill.
		settled := func() bool {
			r, w := g.Running(), g.Waiting()
			return r >= size || (w == 0 && r >= n)
		}
		deadline := time.Now().Add(hangBound)
		for !settled() {
			if time.Now().After(deadline) {
				r, w := g.Running(), g.Waiting()
				close(hold)
				c.T.Fatalf("try %d: %d holding tasks submitted to a pool of %d: Running()=%d, Waiting()=%d %v later: "+
					"work waits beside a free slot, or a task neither runs nor waits", try, n, size, r, w, hangBound)
			}
			runtime.Gosched()
		}
		close(hold)
		t := time.NewTimer(hangBound)
		for i := range n {
			select {
			case <-finished:
			case <-t.C:
				c.T.Fatalf("try %d: %d of %d tasks finished %v after they were let go%s", try, i, n, hangBound, gaugesText(p))
			}
		}
		t.Stop()
		for range n {
			if err := <-errs; err != nil {
				c.T.Fatalf("try %d: Submit = %v", try, err)
			}
		}
	}
	pools.close(settleTries)
}

// ranATask runs one short task on p and waits for it, so that a race
// meets a pool with a worker that has just finished as well as a pool
// that never ran anything.
func (c *Case) ranATask(p Pool, try int) {
	c.T.Helper()
	ran := make(chan struct{})
	c.mustSubmit(p, func() { close(ran) })
	c.await(ran, "try %d: a task did not run", try)
}

// rebooters is how many goroutines call Reboot in a loop while a close
// runs. With more of them than the machine has cores, some wait on the
// pool's lock while another spins on it, which stretches the moment
// between a close taking effect and the close's next step, where a Reboot
// must not slip in unnoticed.
const rebooters = 3

// raceReboot runs closeFn and, at the same time, Reboot over and over on
// rebooters goroutines until closeFn has returned, all let go together.
// It reports whether closeFn, and the Reboot calls, returned within d.
func raceReboot(d time.Duration, r Rebooter, closeFn func()) (closeDone, rebootDone bool) {
	start := make(chan struct{})
	var closed atomic.Bool
	dc, dr := make(chan struct{}), make(chan struct{})
	var loops sync.WaitGroup
	for range rebooters {
		loops.Go(func() {
			<-start
			for !closed.Load() {
				r.Reboot()
			}
		})
	}
	go func() {
		<-start
		closeFn()
		closed.Store(true)
		close(dc)
	}()
	go func() {
		loops.Wait()
		close(dr)
	}()
	close(start)
	t := time.NewTimer(d)
	defer t.Stop()
	for dc != nil || dr != nil {
		select {
		case <-dc:
			dc, closeDone = nil, true
		case <-dr:
			dr, rebootDone = nil, true
		case <-t.C:
			closed.Store(true) // stop the Reboot loops of a pool whose close hangs
			return closeDone, rebootDone
		}
	}
	return closeDone, rebootDone
}

// checkAbandonRacingReboot is CLS-8: ShutdownNow racing Reboot calls (see
// raceReboot) returns, and so do they, in whichever order they take
// effect; on a new pool, on one that has run a task, and on one already
// closed gracefully.
func checkAbandonRacingReboot(c *Case) {
	for try := range abandonTries {
		p, err := c.newRaw(Config{Size: 2})
		if err != nil {
			c.T.Fatal(err)
		}
		switch try % 3 {
		case 1:
			c.ranATask(p, try)
		case 2:
			if err := closeBounded(p); err != nil {
				c.T.Fatalf("try %d: a graceful close of an idle pool = %v", try, err)
			}
		}
		var back []func()
		nowDone, rebootDone := raceReboot(hangBound, asRebooter(p), func() { back = asAbandoner(p).ShutdownNow() })
		if !nowDone || !rebootDone {
			c.T.Fatalf("try %d: ShutdownNow racing Reboot: ShutdownNow returned: %v, Reboot returned: %v, after %v",
				try, nowDone, rebootDone, hangBound)
		}
		if len(back) != 0 {
			c.T.Fatalf("try %d: ShutdownNow handed back %d tasks; none was queued", try, len(back))
		}
		if err := closeBounded(p); err != nil && !isClosed(err) {
			c.T.Fatalf("try %d: a graceful close after the race = %v, want nil or an error matching resize.ErrClosed", try, err)
		}
	}
}

// checkCloseRacingReboot is CLS-9: a graceful close bounded by hangBound
// racing Reboot calls (see raceReboot), on a pool with no task left to
// run. The close waits for the life it closed, which has nothing to
// finish: it returns nil, never a timeout, whether a Reboot takes effect
// before it, after it, or not at all.
func checkCloseRacingReboot(c *Case) {
	for try := range rebootTries {
		p, err := c.newRaw(Config{Size: 2})
		if err != nil {
			c.T.Fatal(err)
		}
		if try%4 == 3 {
			c.ranATask(p, try)
		}
		var closeErr error
		closeDone, rebootDone := raceReboot(hangBound+hangBound/2, asRebooter(p), func() { closeErr = closeBounded(p) })
		switch {
		case !closeDone || !rebootDone:
			c.T.Fatalf("try %d: a bounded close racing Reboot: close returned: %v, Reboot returned: %v, after %v",
				try, closeDone, rebootDone, hangBound+hangBound/2)
		case closeErr != nil:
			c.T.Fatalf("try %d: a close bounded by %v racing Reboot on a pool with nothing to finish = %v, want nil",
				try, hangBound, closeErr)
		}
		if err := closeBounded(p); err != nil && !isClosed(err) {
			c.T.Fatalf("try %d: a second close after the race = %v, want nil or an error matching resize.ErrClosed", try, err)
		}
	}
}

// checkRebootFromTask is CLS-10: a task closes its own pool (a close
// bounded by a context that is already done, so that it does not wait) and
// then calls Reboot. Reboot cannot wait for the task that calls it: it must
// return, and once the task has returned the pool must be open again.
func checkRebootFromTask(c *Case) {
	p, err := c.newRaw(Config{Size: 2})
	if err != nil {
		c.T.Fatal(err)
	}
	rebooted := make(chan struct{})
	c.mustSubmit(p, func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_ = p.Shutdown(ctx) // closes; the outcome is ctx.Err() or nil, as the pool sees it
		asRebooter(p).Reboot()
		close(rebooted)
	})
	if !closedWithin(hangBound, rebooted) {
		c.T.Fatalf("Reboot called from inside a task of a released pool did not return within %v "+
			"(a Reboot that waits for the workers of the closed life waits for the very task that calls it)", hangBound)
	}
	// The previous life ends when the task's worker is done with it, a
	// moment after the task returns; the pool reopens then.
	ran := make(chan struct{})
	deadline := time.Now().Add(hangBound)
	for {
		err := submit(p, func() { close(ran) })
		if err == nil {
			break
		}
		if !isClosed(err) {
			c.T.Fatalf("Submit after a Reboot from a task = %v, want nil", err)
		}
		if time.Now().After(deadline) {
			c.T.Fatalf("the pool is still closed %v after the task that rebooted it returned: Submit = %v", hangBound, err)
		}
		runtime.Gosched()
	}
	c.await(ran, "a task submitted after the reboot did not run")
	if err := closeBounded(p); err != nil {
		c.T.Fatalf("Shutdown after the reboot = %v", err)
	}
}
