package pool_test

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// goroutinesCreated reads how many goroutines the process has started.
func goroutinesCreated(t *testing.T) uint64 {
	t.Helper()
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		t.Skip("the runtime does not count the goroutines it starts")
	}
	return s[0].Value.Uint64()
}

// TestNoGoroutinePerTaskBelowCapacity: a pool kept below its capacity by
// blocking submitters (no queue, as ants' pools are, and the default
// queue) starts at most Cap worker goroutines in all, however many tasks
// it runs, as long as its capacity does not shrink and no worker expires:
// a worker that gives its slot back is on the idle stack before a
// submitter can take that slot (rule S5), so no submitter finds the slot
// free and no idle worker, and spawns one beside it.
func TestNoGoroutinePerTaskBelowCapacity(t *testing.T) {
	const size, tasks = 50, 20_000
	for _, c := range []struct {
		name string
		opts []pool.Option
	}{
		{"no queue", []pool.Option{pool.WithQueueSize(0)}},
		{"queue", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var wg sync.WaitGroup
			p, err := pool.NewFunc(size, func(int) {
				for range 100 {
					runtime.Gosched() // a task a little longer than a wake-up
				}
				wg.Done()
			}, append(c.opts, pool.WithExpiryDuration(time.Hour))...)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Release()
			submitters := runtime.GOMAXPROCS(0)
			before := goroutinesCreated(t)
			var subs sync.WaitGroup
			for range submitters {
				subs.Go(func() {
					for i := range tasks / submitters {
						wg.Add(1)
						if err := p.Invoke(i); err != nil {
							t.Error(err)
							wg.Done()
							return
						}
					}
				})
			}
			subs.Wait()
			wg.Wait()
			started := goroutinesCreated(t) - before - uint64(submitters)
			// The runtime may start a few of its own (a garbage
			// collector's workers); a goroutine per task would be
			// thousands.
			if limit := uint64(size + 2*runtime.GOMAXPROCS(0) + 8); started > limit {
				t.Errorf("%d tasks below capacity started %d goroutines, want at most %d (Cap %d)", tasks, started, limit, size)
			}
		})
	}
}
