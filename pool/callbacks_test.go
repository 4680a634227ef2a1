//go:build go1.25

package pool_test

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/poolkit/poolkit/internal/misbehave"
	"github.com/poolkit/poolkit/pool"
)

// TestCallbacksMisbehave: a panic handler or a logger that panics or calls
// runtime.Goexit costs the pool nothing: every task submitted runs exactly
// once (or is counted as panicked), the pool keeps its width, and the
// close returns.
func TestCallbacksMisbehave(t *testing.T) {
	for _, m := range misbehave.Ways {
		callbacks := map[string]pool.Option{
			"panic handler": pool.WithPanicHandler(func(any) { m.Do() }),
			"logger":        pool.WithLogger(slog.New(misbehave.Handler(m.Do))),
		}
		for where, opt := range callbacks {
			t.Run(where+" "+m.Name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					p, err := pool.New(2, pool.WithQueueSize(4), opt)
					if err != nil {
						t.Fatal(err)
					}
					var ran atomic.Int32
					const tasks = 40
					for i := range tasks {
						task := func() { ran.Add(1) }
						if i%2 == 0 {
							task = func() { panic("task panicked") }
						}
						if err := p.Submit(bg, task); err != nil {
							t.Fatalf("Submit %d: %v", i, err)
						}
					}
					synctest.Wait()
					if got := ran.Load(); got != tasks/2 {
						t.Errorf("%d of %d returning tasks ran", got, tasks/2)
					}
					if s := p.Stats(); s.Completed != tasks || s.Panicked != tasks/2 || s.Running != 0 {
						t.Errorf("Completed %d, Panicked %d, Running %d; want %d, %d, 0", s.Completed, s.Panicked, s.Running, tasks, tasks/2)
					}
					assertFullWidth(t, p, 2)
					if err := p.Shutdown(context.Background()); err != nil {
						t.Errorf("Shutdown: %v", err)
					}
				})
			})
		}
	}
}
