//go:build go1.25

package engine

import (
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// The engine's life and its reopening (C1-C4), which package pool does
// not offer (package ants does, as Reboot), in synctest bubbles: a wait
// that ends, ends once every goroutine of the bubble is blocked.

// TestReopen: a closed engine reopens with its capacity, after its old
// workers have exited, and runs units again.
func TestReopen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEngine(t, 3)
		e.Reopen() // open: no-op
		if err := e.Resize(2); err != nil {
			t.Fatal(err)
		}
		e.Close()
		e.Reopen()
		if e.Stats().Closed {
			t.Fatal("Stats().Closed = true after Reopen")
		}
		var ran atomic.Int32
		for range 5 {
			if err := e.Submit(bg, func() { ran.Add(1) }); err != nil {
				t.Fatalf("Submit after Reopen = %v", err)
			}
		}
		synctest.Wait()
		if ran.Load() != 5 || e.Cap() != 2 {
			t.Errorf("after Reopen: ran %d, Cap %d; want 5, 2", ran.Load(), e.Cap())
		}
	})
}

// TestReopenFromTask: a unit that closes its own engine and reopens it
// cannot wait for itself. Reopen returns at once, and the engine reopens
// as soon as the unit has returned.
func TestReopenFromTask(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEngine(t, 2)
		returned := make(chan struct{})
		mustSubmit(t, e, func() {
			e.Close()
			e.Reopen()
			close(returned)
		})
		<-returned
		synctest.Wait()
		if e.Stats().Closed {
			t.Fatal("Closed = true once the unit that called Reopen has returned")
		}
		ran := make(chan struct{})
		mustSubmit(t, e, func() { close(ran) })
		<-ran
	})
}

// TestReopenThenCloseFromTask: a Close after a Reopen that has not yet
// taken effect wins: the engine stays closed.
func TestReopenThenCloseFromTask(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEngine(t, 2)
		mustSubmit(t, e, func() {
			e.Close()
			e.Reopen()
			e.Close()
		})
		synctest.Wait()
		if !e.Stats().Closed {
			t.Fatal("Closed = false after Close, Reopen, Close from a unit")
		}
	})
}

// TestReopenWaitsThenOpens: a Reopen that has to wait for a running unit
// returns with the engine open: the end of the old life reopens the engine
// before it lets the waiting Reopen go.
func TestReopenWaitsThenOpens(t *testing.T) {
	for range windowTries(20, 200) {
		synctest.Test(t, func(t *testing.T) {
			e := newEngine(t, 1)
			hold := make(chan struct{})
			mustSubmit(t, e, func() { <-hold })
			e.Close()
			openAfter := make(chan bool, 1)
			go func() {
				e.Reopen()
				// The gate first, read without the engine's lock (as ants'
				// IsClosed reads it): Stats and Submit's slow path would
				// wait for the critical section that reopens.
				openAfter <- !e.Closed() && !e.Stats().Closed && e.Submit(bg, func() {}) == nil
			}()
			synctest.Wait()
			close(hold)
			if !<-openAfter {
				t.Fatal("Reopen returned with the engine still closed")
			}
		})
	}
}

// TestReopenQueueWorks: a reopened engine queues again.
func TestReopenQueueWorks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEngine(t, 1, func(c *Config) { c.Nonblocking = true })
		e.Close()
		e.Reopen()
		hold := make(chan struct{})
		defer close(hold)
		mustSubmit(t, e, func() { <-hold })
		if err := e.Submit(bg, func() {}); err != nil {
			t.Errorf("Submit to a reopened engine with its one worker busy = %v, want it queued", err)
		}
	})
}

// TestLifeDone: Close returns a channel that is closed when the units of
// the life it closed have finished, and a Reopen meanwhile is neither
// undone nor waited for.
func TestLifeDone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := build(1)
		hold := make(chan struct{})
		if err := e.Submit(bg, func() { <-hold }); err != nil {
			t.Fatal(err)
		}
		done := e.Close()
		if !e.Stats().Closed {
			t.Fatal("Close did not close the engine")
		}
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("the channel closed while a unit of its life runs")
		default:
		}
		rebooted := make(chan struct{})
		go func() { e.Reopen(); close(rebooted) }()
		close(hold)
		<-done
		<-rebooted
		if e.Stats().Closed {
			t.Error("the engine is closed after the Reopen")
		}
		if err := e.Submit(bg, func() {}); err != nil {
			t.Errorf("Submit after the Reopen: %v", err)
		}
		e.Close()
		<-e.Close() // a second call waits for the same, ended, life
		var zero Engine[func()]
		<-zero.Close()
	})
}
