//go:build go1.25

package pool_test

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/poolkit/poolkit/pool"
)

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
			}, append(c.opts, pool.WithIdleTimeout(time.Hour))...)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			submitters := runtime.GOMAXPROCS(0)
			before := pool.WorkersStarted(p)
			var subs sync.WaitGroup
			for range submitters {
				subs.Go(func() {
					for i := range tasks / submitters {
						wg.Add(1)
						if err := p.Invoke(bg, i); err != nil {
							t.Error(err)
							wg.Done()
							return
						}
					}
				})
			}
			subs.Wait()
			wg.Wait()
			if started := pool.WorkersStarted(p) - before; started > size {
				t.Errorf("%d tasks below capacity started %d worker goroutines, want at most Cap, %d", tasks, started, size)
			}
		})
	}
}
