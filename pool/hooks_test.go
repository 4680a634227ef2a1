//go:build poolkit_hooks && go1.25

package pool_test

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// The tests in this file need the engine's interleaving hooks: run them
// with -tags poolkit_hooks (the CI does, with -race). Each puts a goroutine
// exactly inside one protocol window with a breakpoint, acts while it
// waits there, and checks the outcome, so with the rule that guards the
// window taken out, each fails every time. The window tests of
// window_test.go run in the same build under the run's seeded interleaving
// (hooks_main_test.go), which finds the same bugs by chance.

// breakpoints installs an interleaving with no pressure, so that only the
// test's breakpoints change the schedule, and restores the run's one at
// the end of the test.
func breakpoints(t *testing.T) {
	stop := pool.Interleave(pool.InterleavingConfig{})
	t.Cleanup(stop)
}

// pauseAt parks the first goroutine to reach point until the returned
// resume is called; paused is closed once it is parked there.
func pauseAt(t *testing.T, point string) (paused <-chan struct{}, resume func()) {
	p, r := make(chan struct{}), make(chan struct{})
	t.Cleanup(pool.BreakOnce(point, func() {
		close(p)
		<-r
	}))
	var once atomic.Bool
	return p, func() {
		if once.CompareAndSwap(false, true) {
			close(r)
		}
	}
}

// shutdownNowWhileHeld calls ShutdownNow on p once paused is closed (a
// goroutine is held at a protocol point), then closes shut, so that a task
// that starts from now on can tell, lets the held goroutine go and waits
// for p to finish. ShutdownNow must hand back one function, for what: it
// is returned, to be called.
func shutdownNowWhileHeld(t *testing.T, p *pool.Pool, paused <-chan struct{}, resume func(), shut chan struct{}, what string) func() {
	t.Helper()
	<-paused
	back := p.ShutdownNow()
	close(shut)
	resume()
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	if len(back) != 1 {
		t.Fatalf("ShutdownNow handed back %d functions, want 1 for %s", len(back), what)
	}
	return back[0]
}

// TestBreakShrinkBetweenTasks: the worker that ran B is held as it starts
// spinning, with its slot; Resize(1) and the submission of C happen while
// it is held. Released, it takes C, and the capacity check that follows
// the take (rule S2) must put C back rather than start it beside A.
func TestBreakShrinkBetweenTasks(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 2)
	var aRunning atomic.Bool
	aRunning.Store(true)
	releaseA := make(chan struct{})
	mustSubmit(t, p, func() {
		<-releaseA
		aRunning.Store(false)
	})
	paused, resume := pauseAt(t, "spin-start")
	defer resume()
	mustSubmit(t, p, func() {})
	<-paused
	if err := p.Resize(1); err != nil {
		t.Fatal(err)
	}
	outcome := make(chan string, 2)
	t.Cleanup(pool.BreakOnce("deferred", func() { outcome <- "put back" }))
	cRan := make(chan struct{})
	mustSubmit(t, p, func() {
		if aRunning.Load() {
			outcome <- "started beside A"
		}
		close(cRan)
	})
	resume()
	if got := <-outcome; got != "put back" {
		t.Errorf("after Resize(1), C %s", got)
	}
	close(releaseA)
	if !within(func() { <-cRan }) {
		t.Fatal("C never started after A returned")
	}
}

// TestBreakSpinnerFindsWork: the spinner is held while X and Y are queued
// (both submitters leave their task to it). Released, it takes X, and
// before running it must start a worker for Y (rule W2): X waits for Y.
func TestBreakSpinnerFindsWork(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 2)
	paused, resume := pauseAt(t, "spin-start")
	defer resume()
	mustSubmit(t, p, func() {})
	<-paused
	xDone := submitXWaitingForY(t, p)
	resume()
	mustFinish(t, p, xDone, "Y never started")
}

// TestBreakSpinnerGivesUp: a task is queued just as the only spinner gives
// up. The spinner must look at the queue again after giving its slot back
// (rule W3), or the pusher, which saw it spinning, must start a worker.
func TestBreakSpinnerGivesUp(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 1)
	paused, resume := pauseAt(t, "spin-giveup")
	defer resume()
	mustSubmit(t, p, func() {})
	<-paused // it still holds its slot, and no longer counts as spinning
	ran := make(chan struct{})
	mustSubmit(t, p, func() { close(ran) })
	resume()
	mustFinish(t, p, ran, "the task never started")
}

// TestBreakShutdownReopen: a Reopen runs after a bounded close has
// closed the pool and before it waits. The close waits for the life it
// closed, which had no task (rule C3): nil, not ErrTimeout.
func TestBreakShutdownReopen(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 2)
	t.Cleanup(pool.BreakOnce("close-wait", func() { pool.Reopen(p) }))
	if err := shutdownWithin(p, time.Second); err != nil {
		t.Errorf("Shutdown with a Reopen before its wait = %v, want nil", err)
	}
	if p.Stats().Closed {
		t.Error("Stats().Closed = true after the Reopen")
	}
}

// TestBreakShutdownNowReopen: a Reopen tries to run while an abandoning
// close takes the queued tasks. It must wait for the close (rule C1), or
// it reopens the queue under the closer's feet.
func TestBreakShutdownNowReopen(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 2)
	rebooted := make(chan struct{})
	t.Cleanup(pool.BreakOnce("close-drain", func() {
		go func() {
			defer close(rebooted)
			pool.Reopen(p)
		}()
		for range 1000 {
			select {
			case <-rebooted:
				return
			default:
				runtime.Gosched()
			}
		}
	}))
	if !within(func() { p.ShutdownNow() }) {
		t.Fatal("ShutdownNow with a Reopen during its drain did not return")
	}
	<-rebooted
}

// TestBreakGrowWakesQueued: tasks queued behind a full pool start as soon
// as it grows (T5), even when no running task finishes.
func TestBreakGrowWakesQueued(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 1)
	hold := make(chan struct{})
	defer close(hold)
	started := make(chan struct{}, 8)
	for range 4 {
		mustSubmit(t, p, func() {
			started <- struct{}{}
			<-hold
		})
	}
	<-started
	if err := p.Resize(4); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if !within(func() { <-started }) {
			t.Fatalf("after Resize(4), only %d of 4 started", i+1)
		}
	}
}

// windowSeeds are interleaving seeds that found a bug in a protocol window
// once; each runs the window scenarios again under the same pressure.
var windowSeeds = []uint64{}

// TestWindowSeeds runs the window scenarios under each committed seed.
func TestWindowSeeds(t *testing.T) {
	for _, seed := range windowSeeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			stop := pool.Interleave(pool.DefaultInterleaving(seed))
			defer stop()
			for _, f := range []func(*testing.T){
				TestShrinkBetweenTasks, TestNoTaskWaitsBesideAFreeSlot,
				TestShutdownNowRacingReopen, TestShutdownRacingReopen,
			} {
				f(t)
			}
		})
	}
}

// TestBreakCloseBetweenPushAndNotify: a submitter finds every slot taken
// and is held; the slot holder finishes, finds nothing and parks; the
// submitter queues its task and is held again before it can start a
// worker; the pool is closed there. Its notify now fails (the gate is
// closed), so the close itself must see to the queued task (C1): a
// graceful close runs it, an abandoning one hands it back, and in neither
// case may the pool's life end with the task still queued (C2).
func TestBreakCloseBetweenPushAndNotify(t *testing.T) {
	for _, abandon := range []bool{false, true} {
		t.Run(fmt.Sprintf("abandon=%v", abandon), func(t *testing.T) {
			breakpoints(t)
			// No purger: an armed one would keep the life from ending
			// early and hide a close that lets it.
			p := mustNew(t, 1, pool.WithIdleTimeout(0))
			releaseA := make(chan struct{})
			mustSubmit(t, p, func() { <-releaseA })
			t.Cleanup(pool.BreakOnce("submit-queue", func() {
				close(releaseA)
				for p.Stats().Idle != 1 {
					runtime.Gosched()
				}
			}))
			var returned []func()
			t.Cleanup(pool.BreakOnce("queue-pushed", func() {
				if abandon {
					returned = p.ShutdownNow()
				} else {
					p.Close()
				}
			}))
			var ran atomic.Bool
			if err := p.Submit(bg, func() { ran.Store(true) }); err != nil {
				t.Fatalf("Submit = %v", err)
			}
			if err := shutdownWithin(p, failBound); err != nil {
				t.Fatalf("Shutdown = %v", err)
			}
			switch {
			case abandon && (len(returned) != 1 || ran.Load()):
				t.Errorf("ShutdownNow returned %d tasks, task ran: %v; want 1, false", len(returned), ran.Load())
			case !abandon && !ran.Load():
				t.Error("a task queued before the close never ran")
			}
		})
	}
}

// TestBreakSpinnerLeavesWorkToMany: the spinner is held while X, Y and Z
// are queued (all three submitters leave their task to it); X and Y wait
// for Z. Released, it takes X and starts one worker (rule W2), which takes
// Y: whoever takes a unit and leaves work behind beside a free slot must
// start a worker for it, or Z waits beside a free slot for good.
func TestBreakSpinnerLeavesWorkToMany(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 3)
	paused, resume := pauseAt(t, "spin-start")
	defer resume()
	mustSubmit(t, p, func() {})
	<-paused
	zRan := make(chan struct{})
	xDone, yDone := make(chan struct{}), make(chan struct{})
	mustSubmit(t, p, func() { <-zRan; close(xDone) })
	mustSubmit(t, p, func() { <-zRan; close(yDone) })
	mustSubmit(t, p, func() { close(zRan) })
	resume()
	mustFinish(t, p, xDone, "Z never started")
	mustFinish(t, p, yDone, "Z never started")
}

// TestBreakSpinnerLastLook: the only spinner has looked for the last time
// and found nothing, but still counts as spinning, when X and Y are queued
// (both submitters leave their task to it). It gives up, looks again after
// giving its slot back (rule W3) and takes X, which waits for Y: it must
// start a worker for Y before it runs X (rule W2).
func TestBreakSpinnerLastLook(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 2)
	paused, resume := pauseAt(t, "spin-last")
	defer resume()
	mustSubmit(t, p, func() {})
	<-paused
	xDone := submitXWaitingForY(t, p)
	resume()
	mustFinish(t, p, xDone, "Y never started")
}

// TestBreakShrinkBeforeWaiterTake: no queue, capacity 2; A and B run, C is
// blocked in Submit. B's worker, with nothing else to run, is held as it
// is about to run C in its slot (rule W5); Resize(1) returns meanwhile.
// Released, its capacity check must give the slot back: C may not start
// beside A.
func TestBreakShrinkBeforeWaiterTake(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 2, pool.WithQueueSize(0))
	var aRunning atomic.Bool
	aRunning.Store(true)
	releaseA, releaseB := make(chan struct{}), make(chan struct{})
	mustSubmit(t, p, func() {
		<-releaseA
		aRunning.Store(false)
	})
	mustSubmit(t, p, func() { <-releaseB })
	cStartedBesideA := make(chan bool, 1)
	accepted := make(chan error, 1)
	go func() {
		accepted <- p.Submit(bg, func() { cStartedBesideA <- aRunning.Load() })
	}()
	for p.Stats().Waiting != 1 {
		runtime.Gosched()
	}
	paused, resume := pauseAt(t, "waiter-take")
	defer resume()
	close(releaseB)
	<-paused
	if err := p.Resize(1); err != nil {
		t.Fatal(err)
	}
	resume()
	// Either the worker gives its slot back, or C starts (beside A).
	for p.Stats().Running != 1 && len(cStartedBesideA) == 0 {
		runtime.Gosched()
	}
	close(releaseA)
	if !within(func() {
		if err := <-accepted; err != nil {
			t.Errorf("C's Submit = %v", err)
		}
	}) {
		t.Fatal("C's Submit never returned after A did")
	}
	if <-cStartedBesideA {
		t.Error("C started beside A after Resize(1) returned")
	}
}

// TestBreakWaiterAfterTheLastLook: no queue, capacity 1. A's worker, with
// nothing left to run, has looked for blocked submitters (rule W5, none
// yet) and is held as it is about to give its slot back; B blocks
// meanwhile, its retry finding the slot still held. The release must admit
// B (rule W4): nobody else will.
func TestBreakWaiterAfterTheLastLook(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 1, pool.WithQueueSize(0))
	paused, resume := pauseAt(t, "give-back")
	defer resume()
	mustSubmit(t, p, func() {})
	<-paused
	accepted := make(chan error, 1)
	ran := make(chan struct{})
	go func() { accepted <- p.Submit(bg, func() { close(ran) }) }()
	for p.Stats().Waiting != 1 && len(accepted) == 0 {
		runtime.Gosched()
	}
	resume()
	if !within(func() { <-ran }) {
		t.Fatal("B never started after the slot was given back")
	}
	if err := <-accepted; err != nil {
		t.Errorf("B's Submit = %v", err)
	}
}

// TestBreakGiveBackIsOneStep: no queue, capacity 1. A's worker, with
// nothing left to run, is held just before it gives its slot back, and B
// is submitted meanwhile. B must run on A's worker: giving the slot back
// and joining the idle stack are one step to a submitter (rule S5), so a
// submitter never takes the slot, finds no idle worker and starts a second
// goroutine beside one that is about to park (which then exits as one too
// many: a goroutine started and ended per task below capacity).
func TestBreakGiveBackIsOneStep(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 1, pool.WithQueueSize(0))
	paused, resume := pauseAt(t, "give-back")
	defer resume()
	mustSubmit(t, p, func() {})
	<-paused
	workers := make(chan int, 1)
	accepted := make(chan error, 1)
	go func() { accepted <- p.Submit(bg, func() { workers <- p.Stats().Workers }) }()
	for p.Stats().Waiting != 1 && len(workers) == 0 {
		runtime.Gosched()
	}
	resume()
	if !within(func() {
		if err := <-accepted; err != nil {
			t.Errorf("B's Submit = %v", err)
		}
	}) {
		t.Fatal("B's Submit never returned")
	}
	if n := <-workers; n != 1 {
		t.Errorf("B ran with %d workers alive, want 1: a goroutine was started beside the parking one", n)
	}
}

// TestBreakLifeWaitsForParkingWorker: capacity 2 shrunk to 1 while A and B
// run. B's worker, over the capacity, gives its slot back when B returns
// and is held on its way to park. The pool is closed and A returns: no slot
// is held, but B's worker is alive, and the life must not end before it
// has left the books (rule C2): a Reopen would otherwise open a new life
// beside a worker of the old one.
func TestBreakLifeWaitsForParkingWorker(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 2)
	releaseA, releaseB := make(chan struct{}), make(chan struct{})
	mustSubmit(t, p, func() { <-releaseA })
	mustSubmit(t, p, func() { <-releaseB })
	for p.Stats().Running != 2 {
		runtime.Gosched()
	}
	if err := p.Resize(1); err != nil {
		t.Fatal(err)
	}
	paused, resume := pauseAt(t, "give-back")
	defer resume()
	close(releaseB)
	<-paused
	done := pool.CloseDone(p)
	close(releaseA)
	for p.Stats().Running != 0 || p.Stats().Workers != 1 {
		runtime.Gosched()
	}
	select {
	case <-done:
		t.Fatal("the life ended while a worker was still on its way to park")
	default:
	}
	resume()
	if !within(func() { <-done }) {
		t.Fatal("the life never ended after the last worker parked")
	}
}

// TestBreakHelpAfterShrink: capacity 2, A runs, and O waits for its group,
// whose task X is queued. O's wait takes X to run in its own slot, and is
// held right after the take; Resize(1) comes then. Released, O must put X
// back (rule S2 applies to a unit a waiting task helps with as to any):
// with A and O holding both slots, nothing may start before A returns.
func TestBreakHelpAfterShrink(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 2)
	releaseA := make(chan struct{})
	var aRunning atomic.Bool
	aRunning.Store(true)
	paused, resume := pauseAt(t, "taken")
	defer resume()
	mustSubmit(t, p, func() { <-releaseA; aRunning.Store(false) })
	xBesideA := make(chan bool, 1)
	waited := make(chan error, 1)
	mustSubmit(t, p, func() {
		g, _ := p.Group(context.Background())
		g.Go(func() error { xBesideA <- aRunning.Load(); return nil })
		waited <- g.Wait()
	})
	<-paused
	if err := p.Resize(1); err != nil {
		t.Fatal(err)
	}
	resume()
	time.Sleep(50 * time.Millisecond) // X must not start meanwhile
	close(releaseA)
	if !within(func() {
		if besideA := <-xBesideA; besideA {
			t.Error("after Resize(1), the task O helped with started beside A")
		}
		if err := <-waited; err != nil {
			t.Errorf("Group.Wait = %v", err)
		}
	}) {
		t.Fatal("X never ran after A returned")
	}
}

// TestBreakWaitRoomCountsTheSearcher: API-37. A worker that finished its
// task and searches for the next holds its slot; B is queued while it
// searches, and WaitRoom asks for room the moment the searcher has taken
// B and not yet counted itself as running: B is then neither waiting nor
// running, and a room read from Running and Waiting would report the one
// slot of the pool free. WaitRoom counts the slot held: no room.
func TestBreakWaitRoomCountsTheSearcher(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 1)
	paused, resume := pauseAt(t, "spin-start")
	defer resume()
	mustSubmit(t, p, func() {}) // A: its worker then searches
	<-paused
	done, cancel := context.WithCancel(context.Background())
	cancel()
	type room struct {
		n   int
		err error
	}
	seen := make(chan room, 1)
	t.Cleanup(pool.BreakOnce("taken", func() {
		n, err := p.WaitRoom(done)
		seen <- room{n, err}
	}))
	mustSubmit(t, p, func() {}) // B: queued for the searcher
	resume()
	select {
	case r := <-seen:
		if r.n != 0 || r.err != context.Canceled {
			t.Errorf("WaitRoom as the searcher took B = %d, %v; want 0, context.Canceled: the pool's one slot is held", r.n, r.err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the searcher never took B")
	}
}

// TestBreakWaitRoomWokenByATake: API-37. In a pool of 3 with A running, a
// worker searching for work and B queued for it, the room is 0 (B waits,
// and the searcher's slot is B's); once the searcher has taken B, one
// slot is free and nothing waits. That room appears without any worker
// parking, so the taker must wake WaitRoom itself.
func TestBreakWaitRoomWokenByATake(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 3)
	holdA, holdB := make(chan struct{}), make(chan struct{})
	defer close(holdA)
	defer close(holdB)
	mustSubmit(t, p, func() { <-holdA })
	paused, resume := pauseAt(t, "spin-start")
	defer resume()
	mustSubmit(t, p, func() {}) // X: its worker then searches
	<-paused
	mustSubmit(t, p, func() { <-holdB }) // B: queued for the searcher
	type room struct {
		n   int
		err error
	}
	got := make(chan room, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go func() { n, err := p.WaitRoom(ctx); got <- room{n, err} }()
	for p.Stats().Waiting != 1 {
		runtime.Gosched()
	}
	time.Sleep(10 * time.Millisecond) // WaitRoom has found no room and waits
	resume()
	r := <-got
	if r.err != nil || r.n != 1 {
		t.Fatalf("WaitRoom once the searcher took B = %d, %v; want 1, nil (one slot free, nothing waiting)", r.n, r.err)
	}
}

// manyProcs raises GOMAXPROCS to 4 for the test, where it is lower: a
// worker leaves the admission to the lock's holder only with more than
// two Ps (the engine reads GOMAXPROCS when a pool is made).
func manyProcs(t *testing.T) {
	if old := runtime.GOMAXPROCS(0); old < 4 {
		runtime.GOMAXPROCS(4)
		t.Cleanup(func() { runtime.GOMAXPROCS(old) })
	}
}

// queueFullBehindA fills a pool of 1 with a queue of 4: A runs, B and
// three more wait behind it. It returns A's release, and B's start and
// release; the other three wait for B.
func queueFullBehindA(t *testing.T) (p *pool.Pool, releaseA, bStarted, releaseB chan struct{}) {
	t.Helper()
	p = mustNew(t, 1, pool.WithQueueSize(4))
	releaseA, releaseB = make(chan struct{}), make(chan struct{})
	aStarted, bStarted := make(chan struct{}), make(chan struct{})
	mustSubmit(t, p, func() { close(aStarted); <-releaseA })
	<-aStarted
	mustSubmit(t, p, func() { close(bStarted); <-releaseB })
	for range 3 {
		mustSubmit(t, p, func() { <-releaseB })
	}
	return p, releaseA, bStarted, releaseB
}

// TestBreakTakeAsksHolder: with A running and the queue of 4 full behind
// it in a pool of 1, C's submitter is held at the point where it blocks,
// holding the engine's lock. A ends: its worker takes B, which makes room
// for C with three units still queued, and must neither wait for the lock
// to admit C (B starts while the lock is held) nor leave C waiting: it
// asks the lock's holder, which admits C into the room before it lets go
// (rule W4's ask), so C's Submit returns while B still runs.
func TestBreakTakeAsksHolder(t *testing.T) {
	breakpoints(t)
	manyProcs(t)
	p, releaseA, bStarted, releaseB := queueFullBehindA(t)
	cRan := make(chan struct{})
	paused, resume := pauseAt(t, "block")
	defer resume()
	errC := make(chan error, 1)
	go func() { errC <- p.Submit(context.Background(), func() { close(cRan) }) }()
	<-paused
	close(releaseA)
	select {
	case <-bStarted:
	case <-time.After(time.Minute):
		t.Fatal("B did not start while a blocked submitter held the lock: its worker waits for the lock to admit")
	}
	resume()
	select {
	case err := <-errC:
		if err != nil {
			t.Fatalf("Submit(C) = %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("C is still blocked while B runs, with room for it in the queue: the ask was not answered")
	}
	close(releaseB)
	<-cRan
}

// TestBreakAskAfterAnswer: a Stats call holds the engine's lock and is
// held at the point where it has answered the asks made so far and is
// about to let go. A ends: its worker takes B, making room for the
// blocked C, and asks the holder, who has already looked. Let go, the
// holder must look again after its release and admit C before its call
// returns (rule W4's ask), or C waits while B runs with room for it in
// the queue, until some later holder of the lock comes by. C has been
// asked whether it is a task of the pool before, so that the stall check
// does not take the lock meanwhile.
func TestBreakAskAfterAnswer(t *testing.T) {
	breakpoints(t)
	manyProcs(t)
	p, releaseA, bStarted, releaseB := queueFullBehindA(t)
	cRan := make(chan struct{})
	asked, goOn := pauseAt(t, "outsider")
	errC := make(chan error, 1)
	go func() { errC <- p.Submit(context.Background(), func() { close(cRan) }) }()
	<-asked // C blocked, was poked by the stall check and let go of the lock
	goOn()
	paused, resume := pauseAt(t, "unlock")
	defer resume()
	statsDone := make(chan struct{})
	go func() { p.Stats(); close(statsDone) }()
	<-paused
	close(releaseA)
	<-bStarted
	resume()
	<-statsDone
	if got := p.Stats().Submitted; got != 6 {
		t.Errorf("Submitted = %d once the holder has let go, want 6: an ask made as it let go was lost, and C waits beside room in the queue", got)
	}
	if err := <-errC; err != nil {
		t.Fatalf("Submit(C) = %v", err)
	}
	close(releaseB)
	<-cRan
}

// askDecision holds C's submitter at the point where it blocks, holding
// the engine's lock, releases A, and returns what the worker that takes B
// decides about C's admission; then it lets C go and checks that C's
// Submit returns nil.
func askDecision(t *testing.T, p *pool.Pool, releaseA chan struct{}) string {
	t.Helper()
	paused, resume := pauseAt(t, "block")
	defer resume()
	errC := make(chan error, 1)
	go func() { errC <- p.Submit(context.Background(), func() {}) }()
	<-paused
	decided := make(chan string, 2)
	t.Cleanup(pool.BreakOnce("ask-left", func() { decided <- "left the admission to the holder" }))
	t.Cleanup(pool.BreakOnce("ask-wait", func() { decided <- "waits for the lock" }))
	close(releaseA)
	got := <-decided
	resume()
	if err := <-errC; err != nil {
		t.Fatalf("Submit(C) = %v", err)
	}
	return got
}

// TestBreakAskLowQueue: as TestBreakTakeAsksHolder, with a queue of 1
// that B's take leaves empty: the worker that took B may not leave C to
// the holder, which may answer late while the workers have nothing
// queued; it waits for the lock to admit C itself.
func TestBreakAskLowQueue(t *testing.T) {
	breakpoints(t)
	manyProcs(t)
	p := mustNew(t, 1, pool.WithQueueSize(1))
	releaseA, aStarted := make(chan struct{}), make(chan struct{})
	mustSubmit(t, p, func() { close(aStarted); <-releaseA })
	<-aStarted
	mustSubmit(t, p, func() {})
	if got := askDecision(t, p, releaseA); got != "waits for the lock" {
		t.Errorf("the worker that took B, leaving the queue empty with C blocked, %s", got)
	}
}

// TestBreakAskTwoProcs: as TestBreakTakeAsksHolder, with GOMAXPROCS 2:
// the worker that took B waits for the lock to admit C, whose submitter,
// holding it, shares the two Ps with the workers.
func TestBreakAskTwoProcs(t *testing.T) {
	breakpoints(t)
	old := runtime.GOMAXPROCS(2)
	t.Cleanup(func() { runtime.GOMAXPROCS(old) })
	p, releaseA, _, releaseB := queueFullBehindA(t)
	if got := askDecision(t, p, releaseA); got != "waits for the lock" {
		t.Errorf("with two Ps, the worker that took B %s", got)
	}
	close(releaseB)
}
