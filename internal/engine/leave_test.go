//go:build go1.25

package engine

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestHandlerAfterLeaveWaitsOutside: a worker that leaves after its unit
// panicked (LeaveOnPanic) is out of the books before the panic handler
// runs, so a Submit from the handler that finds no room waits as an
// outsider's does. Taken for a call from inside a unit, it would run its
// unit in a slot its goroutine no longer holds, beside the unit that
// holds the pool's only slot.
func TestHandlerAfterLeaveWaitsOutside(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var e Engine[func()]
		ctx := context.Background()
		var bRunning, beside atomic.Bool
		hold := make(chan struct{})
		handled := make(chan error, 1)
		e.Init(1, func(f func()) { f() }, Config{LeaveOnPanic: true, PanicHandler: func(any) {
			// The slot the panicking unit gave back goes to B, which
			// holds it; X then finds no room.
			if err := e.Submit(ctx, func() { bRunning.Store(true); <-hold; bRunning.Store(false) }); err != nil {
				handled <- err
				return
			}
			handled <- e.Submit(ctx, func() { beside.Store(bRunning.Load()) })
		}})
		if err := e.Submit(ctx, func() { panic("leave") }); err != nil {
			t.Fatal(err)
		}
		// Long enough for the waiting submitter's stall check to ask
		// whether it runs inside a unit, several times.
		time.Sleep(5 * stallCheck)
		synctest.Wait()
		if !bRunning.Load() {
			t.Fatal("B did not start on the slot the panicking unit gave back")
		}
		close(hold)
		if err := <-handled; err != nil {
			t.Fatal(err)
		}
		<-e.Close()
		if beside.Load() {
			t.Error("the panic handler's Submit ran its unit beside B, at capacity 1: a worker out of the books was taken for the caller's")
		}
	})
}
