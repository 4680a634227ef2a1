//go:build poolkit_hooks && go1.25

package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/poolkit/internal/testkit"
)

// The tests in this file need the interleaving hooks: run them with -tags
// poolkit_hooks (the CI does, with -race). Each puts a goroutine exactly
// inside one protocol window with a breakpoint, acts while it waits there,
// and checks the outcome, so with the rule that guards the window taken
// out, each fails every time. The window tests of window_test.go run in
// the same build under the run's seeded interleaving (hooks_main_test.go),
// which finds the same bugs by chance.

// breakpoints installs an interleaving with no pressure, so that only the
// test's breakpoints change the schedule, and restores the run's one at
// the end of the test.
func breakpoints(t *testing.T) {
	stop := Interleave(InterleavingConfig{})
	t.Cleanup(stop)
}

// pauseAt parks the first goroutine to reach point until the returned
// resume is called; paused is closed once it is parked there.
func pauseAt(t *testing.T, point string) (paused <-chan struct{}, resume func()) {
	p, r := make(chan struct{}), make(chan struct{})
	t.Cleanup(BreakOnce(point, func() {
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

// TestBreakShrinkBetweenTasks: the worker that ran B is held as it starts
// spinning, with its slot; Resize(1) and the submission of C happen while
// it is held. Released, it takes C, and the capacity check that follows
// the take (rule S2) must put C back rather than start it beside A.
func TestBreakShrinkBetweenTasks(t *testing.T) {
	breakpoints(t)
	e := newEngine(t, 2)
	var aRunning atomic.Bool
	aRunning.Store(true)
	releaseA := make(chan struct{})
	mustSubmit(t, e, func() {
		<-releaseA
		aRunning.Store(false)
	})
	paused, resume := pauseAt(t, "spin-start")
	defer resume()
	mustSubmit(t, e, func() {})
	<-paused
	if err := e.Resize(1); err != nil {
		t.Fatal(err)
	}
	outcome := make(chan string, 2)
	t.Cleanup(BreakOnce("deferred", func() { outcome <- "put back" }))
	cRan := make(chan struct{})
	mustSubmit(t, e, func() {
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
	if !testkit.Within(func() { <-cRan }) {
		t.Fatal("C never started after A returned")
	}
}

// TestBreakSpinnerFindsWork: the spinner is held while X and Y are queued
// (both submitters leave their unit to it). Released, it takes X, and
// before running it must start a worker for Y (rule W2): X waits for Y.
func TestBreakSpinnerFindsWork(t *testing.T) {
	breakpoints(t)
	e := newEngine(t, 2)
	paused, resume := pauseAt(t, "spin-start")
	defer resume()
	mustSubmit(t, e, func() {})
	<-paused
	xDone := submitXWaitingForY(t, e)
	resume()
	mustFinish(t, e, xDone, "Y never started")
}

// TestBreakSpinnerGivesUp: a unit is queued just as the only spinner gives
// up. The spinner must look at the queue again after giving its slot back
// (rule W3), or the pusher, which saw it spinning, must start a worker.
func TestBreakSpinnerGivesUp(t *testing.T) {
	breakpoints(t)
	e := newEngine(t, 1)
	paused, resume := pauseAt(t, "spin-giveup")
	defer resume()
	mustSubmit(t, e, func() {})
	<-paused // it still holds its slot, and no longer counts as spinning
	ran := make(chan struct{})
	mustSubmit(t, e, func() { close(ran) })
	resume()
	mustFinish(t, e, ran, "the unit never started")
}

// TestBreakShutdownReopen: a Reopen runs after a bounded close has closed
// the engine and before it waits. The close waits for the life it closed,
// which had no unit (rule C3): it returns at once, not when its bound
// passes.
func TestBreakShutdownReopen(t *testing.T) {
	breakpoints(t)
	e := newEngine(t, 2)
	t.Cleanup(BreakOnce("close-wait", func() { e.Reopen() }))
	if err := closeWithin(e, time.Second); err != nil {
		t.Errorf("a bounded close with a Reopen before its wait = %v, want nil", err)
	}
	if e.Stats().Closed {
		t.Error("Stats().Closed = true after the Reopen")
	}
}

// TestBreakShutdownNowReopen: a Reopen tries to run while an abandoning
// close takes the queued units. It must wait for the close (rule C1), or
// it reopens the queue under the closer's feet.
func TestBreakShutdownNowReopen(t *testing.T) {
	breakpoints(t)
	e := newEngine(t, 2)
	rebooted := make(chan struct{})
	t.Cleanup(BreakOnce("close-drain", func() {
		go func() {
			defer close(rebooted)
			e.Reopen()
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
	if !testkit.Within(func() { e.CloseNow() }) {
		t.Fatal("CloseNow with a Reopen during its drain did not return")
	}
	<-rebooted
}

// TestBreakGrowWakesQueued: units queued behind a full engine start as
// soon as it grows (T5), even when no running unit finishes.
func TestBreakGrowWakesQueued(t *testing.T) {
	breakpoints(t)
	e := newEngine(t, 1)
	hold := make(chan struct{})
	defer close(hold)
	started := make(chan struct{}, 8)
	for range 4 {
		mustSubmit(t, e, func() {
			started <- struct{}{}
			<-hold
		})
	}
	<-started
	if err := e.Resize(4); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if !testkit.Within(func() { <-started }) {
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
			stop := Interleave(DefaultInterleaving(seed))
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
// submitter queues its unit and is held again before it can start a
// worker; the engine is closed there. Its notify now fails (the gate is
// closed), so the close itself must see to the queued unit (C1): a
// graceful close runs it, an abandoning one hands it back, and in neither
// case may the engine's life end with the unit still queued (C2).
func TestBreakCloseBetweenPushAndNotify(t *testing.T) {
	for _, abandon := range []bool{false, true} {
		t.Run(fmt.Sprintf("abandon=%v", abandon), func(t *testing.T) {
			breakpoints(t)
			// No purger: an armed one would keep the life from ending
			// early and hide a close that lets it.
			e := newEngine(t, 1, func(c *Config) { c.DisablePurge = true })
			releaseA := make(chan struct{})
			mustSubmit(t, e, func() { <-releaseA })
			t.Cleanup(BreakOnce("submit-queue", func() {
				close(releaseA)
				for e.Stats().Idle != 1 {
					runtime.Gosched()
				}
			}))
			var returned []func()
			t.Cleanup(BreakOnce("queue-pushed", func() {
				if abandon {
					_, returned = e.CloseNow()
				} else {
					e.Close()
				}
			}))
			var ran atomic.Bool
			if err := e.Submit(bg, func() { ran.Store(true) }); err != nil {
				t.Fatalf("Submit = %v", err)
			}
			if err := closeWithin(e, testkit.FailBound); err != nil {
				t.Fatalf("close = %v", err)
			}
			switch {
			case abandon && (len(returned) != 1 || ran.Load()):
				t.Errorf("CloseNow returned %d units, unit ran: %v; want 1, false", len(returned), ran.Load())
			case !abandon && !ran.Load():
				t.Error("a unit queued before the close never ran")
			}
		})
	}
}

// TestBreakSpinnerLeavesWorkToMany: the spinner is held while X, Y and Z
// are queued (all three submitters leave their unit to it); X and Y wait
// for Z. Released, it takes X and starts one worker (rule W2), which takes
// Y: whoever takes a unit and leaves work behind beside a free slot must
// start a worker for it, or Z waits beside a free slot for good.
func TestBreakSpinnerLeavesWorkToMany(t *testing.T) {
	breakpoints(t)
	e := newEngine(t, 3)
	paused, resume := pauseAt(t, "spin-start")
	defer resume()
	mustSubmit(t, e, func() {})
	<-paused
	zRan := make(chan struct{})
	xDone, yDone := make(chan struct{}), make(chan struct{})
	mustSubmit(t, e, func() { <-zRan; close(xDone) })
	mustSubmit(t, e, func() { <-zRan; close(yDone) })
	mustSubmit(t, e, func() { close(zRan) })
	resume()
	mustFinish(t, e, xDone, "Z never started")
	mustFinish(t, e, yDone, "Z never started")
}

// TestBreakSpinnerLastLook: the only spinner has looked for the last time
// and found nothing, but still counts as spinning, when X and Y are queued
// (both submitters leave their unit to it). It gives up, looks again after
// giving its slot back (rule W3) and takes X, which waits for Y: it must
// start a worker for Y before it runs X (rule W2).
func TestBreakSpinnerLastLook(t *testing.T) {
	breakpoints(t)
	e := newEngine(t, 2)
	paused, resume := pauseAt(t, "spin-last")
	defer resume()
	mustSubmit(t, e, func() {})
	<-paused
	xDone := submitXWaitingForY(t, e)
	resume()
	mustFinish(t, e, xDone, "Y never started")
}

// TestBreakShrinkBeforeWaiterTake: no queue, capacity 2; A and B run, C is
// blocked in Submit. B's worker, with nothing else to run, is held as it
// is about to run C in its slot (rule W5); Resize(1) returns meanwhile.
// Released, its capacity check must give the slot back: C may not start
// beside A.
func TestBreakShrinkBeforeWaiterTake(t *testing.T) {
	breakpoints(t)
	e := newEngine(t, 2, queueSize(0))
	var aRunning atomic.Bool
	aRunning.Store(true)
	releaseA, releaseB := make(chan struct{}), make(chan struct{})
	mustSubmit(t, e, func() {
		<-releaseA
		aRunning.Store(false)
	})
	mustSubmit(t, e, func() { <-releaseB })
	cStartedBesideA := make(chan bool, 1)
	accepted := make(chan error, 1)
	go func() {
		accepted <- e.Submit(bg, func() { cStartedBesideA <- aRunning.Load() })
	}()
	for e.Stats().Waiting != 1 {
		runtime.Gosched()
	}
	paused, resume := pauseAt(t, "waiter-take")
	defer resume()
	close(releaseB)
	<-paused
	if err := e.Resize(1); err != nil {
		t.Fatal(err)
	}
	resume()
	// Either the worker gives its slot back, or C starts (beside A).
	for e.Stats().Running != 1 && len(cStartedBesideA) == 0 {
		runtime.Gosched()
	}
	close(releaseA)
	if !testkit.Within(func() {
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
	e := newEngine(t, 1, queueSize(0))
	paused, resume := pauseAt(t, "give-back")
	defer resume()
	mustSubmit(t, e, func() {})
	<-paused
	accepted := make(chan error, 1)
	ran := make(chan struct{})
	go func() { accepted <- e.Submit(bg, func() { close(ran) }) }()
	for e.Stats().Waiting != 1 && len(accepted) == 0 {
		runtime.Gosched()
	}
	resume()
	if !testkit.Within(func() { <-ran }) {
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
// many: a goroutine started and ended per unit below capacity).
func TestBreakGiveBackIsOneStep(t *testing.T) {
	breakpoints(t)
	e := newEngine(t, 1, queueSize(0))
	paused, resume := pauseAt(t, "give-back")
	defer resume()
	mustSubmit(t, e, func() {})
	<-paused
	workers := make(chan int, 1)
	accepted := make(chan error, 1)
	go func() { accepted <- e.Submit(bg, func() { workers <- e.Stats().Workers }) }()
	for e.Stats().Waiting != 1 && len(workers) == 0 {
		runtime.Gosched()
	}
	resume()
	if !testkit.Within(func() {
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
// and is held on its way to park. The engine is closed and A returns: no
// slot is held, but B's worker is alive, and the life must not end before
// it has left the books (rule C2): a Reopen would otherwise open a new
// life beside a worker of the old one.
func TestBreakLifeWaitsForParkingWorker(t *testing.T) {
	breakpoints(t)
	e := newEngine(t, 2)
	releaseA, releaseB := make(chan struct{}), make(chan struct{})
	mustSubmit(t, e, func() { <-releaseA })
	mustSubmit(t, e, func() { <-releaseB })
	for e.Stats().Running != 2 {
		runtime.Gosched()
	}
	if err := e.Resize(1); err != nil {
		t.Fatal(err)
	}
	paused, resume := pauseAt(t, "give-back")
	defer resume()
	close(releaseB)
	<-paused
	done := e.Close()
	close(releaseA)
	for e.Stats().Running != 0 || e.Stats().Workers != 1 {
		runtime.Gosched()
	}
	select {
	case <-done:
		t.Fatal("the life ended while a worker was still on its way to park")
	default:
	}
	resume()
	if !testkit.Within(func() { <-done }) {
		t.Fatal("the life never ended after the last worker parked")
	}
}

// TestBreakHelpAfterShrink: capacity 2, A runs, and O waits, helping
// (HelpCaller, as a Group's Wait from inside a unit does), for X, which it
// submitted and which is queued. O takes X to run in its own slot, and is
// held right after the take; Resize(1) comes then. Released, O must put X
// back (rule S2 applies to a unit a helping caller takes as to any): with
// A and O holding both slots, nothing may start before A returns.
func TestBreakHelpAfterShrink(t *testing.T) {
	breakpoints(t)
	e := newEngine(t, 2)
	releaseA := make(chan struct{})
	var aRunning atomic.Bool
	aRunning.Store(true)
	paused, resume := pauseAt(t, "taken")
	defer resume()
	mustSubmit(t, e, func() { <-releaseA; aRunning.Store(false) })
	xBesideA := make(chan bool, 1)
	helped := make(chan error, 1)
	mustSubmit(t, e, func() {
		xDone := make(chan struct{})
		if err := e.Submit(bg, func() { xBesideA <- aRunning.Load(); close(xDone) }); err != nil {
			helped <- fmt.Errorf("Submit(X) = %w", err)
			return
		}
		if finished, inside := e.HelpCaller(xDone, nil); !finished || !inside {
			helped <- fmt.Errorf("HelpCaller = %v, %v; want true, true", finished, inside)
			return
		}
		helped <- nil
	})
	<-paused
	if err := e.Resize(1); err != nil {
		t.Fatal(err)
	}
	resume()
	time.Sleep(50 * time.Millisecond) // X must not start meanwhile
	close(releaseA)
	if !testkit.Within(func() {
		if besideA := <-xBesideA; besideA {
			t.Error("after Resize(1), the unit O helped with started beside A")
		}
		if err := <-helped; err != nil {
			t.Error(err)
		}
	}) {
		t.Fatal("X never ran after A returned")
	}
}

// TestBreakWaitRoomCountsTheSearcher: API-37. A worker that finished its
// unit and searches for the next holds its slot; B is queued while it
// searches, and WaitRoom asks for room the moment the searcher has taken
// B and not yet counted itself as running: B is then neither waiting nor
// running, and a room read from Running and Waiting would report the one
// slot of the engine free. WaitRoom counts the slot held: no room.
func TestBreakWaitRoomCountsTheSearcher(t *testing.T) {
	breakpoints(t)
	e := newEngine(t, 1)
	paused, resume := pauseAt(t, "spin-start")
	defer resume()
	mustSubmit(t, e, func() {}) // A: its worker then searches
	<-paused
	done, cancel := context.WithCancel(context.Background())
	cancel()
	type room struct {
		n   int
		err error
	}
	seen := make(chan room, 1)
	t.Cleanup(BreakOnce("taken", func() {
		n, err := e.WaitRoom(done)
		seen <- room{n, err}
	}))
	mustSubmit(t, e, func() {}) // B: queued for the searcher
	resume()
	select {
	case r := <-seen:
		if r.n != 0 || r.err != context.Canceled {
			t.Errorf("WaitRoom as the searcher took B = %d, %v; want 0, context.Canceled: the engine's one slot is held", r.n, r.err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the searcher never took B")
	}
}

// TestBreakWaitRoomWokenByATake: API-37. In an engine of 3 with A running,
// a worker searching for work and B queued for it, the room is 0 (B
// waits, and the searcher's slot is B's); once the searcher has taken B,
// one slot is free and nothing waits. That room appears without any
// worker parking, so the taker must wake WaitRoom itself.
func TestBreakWaitRoomWokenByATake(t *testing.T) {
	breakpoints(t)
	e := newEngine(t, 3)
	holdA, holdB := make(chan struct{}), make(chan struct{})
	defer close(holdA)
	defer close(holdB)
	mustSubmit(t, e, func() { <-holdA })
	paused, resume := pauseAt(t, "spin-start")
	defer resume()
	mustSubmit(t, e, func() {}) // X: its worker then searches
	<-paused
	mustSubmit(t, e, func() { <-holdB }) // B: queued for the searcher
	type room struct {
		n   int
		err error
	}
	got := make(chan room, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go func() { n, err := e.WaitRoom(ctx); got <- room{n, err} }()
	for e.Stats().Waiting != 1 {
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
// two Ps (the engine reads GOMAXPROCS at Init).
func manyProcs(t *testing.T) {
	if old := runtime.GOMAXPROCS(0); old < 4 {
		runtime.GOMAXPROCS(4)
		t.Cleanup(func() { runtime.GOMAXPROCS(old) })
	}
}

// queueFullBehindA fills an engine of 1 with a queue of 4: A runs, B and
// three more wait behind it. It returns A's release, and B's start and
// release; the other three wait for B.
func queueFullBehindA(t *testing.T) (e *Engine[func()], releaseA, bStarted, releaseB chan struct{}) {
	t.Helper()
	e = newEngine(t, 1, queueSize(4))
	releaseA, releaseB = make(chan struct{}), make(chan struct{})
	aStarted, bStarted := make(chan struct{}), make(chan struct{})
	mustSubmit(t, e, func() { close(aStarted); <-releaseA })
	<-aStarted
	mustSubmit(t, e, func() { close(bStarted); <-releaseB })
	for range 3 {
		mustSubmit(t, e, func() { <-releaseB })
	}
	return e, releaseA, bStarted, releaseB
}

// TestBreakTakeAsksHolder: with A running and the queue of 4 full behind
// it in an engine of 1, C's submitter is held as it lets go of the
// engine's lock, which it took to answer its own ask (rule A3) and found
// no room for C. A ends: its worker takes B, which
// makes room for C with three units still queued, and must neither wait
// for the lock to admit C (B starts while the lock is held) nor leave C
// waiting: it asks the lock's holder, which admits C into the room before
// it lets go (rule W4's ask), so C's Submit returns while B still runs.
func TestBreakTakeAsksHolder(t *testing.T) {
	breakpoints(t)
	manyProcs(t)
	e, releaseA, bStarted, releaseB := queueFullBehindA(t)
	cRan := make(chan struct{})
	paused, resume := pauseAt(t, "unlock")
	defer resume()
	errC := make(chan error, 1)
	go func() { errC <- e.Submit(context.Background(), func() { close(cRan) }) }()
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
// asked whether it runs in a unit of the engine before, so that the stall
// check does not take the lock meanwhile.
func TestBreakAskAfterAnswer(t *testing.T) {
	breakpoints(t)
	manyProcs(t)
	e, releaseA, bStarted, releaseB := queueFullBehindA(t)
	cRan := make(chan struct{})
	asked, goOn := pauseAt(t, "outsider")
	errC := make(chan error, 1)
	go func() { errC <- e.Submit(context.Background(), func() { close(cRan) }) }()
	<-asked // C blocked, was poked by the stall check and let go of the lock
	goOn()
	paused, resume := pauseAt(t, "unlock")
	defer resume()
	statsDone := make(chan struct{})
	go func() { e.Stats(); close(statsDone) }()
	<-paused
	close(releaseA)
	<-bStarted
	resume()
	<-statsDone
	if got := e.Stats().Submitted; got != 6 {
		t.Errorf("Submitted = %d once the holder has let go, want 6: an ask made as it let go was lost, and C waits beside room in the queue", got)
	}
	if err := <-errC; err != nil {
		t.Fatalf("Submit(C) = %v", err)
	}
	close(releaseB)
	<-cRan
}

// askDecision holds C's submitter as it lets go of the engine's lock,
// which it took to answer its own ask (rule A3), releases A, and returns what the worker that takes B
// decides about C's admission; then it lets C go and checks that C's
// Submit returns nil.
func askDecision(t *testing.T, e *Engine[func()], releaseA chan struct{}) string {
	t.Helper()
	paused, resume := pauseAt(t, "unlock")
	defer resume()
	errC := make(chan error, 1)
	go func() { errC <- e.Submit(context.Background(), func() {}) }()
	<-paused
	decided := make(chan string, 2)
	t.Cleanup(BreakOnce("ask-left", func() { decided <- "left the admission to the holder" }))
	t.Cleanup(BreakOnce("ask-wait", func() { decided <- "waits for the lock" }))
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
	e := newEngine(t, 1, queueSize(1))
	releaseA, aStarted := make(chan struct{}), make(chan struct{})
	mustSubmit(t, e, func() { close(aStarted); <-releaseA })
	<-aStarted
	mustSubmit(t, e, func() {})
	if got := askDecision(t, e, releaseA); got != "waits for the lock" {
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
	e, releaseA, _, releaseB := queueFullBehindA(t)
	if got := askDecision(t, e, releaseA); got != "waits for the lock" {
		t.Errorf("with two Ps, the worker that took B %s", got)
	}
	close(releaseB)
}

// arrivalHeld fills an engine of 1 as queueFullBehindA does, with more
// than two Ps, and submits C (unit c), whose submitter finds no room,
// announces itself and is held before it pushes its waiter on the
// arrivals. It returns queueFullBehindA's channels, C's outcome and what
// lets C go on; A and B are let go when the test ends, failed or not.
func arrivalHeld(t *testing.T, c func()) (e *Engine[func()], releaseA, bStarted, releaseB chan struct{}, errC chan error, resume func()) {
	t.Helper()
	breakpoints(t)
	manyProcs(t)
	e, releaseA, bStarted, releaseB = queueFullBehindA(t)
	t.Cleanup(func() { // before the engine's own: A and B must end for its close to
		closeOnce(releaseA)
		closeOnce(releaseB)
	})
	var paused <-chan struct{}
	paused, resume = pauseAt(t, "arrive")
	t.Cleanup(resume)
	errC = make(chan error, 1)
	go func() { errC <- e.Submit(context.Background(), c) }()
	<-paused
	return e, releaseA, bStarted, releaseB, errC, resume
}

// closeOnce closes ch unless it is closed.
func closeOnce(ch chan struct{}) {
	select {
	case <-ch:
	default:
		close(ch)
	}
}

// outcome waits for C's Submit to return, and fails the test with stuck
// if it has not within testkit.FailBound.
func outcome(t *testing.T, errC chan error, stuck string) error {
	t.Helper()
	select {
	case err := <-errC:
		return err
	case <-time.After(testkit.FailBound):
		t.Fatal(stuck)
		return nil
	}
}

// TestBreakArrivalAsks: A runs in an engine of 1 with the queue of 4 full
// behind it, and C's submitter is held after announcing itself, before
// its push (arrivalHeld). A ends meanwhile: its worker takes B, which
// makes room, sees C announced and admits, but finds no arrival yet. Let
// go, C must ask for itself (rule A3): it takes the lock and admits itself
// into the room while B still runs. A submitter that only waited would
// wait beside room in the queue until B ends.
func TestBreakArrivalAsks(t *testing.T) {
	_, releaseA, bStarted, _, errC, resume := arrivalHeld(t, func() {})
	close(releaseA)
	<-bStarted // the worker admitted what it could before it ran B
	resume()
	if err := outcome(t, errC, "C is still blocked while B runs, with room for it in the queue: its arrival did not ask to be admitted"); err != nil {
		t.Fatalf("Submit(C) = %v", err)
	}
}

// TestBreakArrivalAfterClose: as TestBreakArrivalAsks, but the engine is
// closed while C is held, with no arrival to refuse. Let go, C's arrival
// is taken on a closed engine and must be refused with ErrClosed (rule
// A4), not joined to a list that nobody admits any more, and its unit
// never runs.
func TestBreakArrivalAfterClose(t *testing.T) {
	e, releaseA, _, releaseB, errC, resume := arrivalHeld(t, func() { t.Error("C ran after it was refused") })
	done := e.Close()
	resume()
	if err := outcome(t, errC, "C is still blocked on a closed engine: its arrival joined a list that nobody admits"); !errors.Is(err, ErrClosed) {
		t.Errorf("Submit(C) across the close = %v, want ErrClosed", err)
	}
	close(releaseA)
	close(releaseB)
	<-done
	if n := e.Waiting(); n != 0 {
		t.Errorf("Waiting() = %d after the life ended, want 0", n)
	}
}
