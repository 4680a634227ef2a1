//go:build go1.25

package autoscale_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/pool"
)

// TestDrivesAKeyedPool: AUTO-13. The controller drives a pool whose work
// is keyed as it drives any pool: each key with work is one task of the
// pool (its turn), so twenty keys queued behind one busy worker grow the
// pool as twenty plain tasks do.
func TestDrivesAKeyedPool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(1, pool.WithTimings())
		defer p.Close()
		kd, err := pool.NewKeyed[string](p)
		if err != nil {
			t.Fatal(err)
		}
		c, err := autoscale.New(p, autoscale.WithMax(16), autoscale.WithTick(time.Second))
		if err != nil {
			t.Fatal(err)
		}
		gate := make(chan struct{})
		defer close(gate)
		for i := range 20 {
			for range 3 { // each key has a backlog too: it needs one worker, not three
				if err := kd.Submit(context.Background(), fmt.Sprint("key", i), func() { <-gate }); err != nil {
					t.Fatal(err)
				}
			}
		}
		var sizes []int
		for range 5 {
			time.Sleep(time.Second)
			synctest.Wait()
			sizes = append(sizes, c.Tick().To)
		}
		want := []int{4, 16, 16, 16, 16}
		if !slices.Equal(sizes, want) {
			t.Fatalf("sizes over 5 ticks = %v, want %v (as for twenty plain tasks)", sizes, want)
		}
		if s := p.Stats(); s.Running != 16 || s.Keys != 20 {
			t.Errorf("Running, Keys = %d, %d, want 16, 20", s.Running, s.Keys)
		}
	})
}

// TestOneHotKeyDoesNotGrowThePool: AUTO-13. A single key's backlog is
// served one task at a time whatever the size: it is not queued work that
// more workers could start, and the controller does not grow for it.
func TestOneHotKeyDoesNotGrowThePool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(1, pool.WithTimings())
		defer p.Shutdown(context.Background()) //nolint:errcheck // the bubble waits for the key's last tasks
		kd, err := pool.NewKeyed[int](p, pool.WithUnboundedQueue())
		if err != nil {
			t.Fatal(err)
		}
		c, err := autoscale.New(p, autoscale.WithMax(16), autoscale.WithTick(time.Second))
		if err != nil {
			t.Fatal(err)
		}
		for range 200 {
			if err := kd.Submit(context.Background(), 1, func() { time.Sleep(50 * time.Millisecond) }); err != nil {
				t.Fatal(err)
			}
		}
		for range 8 {
			time.Sleep(time.Second)
			synctest.Wait()
			if d := c.Tick(); d.To > 1 {
				t.Fatalf("one hot key grew the pool to %d (%s: %s)", d.To, d.Cause, d.Reason)
			}
		}
	})
}
