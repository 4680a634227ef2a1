package spectest

import (
	"runtime"
	"sync/atomic"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"
)

// quietPanics gives clauses whose tasks panic a handler, where the pool
// takes one, so that the log stays readable; pools without the option
// report panics their own way.
func (c *Case) quietPanics(cfg Config, h func(any)) Config {
	if c.impl.supports(PanicHandler) {
		cfg.PanicHandler = h
	}
	return cfg
}

// runAtOnce runs n gated tasks side by side, then lets them finish; it
// reports whether all n ran at once, failing the clause if not.
func (c *Case) runAtOnce(p Pool, n int) bool {
	c.T.Helper()
	tr := newTracker()
	gate := c.gate()
	goSubmitGated(p, tr, gate, n)
	synctest.Wait()
	ok := tr.now.Load() == int64(n)
	if !ok {
		c.T.Errorf("%d tasks run at once, want %d: capacity was lost", tr.now.Load(), n)
	}
	open(gate)
	synctest.Wait()
	return ok
}

var panicClauses = []Clause{
	{ID: "PAN-1", Level: Must, Slug: "panic-keeps-capacity",
		Title: "A task that panics neither crashes the process nor costs capacity.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(c.quietPanics(Config{Size: 2}, func(any) {}))
				for range 4 {
					if err := submit(p, func() { panic("spectest") }); err != nil {
						c.T.Fatal(err)
					}
				}
				synctest.Wait()
				c.runAtOnce(p, 2)
			})
		}},
	{ID: "PAN-2", Level: Must, Slug: "panic-handler", Needs: []Capability{PanicHandler},
		Title: "Each panic reaches the configured handler once, with the panic value.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				var got atomic.Int32
				p := c.New(Config{Size: 2, PanicHandler: func(v any) {
					if v == "spectest" {
						got.Add(1)
					}
				}})
				for range 3 {
					if err := submit(p, func() { panic("spectest") }); err != nil {
						c.T.Fatal(err)
					}
				}
				synctest.Wait()
				if got.Load() != 3 {
					c.T.Errorf("handler saw %d of 3 panics", got.Load())
				}
			})
		}},
	{ID: "PAN-3", Level: Must, Slug: "goexit",
		Title: "A task that calls runtime.Goexit costs no capacity, and the pool still closes.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 2})
				for range 4 {
					if err := submit(p, runtime.Goexit); err != nil {
						c.T.Fatal(err)
					}
				}
				synctest.Wait()
				c.runAtOnce(p, 2)
				ctx, cancel := contextWithTimeout(5 * time.Second)
				defer cancel()
				if err := p.Shutdown(ctx); err != nil {
					c.T.Errorf("Shutdown after Goexit tasks = %v", err)
				}
			})
		}},
}

var counterClauses = []Clause{
	{ID: "CNT-1", Level: Must, Slug: "running-counts-tasks", Needs: []Capability{RunningWaiting},
		Title: "Running() counts running tasks, not idle workers, and never exceeds the capacity.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 4})
				c.makeIdle(p, 4)
				gate := c.gate()
				defer open(gate)
				if err := submit(p, func() { <-gate }); err != nil {
					c.T.Fatal(err)
				}
				synctest.Wait()
				if r := asGauges(p).Running(); r != 1 {
					c.T.Errorf("Running() = %d with 1 task running and idle workers, want 1", r)
				}
			})
		}},
	{ID: "CNT-2", Level: Must, Slug: "waiting-counts", Needs: []Capability{RunningWaiting},
		Title: "Waiting() counts submissions not yet started (queued or blocked), and is 0 once all have run.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 1})
				tr := newTracker()
				gate := c.gate()
				for i := range 4 {
					goSubmit(p, tr.task(i, gate))
					synctest.Wait()
				}
				if w := asGauges(p).Waiting(); w != 3 {
					c.T.Errorf("Waiting() = %d with 1 running and 3 submitted behind it, want 3", w)
				}
				open(gate)
				synctest.Wait()
				if w := asGauges(p).Waiting(); w != 0 {
					c.T.Errorf("Waiting() = %d once everything ran, want 0", w)
				}
			})
		}},
	{ID: "CNT-3", Level: Must, Slug: "completed-counts", Needs: []Capability{Completed},
		Title: "Completed() never exceeds the accepted tasks and equals them once all have run.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 2})
				gate := c.gate()
				for i := range 10 {
					if i < 2 {
						goSubmit(p, func() { <-gate })
					} else {
						goSubmit(p, func() {})
					}
				}
				synctest.Wait()
				if n := asCompleter(p).Completed(); n > 8 {
					c.T.Errorf("Completed() = %d with 2 of 10 tasks still running", n)
				}
				open(gate)
				synctest.Wait()
				if n := asCompleter(p).Completed(); n != 10 {
					c.T.Errorf("Completed() = %d after 10 tasks ran, want 10", n)
				}
			})
		}},
}

var hygieneClauses = []Clause{
	{ID: "GOR-1", Level: Must, Slug: "no-goroutines-after-close",
		Title: "Once a graceful close has returned nil, no goroutine of the pool is left.",
		Run: func(c *Case) {
			base := goleak.IgnoreCurrent()
			p := c.New(Config{Size: 8})
			for range 100 {
				if err := submit(p, func() { time.Sleep(time.Microsecond) }); err != nil {
					c.T.Fatal(err)
				}
			}
			ctx, cancel := contextWithTimeout(releaseWait)
			defer cancel()
			if err := p.Shutdown(ctx); err != nil {
				c.T.Fatal(err)
			}
			if err := goleak.Find(base); err != nil {
				c.T.Errorf("goroutines left after close: %v", err)
			}
		}},
	{ID: "GOR-2", Level: Should, Slug: "idle-expiry", Needs: []Capability{Expiry},
		Title: "Workers idle for longer than the expiry duration exit.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 4, Expiry: time.Second})
				synctest.Wait()
				// goleak, not a goroutine count: the count includes the
				// runtime's and the test runner's goroutines, outside the
				// bubble, which come and go on their own.
				base := goleak.IgnoreCurrent()
				c.makeIdle(p, 4)
				time.Sleep(5 * time.Second)
				synctest.Wait()
				if err := goleak.Find(base); err != nil {
					c.T.Errorf("5s after the work ended, idle workers did not expire: %v", err)
				}
			})
		}},
	{ID: "GOR-3", Level: Must, Slug: "no-growth-over-cycles",
		Title: "Building, using and closing pools over and over leaves the goroutine count where it was.",
		Run: func(c *Case) {
			base := goleak.IgnoreCurrent()
			for range 20 {
				p, err := c.newRaw(Config{Size: 4})
				if err != nil {
					c.T.Fatal(err)
				}
				for range 10 {
					_ = submit(p, func() {})
				}
				ctx, cancel := contextWithTimeout(releaseWait)
				err = p.Shutdown(ctx)
				cancel()
				if err != nil {
					c.T.Fatal(err)
				}
			}
			if err := goleak.Find(base); err != nil {
				c.T.Errorf("goroutines left after 20 pools: %v", err)
			}
		}},
	{ID: "MEM-1", Level: Must, Slug: "memory-model",
		Title: "Submit synchronizes before the task starts, and the task's return before a close that returns nil (checked with -race on plain variables).",
		Run: func(c *Case) {
			p := c.New(Config{Size: 4})
			in := make([]int, 100)
			out := make([]int, 100)
			for i := range in {
				in[i] = i + 1
				if err := submit(p, func() { out[i] = in[i] * 2 }); err != nil {
					c.T.Fatal(err)
				}
			}
			ctx, cancel := contextWithTimeout(releaseWait)
			defer cancel()
			if err := p.Shutdown(ctx); err != nil {
				c.T.Fatal(err)
			}
			for i := range out {
				if out[i] != (i+1)*2 {
					c.T.Fatalf("out[%d] = %d, want %d", i, out[i], (i+1)*2)
				}
			}
		}},
	{ID: "CONC-1", Level: Must, Slug: "concurrent-use",
		Title: "Every method is safe to call from many goroutines at once, including while the pool closes.",
		Run: func(c *Case) {
			p := c.New(Config{Size: 4})
			done := make(chan struct{})
			var wg syncWaitGroup
			for range 2 {
				wg.Go(func() {
					for {
						select {
						case <-done:
							return
						default:
						}
						if err := submit(p, func() {}); err != nil && !isClosed(err) {
							c.T.Errorf("Submit = %v", err)
							return
						}
					}
				})
			}
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-done:
						return
					default:
					}
					if r := asResizer(p); r != nil {
						_ = r.Resize(1 + i%5)
						_ = r.Cap()
					}
					if g := asGauges(p); g != nil {
						if g.Running() < 0 || g.Waiting() < 0 {
							c.T.Error("a gauge went negative")
						}
					}
					if cp := asCompleter(p); cp != nil {
						_ = cp.Completed()
					}
					runtime.Gosched()
				}
			})
			time.Sleep(20 * time.Millisecond)
			ctx, cancel := contextWithTimeout(releaseWait)
			defer cancel()
			if err := p.Shutdown(ctx); err != nil {
				c.T.Errorf("Shutdown = %v", err)
			}
			close(done)
			wg.Wait()
		}},
}
