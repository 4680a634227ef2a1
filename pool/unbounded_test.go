//go:build go1.25

package pool_test

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/poolkit/poolkit/internal/testkit"
	"github.com/poolkit/poolkit/pool"
)

// blockedFuncPool returns a FuncPool of capacity 1 and queue size 1 with an
// unbounded queue, whose one worker is held until the returned function is
// called; it records the order in which arguments run.
func blockedFuncPool(t *testing.T) (p *pool.FuncPool[int], ran func() []int, unblock func()) {
	t.Helper()
	var mu sync.Mutex
	var order []int
	hold := make(chan struct{})
	started := make(chan struct{})
	p, err := pool.NewFunc(1, func(i int) {
		if i < 0 {
			close(started)
			<-hold
			return
		}
		mu.Lock()
		order = append(order, i)
		mu.Unlock()
	}, pool.WithQueueSize(1), pool.WithUnboundedQueue())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Invoke(bg, -1); err != nil {
		t.Fatal(err)
	}
	<-started
	ran = func() []int {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(order)
	}
	return p, ran, func() { close(hold) }
}

func TestUnboundedQueueNeverBlocks(t *testing.T) {
	p, ran, unblock := blockedFuncPool(t)
	const n = 100
	for i := range n {
		if err := p.Invoke(bg, i); err != nil { // would block at i == 1 without the option
			t.Fatalf("Invoke(%d) = %v", i, err)
		}
	}
	if got := p.Stats().Waiting; got != n {
		t.Errorf("Waiting() = %d with %d accepted tasks behind a busy worker", got, n)
	}
	unblock()
	if err := shutdownWithin(p, testkit.FailBound); err != nil {
		t.Fatal(err)
	}
	want := make([]int, n)
	for i := range want {
		want[i] = i
	}
	if got := ran(); !slices.Equal(got, want) {
		t.Errorf("ran %v, want every task once in submission order", got)
	}
}

// TestUnboundedQueueShutdownNow: overflow entries were accepted, so an
// abandoning close returns them, after the queued ones, and none runs.
func TestUnboundedQueueShutdownNow(t *testing.T) {
	p, ran, unblock := blockedFuncPool(t)
	for i := range 10 {
		if err := p.Invoke(bg, i); err != nil {
			t.Fatal(err)
		}
	}
	got := p.ShutdownNow()
	unblock()
	if err := shutdownWithin(p, testkit.FailBound); err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}; !slices.Equal(got, want) {
		t.Errorf("ShutdownNow returned %v, want %v", got, want)
	}
	if r := ran(); len(r) != 0 {
		t.Errorf("tasks %v ran after ShutdownNow returned them", r)
	}
}

// TestUnboundedQueueGracefulClose: a Close runs the overflow entries too,
// in order.
func TestUnboundedQueueGracefulClose(t *testing.T) {
	p, ran, unblock := blockedFuncPool(t)
	for i := range 10 {
		if err := p.Invoke(bg, i); err != nil {
			t.Fatal(err)
		}
	}
	p.Close()
	if err := p.Invoke(bg, 99); !errors.Is(err, pool.ErrClosed) {
		t.Errorf("Invoke after Close = %v, want ErrClosed", err)
	}
	unblock()
	if err := shutdownWithin(p, testkit.FailBound); err != nil {
		t.Fatal(err)
	}
	if got, want := ran(), []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}; !slices.Equal(got, want) {
		t.Errorf("ran %v, want %v", got, want)
	}
}

func TestUnboundedQueueOptionConflicts(t *testing.T) {
	for _, opt := range []pool.Option{pool.WithMaxWaiting(0), pool.WithMaxWaiting(3)} {
		if _, err := pool.New(1, pool.WithUnboundedQueue(), opt); !errors.Is(err, pool.ErrInvalidOption) {
			t.Errorf("New with WithUnboundedQueue and a blocking limit = %v, want ErrInvalidOption", err)
		}
	}
}

// TestUnboundedQueueStatsAddUp: API-24, API-12. Overflow entries are
// accepted, so Submitted counts them whatever becomes of them: run by a
// close's drain or handed back by ShutdownNow, a quiescent pool has
// Submitted == Completed + Returned.
func TestUnboundedQueueStatsAddUp(t *testing.T) {
	for _, now := range []bool{false, true} {
		p, err := pool.New(1, pool.WithQueueSize(1), pool.WithUnboundedQueue())
		if err != nil {
			t.Fatal(err)
		}
		gate := make(chan struct{})
		mustSubmit(t, p, func() { <-gate })
		for range 4 { // one queued, three overflow entries
			mustSubmit(t, p, func() {})
		}
		if now {
			if back := p.ShutdownNow(); len(back) != 4 {
				t.Errorf("ShutdownNow handed back %d tasks, want 4", len(back))
			}
		} else {
			p.Close()
		}
		close(gate)
		if err := shutdownWithin(p, time.Minute); err != nil {
			t.Fatal(err)
		}
		s := p.Stats()
		if s.Submitted != 5 || s.Submitted != s.Completed+s.Returned {
			t.Errorf("ShutdownNow %v: Submitted %d, Completed %d, Returned %d; want 5 = Completed + Returned", now, s.Submitted, s.Completed, s.Returned)
		}
	}
}
