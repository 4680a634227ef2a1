//go:build go1.22

package engine

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/poolkit/poolkit/internal/testkit"
)

// The tests in this file drive the protocol windows where an engine
// breaks: a worker between two units, a spinner that finds work or gives
// up, a Reopen racing a close. Each repeats its scenario, because the
// window is hit only when the goroutines meet in it; under the
// poolkit_hooks build tag the engine yields at every protocol step and the
// windows are hit far more often (break_hooks_test.go holds each open with
// a breakpoint instead).

// windowTries is how many times each scenario is repeated. A bound, not a
// wait: every try of a correct engine ends in microseconds.
func windowTries(short, long int) int {
	if testing.Short() {
		return short
	}
	return long
}

// TestShrinkBetweenTasks: capacity 2; A runs and holds; B runs and returns,
// leaving its worker between units (looking for more work, still holding
// its slot); Resize(1) returns; then C is submitted. C must not start
// while A runs: after the shrink, A alone fills the capacity.
func TestShrinkBetweenTasks(t *testing.T) {
	for try := range windowTries(200, 2000) {
		e := build(2)
		var aRunning atomic.Bool
		aRunning.Store(true)
		releaseA := make(chan struct{})
		bDone := make(chan struct{})
		cStarted := make(chan bool, 1)
		mustSubmit(t, e, func() {
			<-releaseA
			aRunning.Store(false)
		})
		mustSubmit(t, e, func() { close(bDone) })
		<-bDone
		if err := e.Resize(1); err != nil {
			t.Fatal(err)
		}
		mustSubmit(t, e, func() { cStarted <- aRunning.Load() })
		// Give a misbehaving worker the chance to start C beside A.
		for range 64 {
			if len(cStarted) > 0 {
				break
			}
			runtime.Gosched()
		}
		close(releaseA)
		var sawA bool
		if !testkit.Within(func() { sawA = <-cStarted }) {
			t.Fatalf("try %d: C never started after A returned", try)
		}
		if sawA {
			e.Close()
			t.Fatalf("try %d: C started while A ran, after Resize(1) returned", try)
		}
		if err := closeWithin(e, testkit.FailBound); err != nil {
			t.Fatalf("try %d: close = %v", try, err)
		}
	}
}

// TestNoTaskWaitsBesideAFreeSlot: capacity 2; a short unit runs and ends;
// then X and Y are submitted back to back, and X waits for Y. With a slot
// free, Y must start; a lost wake-up leaves it queued for good, with
// Running()=1, Waiting()=1, Free()=1.
func TestNoTaskWaitsBesideAFreeSlot(t *testing.T) {
	for try := range windowTries(200, 2000) {
		e := build(2)
		first := make(chan struct{})
		mustSubmit(t, e, func() { close(first) })
		<-first
		xDone := submitXWaitingForY(t, e)
		mustFinish(t, e, xDone, fmt.Sprintf("try %d: Y never started", try))
		if err := closeWithin(e, testkit.FailBound); err != nil {
			t.Fatalf("try %d: close = %v", try, err)
		}
	}
}

// TestShutdownNowRacingReopen: an abandoning close and a Reopen at the
// same time both return, whichever wins.
func TestShutdownNowRacingReopen(t *testing.T) {
	for try := range windowTries(500, 3000) {
		e := build(2)
		if try%2 == 1 {
			mustSubmit(t, e, func() {})
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			e.Reopen()
		}()
		if !testkit.Within(func() { e.CloseNow() }) {
			t.Fatalf("try %d: CloseNow racing Reopen did not return (Closed()=%v)", try, e.Closed())
		}
		<-done
		if err := closeWithin(e, testkit.FailBound); err != nil {
			t.Fatalf("try %d: close = %v", try, err)
		}
	}
}

// TestShutdownRacingReopen: a bounded close racing a Reopen waits for the
// life it closed, which has no unit: it returns nil at once, never when
// its bound passes.
func TestShutdownRacingReopen(t *testing.T) {
	for try := range windowTries(500, 3000) {
		e := build(2)
		done := make(chan struct{})
		go func() {
			defer close(done)
			e.Reopen()
		}()
		err := closeWithin(e, testkit.FailBound)
		<-done
		if err != nil {
			t.Fatalf("try %d: a bounded close racing Reopen on an idle engine = %v (Running()=%d)", try, err, e.Running())
		}
		if err := closeWithin(e, testkit.FailBound); err != nil {
			t.Fatalf("try %d: final close = %v", try, err)
		}
	}
}
