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

// TestRejectionReasons: every refusal is counted once under its reason,
// and the reasons add up to Rejected: overload (nonblocking and full), a
// done context (before submitting, and while blocked), a closed pool.
// Nil tasks and nil contexts are caller errors, not refusals.
func TestRejectionReasons(t *testing.T) { synctest.Test(t, testRejectionReasons) }

func testRejectionReasons(t *testing.T) {
	block := make(chan struct{})
	full, err := pool.New(1, pool.WithQueueSize(0), pool.WithMaxWaiting(0))
	if err != nil {
		t.Fatal(err)
	}
	if err := full.Submit(bg, func() { <-block }); err != nil {
		t.Fatal(err)
	}
	if err := full.Submit(bg, func() {}); !errors.Is(err, pool.ErrOverload) {
		t.Fatalf("Submit to a full nonblocking pool = %v, want ErrOverload", err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := full.Submit(done, func() {}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Submit(done) = %v", err)
	}
	if err := full.Submit(bg, nil); !errors.Is(err, pool.ErrNilTask) {
		t.Fatalf("Submit(nil) = %v", err)
	}
	//lint:ignore SA1012 a nil context is the caller error under test
	if err := full.Submit(nil, func() {}); !errors.Is(err, pool.ErrNilContext) {
		t.Fatalf("Submit(nil) = %v", err)
	}

	// A submitter blocked on a full (blocking) pool whose context ends.
	blocking, err := pool.New(1, pool.WithQueueSize(0))
	if err != nil {
		t.Fatal(err)
	}
	if err := blocking.Submit(bg, func() { <-block }); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	res := make(chan error)
	go func() { res <- blocking.Submit(ctx, func() {}) }()
	synctest.Wait() // the submitter is blocked
	if w := blocking.Stats().Waiting; w != 1 {
		t.Fatalf("waiting %d, want the blocked submitter", w)
	}
	stop()
	if err := <-res; !errors.Is(err, context.Canceled) {
		t.Fatalf("blocked Submit, its context cancelled = %v", err)
	}

	close(block)
	for _, p := range []*pool.Pool{full, blocking} {
		if err := shutdownWithin(p, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	if err := full.Submit(bg, func() {}); !errors.Is(err, pool.ErrClosed) {
		t.Fatalf("Submit after Close = %v", err)
	}

	for _, c := range []struct {
		name                                string
		s                                   pool.Stats
		overload, closed, context, rejected uint64
	}{
		{"full", full.Stats(), 1, 1, 1, 3},
		{"blocking", blocking.Stats(), 0, 0, 1, 1},
	} {
		s := c.s
		if s.RejectedOverload != c.overload || s.RejectedClosed != c.closed || s.RejectedContext != c.context || s.Rejected != c.rejected {
			t.Errorf("%s: rejected overload %d, closed %d, context %d, total %d; want %d, %d, %d, %d", c.name,
				s.RejectedOverload, s.RejectedClosed, s.RejectedContext, s.Rejected, c.overload, c.closed, c.context, c.rejected)
		}
	}
}

// TestRejectionReasonsFuncPool: the same counts for a FuncPool.
func TestRejectionReasonsFuncPool(t *testing.T) {
	block := make(chan struct{})
	p, err := pool.NewFunc(1, func(int) { <-block }, pool.WithQueueSize(0), pool.WithMaxWaiting(0))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Invoke(bg, 1); err != nil {
		t.Fatal(err)
	}
	if err := p.Invoke(bg, 2); !errors.Is(err, pool.ErrOverload) {
		t.Fatalf("Invoke on a full nonblocking pool = %v", err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.Invoke(done, 3); !errors.Is(err, context.Canceled) {
		t.Fatalf("Invoke(done) = %v", err)
	}
	close(block)
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := p.Invoke(bg, 4); !errors.Is(err, pool.ErrClosed) {
		t.Fatalf("Invoke after Close = %v", err)
	}
	if s := p.Stats(); s.RejectedOverload != 1 || s.RejectedContext != 1 || s.RejectedClosed != 1 || s.Rejected != 3 {
		t.Errorf("stats %+v: want one refusal of each reason, 3 in all", s)
	}
}
