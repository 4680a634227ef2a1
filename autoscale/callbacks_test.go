//go:build go1.25

package autoscale_test

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/internal/misbehave"
	"github.com/poolkit/poolkit/pool"
)

// TestCallbacksMisbehave: a logger, a backlog function or a failure counter
// that panics or calls runtime.Goexit neither ends Run nor stops the
// controller deciding: with the pool's queue behind busy workers, each
// tick still grows it, and Run returns only when its ctx ends.
func TestCallbacksMisbehave(t *testing.T) {
	for _, m := range misbehave.Ways {
		var calls atomic.Int32
		do := func() { calls.Add(1); m.Do() }
		callbacks := map[string]autoscale.Option{
			"logger":   autoscale.WithLogger(slog.New(misbehave.Handler(do))),
			"backlog":  autoscale.WithBacklog(func(context.Context) (int, error) { do(); return 0, nil }),
			"failures": autoscale.WithFailures(func() uint64 { do(); return 0 }),
		}
		for where, opt := range callbacks {
			t.Run(where+" "+m.Name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					calls.Store(0)
					p, _ := pool.New(1, pool.WithTimings())
					defer p.Close()
					c, err := autoscale.New(p, autoscale.WithMax(4), autoscale.WithTick(time.Second), opt)
					if err != nil {
						t.Fatal(err)
					}
					gate := make(chan struct{})
					defer close(gate)
					load(t, p, 8, gate)
					ctx, cancel := context.WithTimeout(context.Background(), 2500*time.Millisecond)
					defer cancel()
					if err := c.Run(ctx); err != context.DeadlineExceeded {
						t.Errorf("Run = %v, want it to end with its ctx", err)
					}
					if n := calls.Load(); n < 2 {
						t.Errorf("the callback was called %d times in two ticks, want 2", n)
					}
					if p.Cap() != 4 {
						t.Errorf("Cap %d after two ticks under a backlog, want 4", p.Cap())
					}
				})
			})
		}
	}
}
