package autoscale_test

import (
	"context"
	"log/slog"
	"runtime"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/pool"
)

// TestCallbacksMisbehave: a logger, a backlog function or a failure counter
// that panics or calls runtime.Goexit neither ends Run nor stops the
// controller deciding: with the pool's queue behind busy workers, each
// tick still grows it, and Run returns only when its ctx ends.
func TestCallbacksMisbehave(t *testing.T) {
	for _, m := range []struct {
		name string
		do   func()
	}{
		{"panics", func() { panic("callback panicked") }},
		{"calls Goexit", runtime.Goexit},
	} {
		var calls atomic.Int32
		do := func() { calls.Add(1); m.do() }
		callbacks := map[string]autoscale.Option{
			"logger":   autoscale.WithLogger(slog.New(misbehavingHandler{do})),
			"backlog":  autoscale.WithBacklog(func(context.Context) (int, error) { do(); return 0, nil }),
			"failures": autoscale.WithFailures(func() uint64 { do(); return 0 }),
		}
		for where, opt := range callbacks {
			t.Run(where+" "+m.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					calls.Store(0)
					p, _ := pool.New(1)
					defer p.Release()
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

type misbehavingHandler struct{ do func() }

func (h misbehavingHandler) Enabled(context.Context, slog.Level) bool  { return true }
func (h misbehavingHandler) Handle(context.Context, slog.Record) error { h.do(); return nil }
func (h misbehavingHandler) WithAttrs([]slog.Attr) slog.Handler        { return h }
func (h misbehavingHandler) WithGroup(string) slog.Handler             { return h }
