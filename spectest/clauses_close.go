package spectest

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing/synctest"
	"time"
)

var onceClauses = []Clause{
	{ID: "ONCE-1", Level: Must, Slug: "exactly-once",
		Title: "Under concurrent submitters, resizes and a close, every accepted task runs exactly once and every rejected one never runs.",
		Run: func(c *Case) {
			const submitters, each = 4, 1000
			p := c.New(Config{Size: 3})
			runs := make([]atomic.Int32, submitters*each)
			accepted := make([]bool, submitters*each)
			stop := make(chan struct{})
			var bg sync.WaitGroup
			if r := asResizer(p); r != nil {
				bg.Go(func() {
					for i := 0; ; i++ {
						select {
						case <-stop:
							return
						default:
						}
						_ = r.Resize(1 + i%6)
						time.Sleep(10 * time.Microsecond)
					}
				})
			}
			var wg sync.WaitGroup
			var releaseErr error
			for s := range submitters {
				wg.Go(func() {
					for i := range each {
						id := s*each + i
						if s == 0 && i == each/2 {
							ctx, cancel := contextWithTimeout(releaseWait)
							releaseErr = p.Shutdown(ctx)
							cancel()
						}
						switch err := submit(p, func() { runs[id].Add(1) }); {
						case err == nil:
							accepted[id] = true
						case !isClosed(err):
							c.T.Errorf("Submit = %v, want nil or an error matching resize.ErrClosed", err)
							return
						}
					}
				})
			}
			wg.Wait()
			close(stop)
			bg.Wait()
			if releaseErr != nil {
				c.T.Fatalf("Shutdown = %v", releaseErr)
			}
			for id := range runs {
				want := int32(0)
				if accepted[id] {
					want = 1
				}
				if n := runs[id].Load(); n != want {
					c.T.Errorf("task %d (accepted %v) ran %d times", id, accepted[id], n)
				}
			}
		}},
}

var closeClauses = []Clause{
	{ID: "CLS-1", Level: Must, Slug: "submit-after-close",
		Title: "After a close, Submit returns an error matching resize.ErrClosed without panicking, and the task never runs.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 2})
				ctx, cancel := contextWithTimeout(releaseWait)
				defer cancel()
				if err := p.Shutdown(ctx); err != nil {
					c.T.Fatal(err)
				}
				var ran atomic.Bool
				if err := submit(p, func() { ran.Store(true) }); !isClosed(err) {
					c.T.Errorf("Submit after close = %v, want an error matching resize.ErrClosed", err)
				}
				synctest.Wait()
				if ran.Load() {
					c.T.Error("a task submitted after close ran")
				}
			})
		}},
	{ID: "CLS-2", Level: Must, Slug: "close-wakes-blocked",
		Title: "Submitters blocked when the pool closes return at once with a closed-pool error, unless their task was accepted; a rejected task never runs.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 1})
				tr := newTracker()
				gate := c.gate()
				s := c.saturate(p, tr, gate, 2, false)
				released := goShutdown(p)
				synctest.Wait()
				outcomes := make([]error, len(s.blocked))
				for i, res := range s.blocked {
					select {
					case outcomes[i] = <-res:
						if outcomes[i] != nil && !isClosed(outcomes[i]) {
							c.T.Errorf("blocked Submit at close = %v, want nil or an error matching resize.ErrClosed", outcomes[i])
						}
					default:
						c.T.Errorf("blocked Submit #%d still blocked after the pool closed", i)
						outcomes[i] = errors.New("still blocked")
					}
				}
				open(gate)
				if err := <-released; err != nil {
					c.T.Errorf("Shutdown = %v", err)
				}
				for i, err := range outcomes {
					id := s.accepted + i
					if want := map[bool]int{true: 1}[err == nil]; tr.ran(id) != want {
						c.T.Errorf("blocked task %d (Submit = %v) ran %d times", id, err, tr.ran(id))
					}
				}
			})
		}},
	{ID: "CLS-3", Level: Must, Slug: "graceful-close",
		Title: "A graceful close runs every accepted task, queued ones included, and returns nil only after they finish.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 2})
				tr := newTracker()
				gate := c.gate()
				// Many waiting submissions: tunny serves a waiting caller or
				// stops a worker at random, so a few would make its result
				// a coin toss.
				results := make([]chan error, 22)
				for i := range results {
					results[i] = goSubmit(p, tr.task(i, gate))
				}
				synctest.Wait()
				released := goShutdown(p)
				synctest.Wait()
				select {
				case err := <-released:
					c.T.Fatalf("Shutdown returned %v while accepted tasks were still running", err)
				default:
				}
				open(gate)
				if err := <-released; err != nil {
					c.T.Fatalf("Shutdown = %v", err)
				}
				for i, res := range results {
					err := <-res
					if want := map[bool]int{true: 1}[err == nil]; tr.ran(i) != want {
						c.T.Errorf("task %d (Submit = %v) ran %d times", i, err, tr.ran(i))
					}
				}
			})
		}},
	{ID: "CLS-4", Level: Must, Slug: "abandoning-close", Needs: []Capability{ShutdownNow},
		Title: "An abandoning close hands back exactly the accepted tasks that have not started; they never run, and running tasks finish.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 1})
				tr := newTracker()
				gate := c.gate()
				if err := submit(p, tr.task(0, gate)); err != nil {
					c.T.Fatal(err)
				}
				synctest.Wait()
				for i := 1; i <= 3; i++ {
					if err := submit(p, tr.task(i, nil)); err != nil {
						c.T.Fatal(err)
					}
				}
				back := asAbandoner(p).ShutdownNow()
				open(gate)
				synctest.Wait()
				if len(back) != 3 || tr.total() != 1 {
					c.T.Errorf("ShutdownNow returned %d tasks and %d ran; want 3 returned, only the running one run", len(back), tr.total())
				}
			})
		}},
	{ID: "CLS-5", Level: Must, Slug: "bounded-close",
		Title: "A close bounded by a context returns ctx.Err() exactly at the deadline while a task runs, and a later close returns nil once it has finished.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 1})
				gate := c.gate()
				if err := submit(p, func() { <-gate }); err != nil {
					c.T.Fatal(err)
				}
				synctest.Wait()
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				defer cancel()
				start := time.Now()
				if err := p.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != 3*time.Second {
					c.T.Errorf("Shutdown(3s) with a stuck task = %v after %v, want context.DeadlineExceeded after 3s", err, time.Since(start))
				}
				open(gate)
				if err := p.Shutdown(context.Background()); err != nil {
					c.T.Errorf("a second Shutdown once the task finished = %v, want nil", err)
				}
			})
		}},
	{ID: "CLS-6", Level: Must, Slug: "close-idempotent",
		Title: "Closing is idempotent and safe from many goroutines at once: no call panics or blocks, and each returns nil or a closed-pool error.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				// Several rounds, each releasing from goroutines let go at
				// once, give a race between the calls a chance to show.
				for range 20 {
					p := c.New(Config{Size: 2})
					start := make(chan struct{})
					errs := make(chan error, 4)
					for range 4 {
						go func() {
							defer func() {
								if r := recover(); r != nil {
									errs <- errors.New("Shutdown panicked")
								}
							}()
							<-start
							ctx, cancel := contextWithTimeout(releaseWait)
							defer cancel()
							errs <- p.Shutdown(ctx)
						}()
					}
					synctest.Wait()
					close(start)
					for range 4 {
						if err := <-errs; err != nil && !isClosed(err) {
							c.T.Errorf("concurrent Shutdown = %v, want nil or an error matching resize.ErrClosed", err)
						}
					}
				}
			})
		}},
	{ID: "CLS-7", Level: Must, Slug: "close-from-task",
		Title: "Closing from inside a task does not deadlock: the call returns by its deadline, and the pool finishes closing once the task returns.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 2})
				inner := make(chan error, 1)
				if err := submit(p, func() {
					ctx, cancel := contextWithTimeout(time.Second)
					defer cancel()
					inner <- p.Shutdown(ctx)
				}); err != nil {
					c.T.Fatal(err)
				}
				<-inner // returns by its deadline, whatever it says
				ctx, cancel := contextWithTimeout(5 * time.Second)
				defer cancel()
				if err := p.Shutdown(ctx); err != nil && !isClosed(err) {
					c.T.Errorf("Shutdown after the closing task returned = %v, want the pool closed", err)
				}
			})
		}},
	{ID: "CLS-8", Level: Must, Slug: "abandon-racing-reboot", Needs: []Capability{ShutdownNow, Reboot},
		Title: "An abandoning close racing Reboot returns promptly, and so does the Reboot, whichever takes effect first.",
		Run:   checkAbandonRacingReboot},
	{ID: "CLS-9", Level: Must, Slug: "close-racing-reboot", Needs: []Capability{Reboot},
		Title: "A bounded graceful close racing Reboot waits for the life it closed: with nothing left to finish it returns nil, never a timeout.",
		Run:   checkCloseRacingReboot},
	{ID: "CLS-10", Level: Must, Slug: "reboot-from-task", Needs: []Capability{Reboot},
		Title: "Reboot called from inside a task of a released pool does not deadlock: it returns, and the pool is open again once the task has returned.",
		Run:   checkRebootFromTask},
}

// goShutdown shuts p down from a goroutine of its own, since Shutdown waits
// for accepted tasks; the outcome arrives on the channel.
func goShutdown(p Pool) chan error {
	res := make(chan error, 1)
	go func() {
		ctx, cancel := contextWithTimeout(releaseWait)
		defer cancel()
		res <- p.Shutdown(ctx)
	}()
	return res
}
