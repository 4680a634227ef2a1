package bench

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"

	"github.com/poolkit/poolkit/resize"
)

// TestMain checks for leaked goroutines. ants starts a default pool with
// two goroutines when it is imported; those exist before any test runs and
// are ignored by taking a baseline.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m, goleak.IgnoreCurrent()) }

// TestContenders: every contender runs every submitted task exactly once,
// after a resize where it has one, and shuts down cleanly, so the
// benchmarks compare like with like.
func TestContenders(t *testing.T) {
	for _, c := range contenders() {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.make(4)
			if err != nil {
				t.Fatal(err)
			}
			if rs, ok := r.(resize.Resizer); ok {
				if err := rs.Resize(2); err != nil {
					t.Fatal(err)
				}
			}
			var n atomic.Int64
			var wg sync.WaitGroup
			for range 1000 {
				wg.Add(1)
				if err := r.Submit(func() { n.Add(1); wg.Done() }); err != nil {
					t.Fatal(err)
				}
			}
			wg.Wait()
			if err := r.Shutdown(context.Background()); err != nil {
				t.Fatal(err)
			}
			if n.Load() != 1000 {
				t.Errorf("%s ran %d of 1000 tasks", c.name, n.Load())
			}
		})
	}
}
