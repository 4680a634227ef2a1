//go:build go1.25

package pool_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// TestWaitRoom: API-37. WaitRoom returns at once with the room a pool has,
// waits while it has none, and wakes when a task's worker runs out of
// work, when a Resize grows the pool, and when the pool closes; its
// context bounds it, and a nil one is refused.
func TestWaitRoom(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 3)
		if n, err := p.WaitRoom(bg); n != 3 || err != nil {
			t.Fatalf("WaitRoom on an idle pool of 3 = %d, %v; want 3, nil", n, err)
		}
		gate := make(chan struct{})
		for range 3 {
			if err := p.Submit(bg, func() { <-gate }); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.Submit(bg, func() { time.Sleep(time.Second) }); err != nil { // queued
			t.Fatal(err)
		}
		synctest.Wait()
		ctx, cancel := context.WithTimeout(bg, time.Minute)
		defer cancel()
		if n, err := p.WaitRoom(ctx); n != 0 || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("WaitRoom on a saturated pool bounded by a minute = %d, %v; want 0, DeadlineExceeded", n, err)
		}

		// A finished task frees no room while the queued one takes its
		// slot; room comes when that one is done and its worker idles.
		type result struct {
			n   int
			err error
			at  time.Duration
		}
		start := time.Now()
		got := make(chan result, 1)
		go func() { n, err := p.WaitRoom(bg); got <- result{n, err, time.Since(start)} }()
		synctest.Wait()
		close(gate) // the three held tasks return; the queued one runs a second
		synctest.Wait()
		select {
		case r := <-got:
			if r.err != nil || r.n < 1 || r.n > 2 || r.at != 0 {
				t.Fatalf("WaitRoom as three tasks ended and the queued one started = %d, %v after %v; want 1 or 2 (as the idle workers park), nil, at once", r.n, r.err, r.at)
			}
		default:
			t.Fatal("WaitRoom did not return once two workers were idle")
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if n, err := p.WaitRoom(bg); n != 3 || err != nil {
			t.Fatalf("WaitRoom once idle again = %d, %v; want 3, nil", n, err)
		}

		// A grow makes room.
		hold := make(chan struct{})
		for range 3 {
			if err := p.Submit(bg, func() { <-hold }); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		go func() { n, err := p.WaitRoom(bg); got <- result{n, err, 0} }()
		synctest.Wait()
		if err := p.Resize(5); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		select {
		case r := <-got:
			if r.n != 2 || r.err != nil {
				t.Fatalf("WaitRoom woken by a grow from 3 to 5 = %d, %v; want 2, nil", r.n, r.err)
			}
		default:
			t.Fatal("a grow did not wake WaitRoom")
		}

		// A close wakes a waiter with ErrClosed.
		if err := p.Resize(3); err != nil {
			t.Fatal(err)
		}
		go func() { n, err := p.WaitRoom(bg); got <- result{n, err, 0} }()
		synctest.Wait()
		p.Close()
		synctest.Wait()
		select {
		case r := <-got:
			if !errors.Is(r.err, pool.ErrClosed) {
				t.Fatalf("WaitRoom woken by a close = %d, %v; want ErrClosed", r.n, r.err)
			}
		default:
			t.Fatal("a close did not wake WaitRoom")
		}
		close(hold)
		if _, err := p.WaitRoom(bg); !errors.Is(err, pool.ErrClosed) {
			t.Fatalf("WaitRoom on a closed pool = %v, want ErrClosed", err)
		}
		//lint:ignore SA1012 a nil context is the input under test
		if _, err := p.WaitRoom(nil); !errors.Is(err, pool.ErrNilContext) {
			t.Fatalf("WaitRoom(nil) = %v, want ErrNilContext", err)
		}
	})
}

// TestWaitRoomNeverOverstates: API-37. A feeder that submits only what
// WaitRoom reports never finds its task queued: the room counts a worker
// that is between two tasks, looking for the next, as busy until it
// parks, where reading Running and Waiting one after the other can miss a
// task passing from the queue to it.
func TestWaitRoomNeverOverstates(t *testing.T) {
	p := mustNew(t, 1)
	for i := range 20_000 {
		n, err := p.WaitRoom(bg)
		if err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("round %d: WaitRoom on a pool of 1 = %d, want 1", i, n)
		}
		if err := p.Submit(bg, func() {}); err != nil {
			t.Fatal(err)
		}
		if w := p.Stats().Waiting; w != 0 {
			t.Fatalf("round %d: the task submitted into the room WaitRoom reported waits (Waiting %d)", i, w)
		}
	}
}
