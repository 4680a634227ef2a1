//go:build go1.25

package ants_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/ants"
	"github.com/poolkit/poolkit/resize"
)

// TestMultiPoolResizeBounds: a multi-pool takes every capacity its
// sub-pools can share, from one slot each to resize.MaxSize each, and its
// error for one outside names the valid range.
func TestMultiPoolResizeBounds(t *testing.T) {
	k := 4
	if math.MaxInt/resize.MaxSize < k {
		t.Skip("k × resize.MaxSize does not fit an int")
	}
	mp, err := ants.NewMultiPool(k, 1, ants.RoundRobin)
	if err != nil {
		t.Fatal(err)
	}
	defer mp.ReleaseTimeout(time.Second)
	hi := k * resize.MaxSize
	if err := mp.Resize(hi); err != nil || mp.Cap() != hi {
		t.Errorf("Resize(%d), resize.MaxSize for each of %d sub-pools: %v, Cap %d", hi, k, err, mp.Cap())
	}
	for _, n := range []int{hi + 1, k - 1, 0} {
		err := mp.Resize(n)
		if want := fmt.Sprintf("ants: invalid capacity %d for %d sub-pools: want %d to %d", n, k, k, hi); !errors.Is(err, ants.ErrInvalidPoolSize) || err.Error() != want || mp.Cap() != hi {
			t.Errorf("Resize(%d): %v, Cap %d; want %q, Cap %d", n, err, mp.Cap(), want, hi)
		}
	}
}

// TestMultiPoolCapacityIsTheSum checks that Cap is the sum of the
// sub-pools' capacities; that Resize, which ants lacks, sets that sum,
// spread over the sub-pools; and that Tune, as ants' does, tunes each
// sub-pool to its argument.
func TestMultiPoolCapacityIsTheSum(t *testing.T) {
	mp, err := ants.NewMultiPool(4, 5, ants.RoundRobin)
	if err != nil {
		t.Fatal(err)
	}
	var _ resize.Resizer = mp
	if mp.Cap() != 20 {
		t.Fatalf("Cap %d, want 20", mp.Cap())
	}
	for _, n := range []int{10, 7, 4, 9, 64} {
		if err := mp.Resize(n); err != nil || mp.Cap() != n {
			t.Errorf("Resize(%d): %v, Cap %d", n, err, mp.Cap())
		}
		sum := 0
		for i := range 4 {
			free, _ := mp.FreeByIndex(i)
			sum += free
			if free < n/4 || free > n/4+1 {
				t.Errorf("Resize(%d): sub-pool %d has %d slots, want %d or %d", n, i, free, n/4, n/4+1)
			}
		}
		if sum != n {
			t.Errorf("Resize(%d): sub-pools hold %d slots", n, sum)
		}
	}
	if err := mp.Resize(3); !errors.Is(err, ants.ErrInvalidPoolSize) || mp.Cap() != 64 {
		t.Errorf("Resize(3) over 4 sub-pools: %v, Cap %d; want ErrInvalidPoolSize, 64", err, mp.Cap())
	}
	mp.Tune(6)
	for i := range 4 {
		if free, _ := mp.FreeByIndex(i); free != 6 {
			t.Errorf("Tune(6): sub-pool %d has %d slots, want 6", i, free)
		}
	}
	if mp.Cap() != 24 {
		t.Errorf("Tune(6) over 4 sub-pools: Cap %d, want 24, as ants reports", mp.Cap())
	}
	mp.Tune(0)
	if mp.Cap() != 24 {
		t.Errorf("Tune(0): Cap %d, want 24 (ignored)", mp.Cap())
	}
	if err := mp.ReleaseTimeout(time.Second); err != nil {
		t.Fatal(err)
	}
	if err := mp.Resize(8); !errors.Is(err, ants.ErrPoolClosed) || mp.Cap() != 24 {
		t.Errorf("Resize on a released multi-pool: %v, Cap %d; want ErrPoolClosed, 24", err, mp.Cap())
	}
	mp.Tune(2) // as in ants: the sub-pools reopen with it
	mp.Reboot()
	if mp.Cap() != 8 || mp.IsClosed() {
		t.Errorf("Tune(2) on a released multi-pool, then Reboot: Cap %d, closed %v; want 8, open", mp.Cap(), mp.IsClosed())
	}
	if err := mp.ReleaseTimeout(time.Second); err != nil {
		t.Fatal(err)
	}
}

// TestMultiPoolLifecycle runs what ants' TestMultiPool checks: full,
// released, rebooted and full again, for both strategies; a release that
// times out, and a second one that returns ErrPoolClosed at once.
func TestMultiPoolLifecycle(t *testing.T) {
	for _, lbs := range []ants.LoadBalancingStrategy{ants.RoundRobin, ants.LeastTasks} {
		synctest.Test(t, func(t *testing.T) {
			mp, err := ants.NewMultiPool(10, 5, lbs, ants.WithNonblocking(true))
			if err != nil {
				t.Fatal(err)
			}
			for round := range 2 {
				stop := make(chan struct{})
				for i := range 50 {
					if err := mp.Submit(func() { <-stop }); err != nil {
						t.Fatalf("round %d, task %d: %v", round, i, err)
					}
				}
				if mp.Running() != 50 || mp.Free() != 0 || mp.Waiting() != 0 {
					t.Fatalf("round %d: Running %d, Free %d, Waiting %d; want 50, 0, 0", round, mp.Running(), mp.Free(), mp.Waiting())
				}
				for i := range 10 {
					if n, _ := mp.RunningByIndex(i); n != 5 {
						t.Errorf("round %d: sub-pool %d runs %d, want 5", round, i, n)
					}
				}
				if err := mp.Submit(func() {}); err != ants.ErrPoolOverload {
					t.Errorf("Submit to a full non-blocking multi-pool: %v, want ErrPoolOverload", err)
				}
				if _, err := mp.WaitingByIndex(10); err != ants.ErrInvalidPoolIndex {
					t.Errorf("WaitingByIndex(10): %v", err)
				}
				if err := mp.ReleaseTimeout(time.Second); !errors.Is(err, ants.ErrTimeout) {
					t.Errorf("ReleaseTimeout with tasks running: %v, want ErrTimeout", err)
				}
				if err := mp.ReleaseContext(context.Background()); err != ants.ErrPoolClosed {
					t.Errorf("a second release: %v, want ErrPoolClosed", err)
				}
				close(stop)
				synctest.Wait()
				if err := mp.Submit(func() {}); err != ants.ErrPoolClosed || !mp.IsClosed() || mp.Running() != 0 {
					t.Errorf("after release: Submit %v, closed %v, Running %d", err, mp.IsClosed(), mp.Running())
				}
				mp.Reboot()
				if mp.IsClosed() {
					t.Fatal("Reboot left the multi-pool closed")
				}
			}
			if err := mp.ReleaseTimeout(time.Second); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestMultiPoolRoundRobinFallsBack checks that a round-robin pick that is
// full hands the task to the least busy sub-pool.
func TestMultiPoolRoundRobinFallsBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mp, _ := ants.NewMultiPoolWithFuncGeneric(2, 2, func(c chan struct{}) { <-c }, ants.RoundRobin, ants.WithNonblocking(true))
		held, early := make(chan struct{}), make(chan struct{})
		// Sub-pools 0, 1, 0 by turn.
		for i, c := range []chan struct{}{held, early, held} {
			if err := mp.Invoke(c); err != nil {
				t.Fatalf("task %d: %v", i, err)
			}
			if i == 1 {
				n0, _ := mp.RunningByIndex(0)
				n1, _ := mp.RunningByIndex(1)
				if n0 != 1 || n1 != 1 {
					t.Errorf("after two tasks round-robin, the sub-pools run %d and %d, want 1 and 1", n0, n1)
				}
			}
		}
		close(early) // sub-pool 1's task returns
		synctest.Wait()
		if err := mp.Invoke(held); err != nil { // sub-pool 1's turn
			t.Fatal(err)
		}
		// Sub-pool 0's turn, but it is full: the task goes to sub-pool 1,
		// which has room for one.
		if err := mp.Invoke(held); err != nil {
			t.Errorf("Invoke when its turn's sub-pool is full and the other has room: %v, want nil", err)
		}
		if n, _ := mp.RunningByIndex(1); n != 2 {
			t.Errorf("sub-pool 1 runs %d, want 2", n)
		}
		if err := mp.Invoke(held); err != ants.ErrPoolOverload {
			t.Errorf("Invoke with every sub-pool full: %v, want ErrPoolOverload", err)
		}
		close(held)
		if err := mp.ReleaseTimeout(time.Second); err != nil {
			t.Fatal(err)
		}
	})
}

// TestMultiPoolWithFuncNil checks that a nil argument reaches the function.
func TestMultiPoolWithFuncNil(t *testing.T) {
	var nils atomic.Int32
	mp, err := ants.NewMultiPoolWithFunc(3, 1, func(a any) {
		if a == nil {
			nils.Add(1)
		}
	}, ants.LeastTasks)
	if err != nil {
		t.Fatal(err)
	}
	for range 6 {
		if err := mp.Invoke(nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := mp.ReleaseTimeout(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if nils.Load() != 6 {
		t.Errorf("the function saw nil %d times, want 6", nils.Load())
	}
	if err := mp.ReleaseTimeout(time.Second); err != ants.ErrPoolClosed {
		t.Errorf("a second ReleaseTimeout: %v, want ErrPoolClosed", err)
	}
	mp.Reboot()
	//lint:ignore SA1012 the nil context is the input under test
	if err := mp.ReleaseContext(nil); err != nil || !mp.IsClosed() {
		t.Errorf("ReleaseContext(nil): %v, closed %v; want nil, closed, as in ants", err, mp.IsClosed())
	}
	mp.Reboot() // waits for the sub-pools' lives to end
	if err := mp.ReleaseTimeout(time.Second); err != nil {
		t.Fatal(err)
	}
}

// TestMultiPoolRebootFromTask checks that Reboot called from a task of the
// multi-pool returns, and the multi-pool is open once the task returns.
func TestMultiPoolRebootFromTask(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mp *ants.MultiPool
		returned := make(chan struct{})
		mp, _ = ants.NewMultiPool(2, 1, ants.RoundRobin)
		_ = mp.Submit(func() {
			// It cannot see this task finish: ErrTimeout after the timeout.
			if err := mp.ReleaseTimeout(time.Millisecond); !errors.Is(err, ants.ErrTimeout) {
				t.Errorf("ReleaseTimeout from a task: %v, want ErrTimeout", err)
			}
			mp.Reboot()
			close(returned)
		})
		<-returned
		synctest.Wait()
		if mp.IsClosed() {
			t.Fatal("closed after the task that rebooted it returned")
		}
		if err := mp.Submit(func() {}); err != nil {
			t.Errorf("Submit after the reboot: %v", err)
		}
		if err := mp.ReleaseTimeout(time.Second); err != nil {
			t.Fatal(err)
		}
	})
}

// TestMultiPoolConstructorErrors checks ants' constructor errors.
func TestMultiPoolConstructorErrors(t *testing.T) {
	if _, err := ants.NewMultiPool(0, 1, ants.RoundRobin); err != ants.ErrInvalidMultiPoolSize {
		t.Errorf("0 sub-pools: %v", err)
	}
	if _, err := ants.NewMultiPool(2, 1, 3); err != ants.ErrInvalidLoadBalancingStrategy {
		t.Errorf("strategy 3: %v", err)
	}
	if _, err := ants.NewMultiPoolWithFunc(2, 1, nil, ants.RoundRobin); err != ants.ErrLackPoolFunc {
		t.Errorf("nil function: %v", err)
	}
}

// TestMultiPoolReleaseRacingReboot checks that a release racing several
// Reboots leaves the multi-pool either closed or open over open sub-pools:
// the release must not close again a sub-pool that a Reboot reopened.
func TestMultiPoolReleaseRacingReboot(t *testing.T) {
	for try := range 3000 {
		mp, err := ants.NewMultiPool(2, 1, ants.RoundRobin)
		if err != nil {
			t.Fatal(err)
		}
		mp.Reboot()
		start := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() { <-start; _ = mp.ReleaseContext(context.Background()) })
		for range 3 {
			wg.Go(func() { <-start; mp.Reboot() })
		}
		close(start)
		wg.Wait()
		if !mp.IsClosed() {
			for i := range 2 {
				if err := mp.Submit(func() {}); err != nil {
					t.Fatalf("try %d: the multi-pool is open, but task %d was refused: %v", try, i, err)
				}
			}
		} else {
			mp.Reboot() // waits for the closed lives to end
		}
		if err := mp.ReleaseTimeout(5 * time.Second); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMultiPoolReleaseWaitsForEverySubPool: a multi-pool's ReleaseTimeout
// waits for every sub-pool, not only the first: with the first idle and
// the second running a task, it times out.
func TestMultiPoolReleaseWaitsForEverySubPool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mp, err := ants.NewMultiPool(2, 1, ants.RoundRobin)
		if err != nil {
			t.Fatal(err)
		}
		stop := make(chan struct{})
		if err := mp.Submit(func() {}); err != nil { // the first sub-pool: done at once
			t.Fatal(err)
		}
		if err := mp.Submit(func() { <-stop }); err != nil { // the second: held
			t.Fatal(err)
		}
		synctest.Wait()
		if n, _ := mp.RunningByIndex(1); n != 1 {
			t.Fatalf("the second sub-pool runs %d tasks, want 1", n)
		}
		if err := mp.ReleaseTimeout(time.Second); !errors.Is(err, ants.ErrTimeout) {
			t.Errorf("ReleaseTimeout with the second sub-pool busy: %v, want ErrTimeout", err)
		}
		close(stop)
		synctest.Wait()
	})
}
