package pool_test

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// mustNew builds a pool or fails the test, and releases it (waiting for
// its workers) when the test ends.
func mustNew(t testing.TB, size int, opts ...pool.Option) *pool.Pool {
	t.Helper()
	p, err := pool.New(size, opts...)
	if err != nil {
		t.Fatalf("New(%d) = %v", size, err)
	}
	t.Cleanup(func() {
		if err := shutdownWithin(p, time.Minute); err != nil {
			t.Errorf("cleanup: Shutdown = %v", err)
		}
	})
	return p
}

// tracker counts how many of its tasks run at once, the most that ever
// did, and how many times each task ran.
type tracker struct {
	now, peak atomic.Int64
	mu        sync.Mutex
	runs      map[int]int
}

func newTracker() *tracker { return &tracker{runs: map[int]int{}} }

// task returns a task with id that holds until gate is closed (nil: does
// not hold).
func (tr *tracker) task(id int, gate <-chan struct{}) func() {
	return func() {
		n := tr.now.Add(1)
		for {
			p := tr.peak.Load()
			if n <= p || tr.peak.CompareAndSwap(p, n) {
				break
			}
		}
		tr.mu.Lock()
		tr.runs[id]++
		tr.mu.Unlock()
		if gate != nil {
			<-gate
		}
		tr.now.Add(-1)
	}
}

func (tr *tracker) ran(id int) int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.runs[id]
}

func (tr *tracker) total() int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	n := 0
	for _, c := range tr.runs {
		n += c
	}
	return n
}

// checkGauges compares the pool's gauges with what the test expects.
func checkGauges(t testing.TB, p gauged, capacity, running, waiting int) {
	t.Helper()
	if got := p.Cap(); got != capacity {
		t.Errorf("Cap() = %d, want %d", got, capacity)
	}
	if got := p.Stats().Running; got != running {
		t.Errorf("Running() = %d, want %d", got, running)
	}
	if got := p.Stats().Waiting; got != waiting {
		t.Errorf("Waiting() = %d, want %d", got, waiting)
	}
	if got, want := free(p), max(0, capacity-running); got != want {
		t.Errorf("Free() = %d, want %d", got, want)
	}
}

func runtimeGoexit() { runtime.Goexit() }

// bg is the context of calls that have no deadline of their own.
var bg = context.Background()

// defaultQueueSize is the queue a pool has without WithQueueSize.
const defaultQueueSize = 1024

// shutdownWithin is Shutdown bounded by d.
func shutdownWithin(p interface{ Shutdown(context.Context) error }, d time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return p.Shutdown(ctx)
}

// gauged is what Pool and FuncPool report.
type gauged interface {
	Cap() int
	Stats() pool.Stats
}

// free is Cap less the tasks running, as ants' Free is.
func free(p gauged) int {
	return max(0, p.Cap()-p.Stats().Running)
}
