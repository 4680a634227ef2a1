package spectest

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing/synctest"
	"time"
)

var constructionClauses = []Clause{
	{ID: "NEW-1", Level: Must, Slug: "invalid-size",
		Title: "A size below 1 is refused with an error, never taken to mean unlimited.",
		Run: func(c *Case) {
			for _, n := range []int{0, -1} {
				p, err := c.newRaw(Config{Size: n})
				if err == nil {
					c.T.Errorf("New(size %d) returned a pool and no error", n)
					ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
					_ = p.Shutdown(ctx)
					cancel()
				}
			}
		}},
	{ID: "NEW-2", Level: Should, Slug: "lazy-workers",
		Title: "Building a pool starts at most a few goroutines: workers start as work arrives.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				before := runtime.NumGoroutine()
				c.New(Config{Size: 64})
				synctest.Wait()
				if d := runtime.NumGoroutine() - before; d > 4 {
					c.T.Errorf("a new pool of 64 started %d goroutines, want at most 4", d)
				}
			})
		}},
	{ID: "NEW-3", Level: Must, Slug: "initial-state", Needs: []Capability{Resize},
		Title: "A new pool reports the capacity it was built with, and no running or waiting work.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 3})
				synctest.Wait()
				if got := asResizer(p).Cap(); got != 3 {
					c.T.Errorf("Cap() = %d, want 3", got)
				}
				if g := asGauges(p); g != nil && (g.Running() != 0 || g.Waiting() != 0) {
					c.T.Errorf("Running() = %d, Waiting() = %d on a new pool, want 0, 0", g.Running(), g.Waiting())
				}
			})
		}},
}

var submitClauses = []Clause{
	{ID: "SUB-1", Level: Must, Slug: "nil-task",
		Title: "Submit(nil) returns an error; it neither panics nor takes the pool down.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 2})
				if err := submit(p, nil); err == nil {
					c.T.Error("Submit(nil) = nil, want an error")
				}
				synctest.Wait()
				tr := newTracker()
				if err := submit(p, tr.task(1, nil)); err != nil {
					c.T.Fatalf("Submit after Submit(nil) = %v", err)
				}
				synctest.Wait()
				if tr.total() != 1 {
					c.T.Error("the pool did not run a task after Submit(nil)")
				}
			})
		}},
	{ID: "SUB-2", Level: Must, Slug: "backpressure",
		Title: "A blocking pool accepts at most its capacity plus a bounded queue, then Submit blocks until a task finishes, and the task then runs.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 2})
				tr := newTracker()
				gate := c.gate()
				s := c.saturate(p, tr, gate, 1, true)
				open(gate)
				if err := <-s.blocked[0]; err != nil {
					c.T.Fatalf("blocked Submit = %v after tasks finished, want nil", err)
				}
				synctest.Wait()
				if tr.total() != s.accepted+1 {
					c.T.Errorf("%d tasks ran, want %d", tr.total(), s.accepted+1)
				}
			})
		}},
	{ID: "SUB-3", Level: Must, Slug: "nonblocking-overload", Needs: []Capability{Nonblocking},
		Title: "A saturated non-blocking pool rejects at once with an error matching resize.ErrOverload, and the rejected task never runs.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 2, Nonblocking: true})
				tr := newTracker()
				gate := c.gate()
				defer open(gate)
				for id := range 10000 {
					err := submit(p, tr.task(id, gate))
					if err == nil {
						continue
					}
					if !isOverload(err) {
						c.T.Fatalf("Submit = %v, want nil or an error matching resize.ErrOverload", err)
					}
					synctest.Wait()
					if tr.ran(id) != 0 {
						c.T.Errorf("rejected task %d ran", id)
					}
					return
				}
				c.T.Error("10000 gated tasks were accepted without an error matching resize.ErrOverload: the pool cannot be saturated")
			})
		}},
	{ID: "SUB-4", Level: Should, Slug: "max-blocking", Needs: []Capability{MaxBlocking},
		Title: "With a limit of n blocked submitters, the next submission is rejected with an error matching resize.ErrOverload.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 1, MaxBlocking: 2})
				tr := newTracker()
				gate := c.gate()
				defer open(gate)
				c.saturate(p, tr, gate, 2, false)
				if err := submit(p, tr.task(-1, gate)); !isOverload(err) {
					c.T.Errorf("Submit with 2 of 2 submitters blocked = %v, want an error matching resize.ErrOverload", err)
				}
			})
		}},
	{ID: "SUB-5", Level: Must, Slug: "context-expires", Needs: []Capability{SubmitContext},
		Title: "A submission blocked past its context's end returns ctx.Err() at that moment, and its task never runs.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 1})
				tr := newTracker()
				gate := c.gate()
				s := c.saturate(p, tr, gate, 1, false)
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				start := time.Now()
				err := asCtx(p).SubmitContext(ctx, tr.task(-1, nil))
				if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != 2*time.Second {
					c.T.Errorf("SubmitContext = %v after %v, want context.DeadlineExceeded after 2s", err, time.Since(start))
				}
				open(gate)
				<-s.blocked[0]
				synctest.Wait()
				if tr.ran(-1) != 0 {
					c.T.Error("the task of the expired submission ran")
				}
			})
		}},
	{ID: "SUB-6", Level: Must, Slug: "context-done", Needs: []Capability{SubmitContext},
		Title: "A submission whose context is already done returns ctx.Err(), even with room, and its task never runs.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 2})
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				var ran atomic.Bool
				if err := asCtx(p).SubmitContext(ctx, func() { ran.Store(true) }); !errors.Is(err, context.Canceled) {
					c.T.Errorf("SubmitContext(canceled ctx) = %v, want context.Canceled", err)
				}
				synctest.Wait()
				if ran.Load() {
					c.T.Error("the task of the canceled submission ran")
				}
			})
		}},
	{ID: "SUB-7", Level: Must, Slug: "same-task-twice",
		Title: "The same func value submitted k times runs k times.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 2})
				var n atomic.Int32
				f := func() { n.Add(1) }
				for range 5 {
					if err := submit(p, f); err != nil {
						c.T.Fatal(err)
					}
				}
				synctest.Wait()
				if n.Load() != 5 {
					c.T.Errorf("a task submitted 5 times ran %d times", n.Load())
				}
			})
		}},
	{ID: "SUB-8", Level: Should, Slug: "submit-from-task",
		Title: "A task may submit to its own pool while it has room, without deadlock.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 2})
				inner := make(chan error, 1)
				var ran atomic.Bool
				if err := submit(p, func() { inner <- submit(p, func() { ran.Store(true) }) }); err != nil {
					c.T.Fatal(err)
				}
				synctest.Wait()
				select {
				case err := <-inner:
					if err != nil {
						c.T.Errorf("Submit from inside a task = %v", err)
					}
				default:
					c.T.Fatal("Submit from inside a task is still blocked with a free worker")
				}
				if !ran.Load() {
					c.T.Error("the task submitted from a task did not run")
				}
			})
		}},
}
