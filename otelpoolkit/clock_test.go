//go:build go1.25

package otelpoolkit_test

// The tests that wait on the clock, in synctest bubbles: a task's sleep
// is the fake clock's, and a wait for a worker is synctest.Wait, not a
// poll. The module's floor (go 1.24) has no testing/synctest; on it these
// tests do not build, and the rest of the package still runs.

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/metricspec"
	"github.com/poolkit/poolkit/pool"
)

func TestHistogramBuckets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, reader, _ := setup(t)
		p, err := pool.New(1, pool.WithTimings())
		if err != nil {
			t.Fatal(err)
		}
		if err := m.WatchPool("p", p); err != nil {
			t.Fatal(err)
		}
		// Durations of a few milliseconds land above the microsecond bounds.
		const n = 5
		for range n {
			if err := p.Submit(context.Background(), func() { time.Sleep(3 * time.Millisecond) }); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		h := find(t, collect(t, reader), metricspec.PoolService, map[string]string{"pool": "p"}).hist
		tm := p.Stats()
		want, sum := metricspec.Counts(&tm.Service, false)
		if !slices.Equal(h.BucketCounts, want) || h.Sum != sum || h.Count != n {
			t.Fatalf("buckets %v sum %v count %d, want %v %v %d", h.BucketCounts, h.Sum, h.Count, want, sum, n)
		}
		// Each task slept 3ms: nothing at or below 1.048576ms, the sixth bound.
		var below uint64
		for i, b := range h.Bounds {
			if b <= 0.001048576 {
				below += h.BucketCounts[i]
			}
		}
		if below != 0 || h.Sum < n*0.003 {
			t.Errorf("%d durations at or below 1ms, sum %vs, for %d tasks of 3ms", below, h.Sum, n)
		}
	})
}

// TestWatchLeavesTimingsAsBuilt: MET-4. Watching a pool or a router
// leaves its timings as its owner built it: off stays off, on stays on.
func TestWatchLeavesTimingsAsBuilt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, _, _ := setup(t)
		for _, timed := range []bool{false, true} {
			var opts []pool.Option
			if timed {
				opts = append(opts, pool.WithTimings())
			}
			p, _ := pool.New(1, opts...)
			name := fmt.Sprint("p", timed)
			if err := m.WatchPool(name, p); err != nil {
				t.Fatal(err)
			}
			if err := p.Submit(context.Background(), func() {}); err != nil {
				t.Fatal(err)
			}
			if err := p.Shutdown(context.Background()); err != nil {
				t.Fatal(err)
			}
			want := uint64(0)
			if timed {
				want = 1
			}
			if n := p.Stats().Service.Count; n != want {
				t.Errorf("a watched pool built with timings %v timed %d tasks of 1, want %d", timed, n, want)
			}
		}
		sys, err := actorpool.New(actorpool.WithWorkers(1))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = sys.Shutdown(context.Background()) }()
		for _, timed := range []bool{false, true} {
			var opts []actorpool.RouterOption
			if timed {
				opts = append(opts, actorpool.WithTimings())
			}
			r, err := actorpool.NewRouter(sys, 1, func() actorpool.Behavior {
				return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) { _ = c.Respond(msg) })
			}, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.WatchRouter(fmt.Sprint("r", timed), r); err != nil {
				t.Fatal(err)
			}
			if _, err := r.Ref().Ask(context.Background(), "x"); err != nil {
				t.Fatal(err)
			}
			// The answer comes before the handler's end is recorded: wait
			// for the worker to finish the turn, then look at both.
			synctest.Wait()
			if st := r.Stats(); st.Timed != timed || st.Service.Count != map[bool]uint64{false: 0, true: 1}[timed] {
				t.Errorf("a watched router built with timings %v: Timed %v, timed %d messages of 1", timed, st.Timed, st.Service.Count)
			}
		}
	})
}
