//go:build go1.25

package autoscale_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
)

// TestNewRejectsBadInput: a nil target, a nil option and invalid values
// are errors, not panics.
func TestNewRejectsBadInput(t *testing.T) {
	p, _ := pool.New(1, pool.WithTimings())
	defer p.Close()
	if _, err := autoscale.New(nil); !errors.Is(err, autoscale.ErrNilTarget) {
		t.Errorf("New(nil) = %v, want ErrNilTarget", err)
	}
	for _, o := range []autoscale.Option{nil, autoscale.WithMin(0), autoscale.WithMax(-1), autoscale.WithTick(0),
		autoscale.WithUtilization(1.5), autoscale.WithTargetWait(-1), autoscale.WithStabilization(-1), autoscale.WithLogSize(0),
		autoscale.WithLogger(nil), autoscale.WithMax(resize.MaxSize + 1)} {
		if _, err := autoscale.New(p, o); !errors.Is(err, autoscale.ErrInvalidOption) {
			t.Errorf("New with a bad option = %v, want ErrInvalidOption", err)
		}
	}
	// The error names the value and the range it must be in.
	if _, err := autoscale.New(p, autoscale.WithMax(0)); err == nil || !strings.Contains(err.Error(), "max 0: want 1 to ") {
		t.Errorf("New(WithMax(0)) = %v, want an error that names 0 and the range", err)
	}
	if autoscale.ErrInvalidOption != pool.ErrInvalidOption {
		t.Error("autoscale.ErrInvalidOption is not pool.ErrInvalidOption")
	}
	if _, err := autoscale.New(p, autoscale.WithMin(5), autoscale.WithMax(2)); !errors.Is(err, autoscale.ErrInvalidOption) {
		t.Errorf("New(min 5, max 2) = %v, want ErrInvalidOption", err)
	}
	// With the default max (32 × GOMAXPROCS) a larger min is refused, not
	// applied: Run would resize the pool to it.
	if _, err := autoscale.New(p, autoscale.WithMin(100_000)); !errors.Is(err, autoscale.ErrInvalidOption) {
		t.Errorf("New(min 100000, default max) = %v, want ErrInvalidOption", err)
	}
	if _, err := autoscale.New(p, autoscale.WithMin(100_000), autoscale.WithMax(100_000)); err != nil {
		t.Errorf("New(min 100000, max 100000) = %v, want nil", err)
	}
	c, err := autoscale.New(p)
	if err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1012 a nil context is the input under test
	if err := c.Run(nil); !errors.Is(err, pool.ErrNilContext) {
		t.Errorf("Run(nil) = %v, want pool.ErrNilContext", err)
	}
}

// load submits n tasks that each hold until gate closes.
func load(t *testing.T, p *pool.Pool, n int, gate <-chan struct{}) {
	t.Helper()
	for range n {
		if err := p.Submit(context.Background(), func() { <-gate }); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGrowsUnderPressure: a poolkit pool measures itself, so plain
// submissions are all the controller needs. With a queue behind busy
// workers and no service time measured yet, each tick grows the pool, at
// most fourfold, until the backlog runs.
func TestGrowsUnderPressure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(1, pool.WithTimings())
		defer p.Close()
		c, err := autoscale.New(p, autoscale.WithMax(16), autoscale.WithTick(time.Second))
		if err != nil {
			t.Fatal(err)
		}
		gate := make(chan struct{})
		defer close(gate)
		load(t, p, 20, gate)
		var sizes []int
		for range 5 {
			time.Sleep(time.Second)
			synctest.Wait()
			sizes = append(sizes, c.Tick().To)
		}
		want := []int{4, 16, 16, 16, 16} // the queue asks for 20; at most fourfold, capped at 16
		if !slices.Equal(sizes, want) {
			t.Fatalf("sizes over 5 ticks = %v, want %v (fourfold to the ceiling)", sizes, want)
		}
		if p.Stats().Running != 16 {
			t.Errorf("Running() = %d, want 16", p.Stats().Running)
		}
	})
}

// TestReadsThePoolsOwnTimings: given a poolkit pool built with
// pool.WithTimings, the controller sees its tasks' service time and queue
// wait without any wrapping.
func TestReadsThePoolsOwnTimings(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(1, pool.WithTimings())
		defer p.Close()
		c, _ := autoscale.New(p, autoscale.WithMin(1), autoscale.WithMax(1), autoscale.WithTick(time.Second))
		for range 3 {
			if err := p.Submit(context.Background(), func() { time.Sleep(200 * time.Millisecond) }); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(time.Second)
		synctest.Wait()
		o := c.Tick().Observation
		if o.Completions != 3 || o.Service != 200*time.Millisecond || o.Arrivals != 3 {
			t.Errorf("observed %d completions of mean %v from %d arrivals; want 3 of 200ms from 3", o.Completions, o.Service, o.Arrivals)
		}
		// The tasks waited 0, 200 and 400ms. The quantiles are placed
		// within their buckets (134-268ms and 268-537ms), not read as
		// their upper bounds: the median 200ms reads about that.
		if o.WaitP99 < 400*time.Millisecond || o.WaitP99 > 537*time.Millisecond {
			t.Errorf("p99 wait %v, want within the bucket of 400ms", o.WaitP99)
		}
		if o.WaitP50 < 180*time.Millisecond || o.WaitP50 > 220*time.Millisecond {
			t.Errorf("median wait %v, want about 200ms (its bucket 134-268ms, placed by rank)", o.WaitP50)
		}
	})
}

// TestShrinksWhenIdle: an idle pool shrinks to the floor at once: no
// growth stands in the stabilisation window.
func TestShrinksWhenIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(10, pool.WithTimings())
		defer p.Close()
		c, _ := autoscale.New(p, autoscale.WithTick(time.Second), autoscale.WithStabilization(3*time.Second), autoscale.WithMin(2))
		var sizes []int
		for range 8 {
			time.Sleep(time.Second)
			synctest.Wait()
			sizes = append(sizes, c.Tick().To)
		}
		if want := []int{2, 2, 2, 2, 2, 2, 2, 2}; !slices.Equal(sizes, want) {
			t.Fatalf("sizes over 8 idle ticks = %v, want %v", sizes, want)
		}
	})
}

// TestNoShrinkRightAfterGrowth: a size the controller grew to stands for
// the stabilisation window, however quiet the pool then is; then, as long
// as its memory spans (six windows), the workers the highest sustained
// arrival rate needs stay: four tasks a second for two seconds, the rate
// of two windows, not one. Then it comes down.
func TestNoShrinkRightAfterGrowth(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(1, pool.WithTimings())
		defer p.Close()
		c, _ := autoscale.New(p, autoscale.WithTick(time.Second), autoscale.WithStabilization(3*time.Second))
		gate := make(chan struct{})
		load(t, p, 4, gate)
		var sizes []int
		for i := range 30 {
			time.Sleep(time.Second)
			synctest.Wait()
			sizes = append(sizes, c.Tick().To)
			switch i {
			case 0:
				load(t, p, 4, gate)
			case 1:
				close(gate)
			}
		}
		// Grown to 8 at the second tick, which stands for 3 s; the
		// memory's span is 18 s from that tick, the last that saw
		// arrivals.
		for i, n := range sizes[1:5] {
			if n != 8 {
				t.Fatalf("size %d at tick %d; want 8 for the stabilisation window: %v", n, i+2, sizes)
			}
		}
		kept := sizes[5]
		for i, n := range sizes[5:19] {
			if n != kept || n < 2 {
				t.Fatalf("size %d at tick %d; want the memory's %d (2 or more) for its span: %v", n, i+6, kept, sizes)
			}
		}
		if sizes[29] >= kept {
			t.Fatalf("sizes = %v, want a shrink once the memory's span passed", sizes)
		}
	})
}

// plain hides that a pool measures itself: the controller then reads its
// Meter, as it does for another library's pool.
type plain struct{ resize.Resizer }

// TestMeterForOtherPools: for a target that does not measure itself, the
// controller reads its Meter: wrapped tasks and reported rejections.
func TestMeterForOtherPools(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(2, pool.WithTimings(), pool.WithQueueSize(0), pool.WithMaxWaiting(0))
		defer p.Close()
		c, _ := autoscale.New(plain{p}, autoscale.WithTick(time.Second))
		m := c.Meter()
		gate := make(chan struct{})
		defer close(gate)
		for range 5 {
			if err := p.Submit(context.Background(), m.Wrap(func() { <-gate })); err != nil {
				m.Reject()
			}
		}
		time.Sleep(time.Second)
		synctest.Wait()
		d := c.Tick()
		if d.Arrivals != 5 || d.Rejections != 3 || d.BusyNow != 2 || d.To != 5 {
			t.Fatalf("saw %d arrivals, %d rejections, %d busy; resized to %d (%q); want 5, 3, 2 and 5",
				d.Arrivals, d.Rejections, d.BusyNow, d.To, d.Reason)
		}
	})
}

// TestRejectionsArePressure: submissions a poolkit pool refused for want
// of room ask for more workers.
func TestRejectionsArePressure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(2, pool.WithTimings(), pool.WithQueueSize(0), pool.WithMaxWaiting(0))
		defer p.Close()
		c, _ := autoscale.New(p, autoscale.WithTick(time.Second))
		gate := make(chan struct{})
		defer close(gate)
		refused := 0
		for range 5 {
			if err := p.Submit(context.Background(), func() { <-gate }); errors.Is(err, pool.ErrOverload) {
				refused++
			}
		}
		time.Sleep(time.Second)
		synctest.Wait()
		d := c.Tick()
		if refused != 3 || d.Rejections != 3 || d.To != 5 || !strings.Contains(d.Reason, "3 refused") {
			t.Fatalf("%d refused, observed %d; resized to %d (%q); want 3, 3 and 5", refused, d.Rejections, d.To, d.Reason)
		}
	})
}

// TestBurstAbsorbed: a queue with fewer than half the workers busy is a
// burst the queue absorbs (the app-limited guard): no growth.
func TestBurstAbsorbed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(8, pool.WithTimings(), pool.WithQueueSize(0))
		defer p.Close()
		c, _ := autoscale.New(plain{p}, autoscale.WithTick(time.Second))
		m := c.Meter()
		m.Wrap(func() {}) // wrapped but never submitted: a queued arrival
		time.Sleep(time.Second)
		synctest.Wait()
		if d := c.Tick(); d.To > 8 {
			t.Errorf("grew to %d with an idle pool and one queued task", d.To)
		}
	})
}

// TestLoggerGetsDecisions: with WithLogger, every logged decision is a
// structured record: a resize at Info with from, to, reason and the
// observation; a hold with a reason at Debug.
func TestLoggerGetsDecisions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(1, pool.WithTimings())
		defer p.Close()
		var buf bytes.Buffer
		lg := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
		c, _ := autoscale.New(p, autoscale.WithMax(2), autoscale.WithTick(time.Second), autoscale.WithLogger(lg))
		gate := make(chan struct{})
		defer close(gate)
		load(t, p, 4, gate)
		for range 2 {
			time.Sleep(time.Second)
			synctest.Wait()
			c.Tick()
		}
		var recs []map[string]any
		for line := range strings.Lines(buf.String()) {
			var r map[string]any
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			recs = append(recs, r)
		}
		if len(recs) != 2 {
			t.Fatalf("%d records, want 2:\n%s", len(recs), buf.String())
		}
		grow, hold := recs[0], recs[1]
		obs, _ := grow["observation"].(map[string]any)
		if grow["level"] != "INFO" || grow["msg"] != "autoscale: resize" || grow["from"] != 1.0 || grow["to"] != 2.0 ||
			grow["reason"] == "" || obs == nil || obs["queue"] != 3.0 {
			t.Errorf("resize record: %v", grow)
		}
		if hold["level"] != "DEBUG" || hold["from"] != 2.0 || hold["to"] != 2.0 || !strings.Contains(hold["reason"].(string), "ceiling 2") {
			t.Errorf("hold record: %v", hold)
		}
		if grow["cause"] != "grow" || hold["cause"] != "hold_limit" {
			t.Errorf("causes %v, %v; want grow, hold_limit", grow["cause"], hold["cause"])
		}
	})
}

// TestDecisionCauses: Stats counts every tick under the cause of its
// decision, has a key for every cause, and says where the controller
// starts before its first tick.
func TestDecisionCauses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(1, pool.WithTimings())
		defer p.Close()
		c, _ := autoscale.New(p, autoscale.WithMin(1), autoscale.WithMax(2), autoscale.WithTick(time.Second))
		if s := c.Stats(); s.Size != 1 || s.Min != 1 || s.Max != 2 || s.Ticks != 0 {
			t.Errorf("before the first tick: size %d, bounds %d-%d, %d ticks; want 1, 1-2, 0", s.Size, s.Min, s.Max, s.Ticks)
		}
		gate := make(chan struct{})
		load(t, p, 4, gate)
		var got []autoscale.Cause
		for range 2 {
			time.Sleep(time.Second)
			synctest.Wait()
			got = append(got, c.Tick().Cause)
		}
		close(gate)
		time.Sleep(time.Second)
		synctest.Wait()
		got = append(got, c.Tick().Cause)
		if want := []autoscale.Cause{autoscale.CauseGrow, autoscale.CauseHoldLimit}; !slices.Equal(got[:2], want) {
			t.Errorf("causes %v, want %v first", got, want)
		}
		s := c.Stats()
		if len(s.Decisions) != len(autoscale.Causes) {
			t.Errorf("Decisions has %d keys, want one per cause (%d)", len(s.Decisions), len(autoscale.Causes))
		}
		var sum uint64
		for _, k := range autoscale.Causes {
			sum += s.Decisions[k]
		}
		if sum != s.Ticks || s.Decisions[got[2]] == 0 || s.Decisions[autoscale.CauseGrow] != 1 {
			t.Errorf("decisions %v over %d ticks (causes %v)", s.Decisions, s.Ticks, got)
		}
	})
}

// TestRunStopsWithContext: Run ticks until its context ends and returns
// ctx.Err(); a closed target ends it with the resize error, and a Tick on
// it returns that error and changes nothing.
func TestRunStopsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(4, pool.WithTimings())
		c, _ := autoscale.New(p, autoscale.WithTick(time.Second))
		ctx, cancel := context.WithTimeout(context.Background(), 5500*time.Millisecond)
		defer cancel()
		if err := c.Run(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Run = %v, want context.DeadlineExceeded", err)
		}
		if s := c.Stats(); s.Ticks != 5 {
			t.Errorf("Ticks = %d after 5.5s at 1s, want 5", s.Ticks)
		}
		p.Close()
		var wg sync.WaitGroup
		var runErr error
		wg.Go(func() { runErr = c.Run(context.Background()) })
		wg.Wait()
		if !errors.Is(runErr, resize.ErrClosed) {
			t.Errorf("Run on a released pool = %v, want resize.ErrClosed", runErr)
		}
		// A controller outliving its pool changes nothing, its books
		// included: Tick reports the close.
		before := c.Stats()
		time.Sleep(time.Second)
		if d := c.Tick(); !errors.Is(d.Err, resize.ErrClosed) || d.To != d.From {
			t.Errorf("Tick on a released pool = %d -> %d, %v; want no change and resize.ErrClosed", d.From, d.To, d.Err)
		}
		if after := c.Stats(); after.Ticks != before.Ticks {
			t.Errorf("Tick on a released pool counted: Ticks %d -> %d", before.Ticks, after.Ticks)
		}
	})
}

// pullOnlyWhatStarts is a consumer of a broker's backlog (natsrunner's
// way): it takes an item only when the pool has room for it, so the pool
// never has a queue; the items wait in the backlog instead. Each item
// takes 100ms of downstream I/O. It runs until ctx is done.
//
// Room is counted by the consumer, as natsrunner does: its own items in
// flight against Cap. Cap - Running - Waiting would not do: Running misses
// a worker for the instant between its taking a unit and its ceasing to
// spin, and an item pulled in that instant queues behind a full pool.
func pullOnlyWhatStarts(ctx context.Context, p *pool.Pool, backlog *atomic.Int64) {
	var inflight atomic.Int64
	for ctx.Err() == nil {
		if backlog.Load() == 0 || inflight.Load() >= int64(p.Cap()) {
			time.Sleep(time.Millisecond)
			continue
		}
		backlog.Add(-1)
		inflight.Add(1)
		if err := p.Submit(context.Background(), func() {
			time.Sleep(100 * time.Millisecond)
			inflight.Add(-1)
		}); err != nil {
			return
		}
	}
}

// TestBacklogOutsideThePool: work that waits outside the pool shows in no
// queue of the pool. Without WithBacklog the controller sees busy workers
// and nobody waiting, and holds; with it, it grows to drain the backlog,
// and shrinks back once the backlog is gone.
func TestBacklogOutsideThePool(t *testing.T) {
	for _, withBacklog := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			p, _ := pool.New(2, pool.WithTimings())
			var backlog atomic.Int64
			backlog.Store(2000)
			opts := []autoscale.Option{autoscale.WithMax(64), autoscale.WithTick(250 * time.Millisecond)}
			if withBacklog {
				opts = append(opts, autoscale.WithBacklog(func(context.Context) (int, error) {
					return int(backlog.Load()), nil
				}))
			}
			c, err := autoscale.New(p, opts...)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			pulled := make(chan struct{})
			go func() { defer close(pulled); pullOnlyWhatStarts(ctx, p, &backlog) }()
			defer func() {
				cancel()
				<-pulled
				if err := p.Shutdown(context.Background()); err != nil {
					t.Error(err)
				}
			}()
			peak := 2
			// Ticks fall half a millisecond off the consumer's and the
			// tasks' whole milliseconds, when every goroutine of the bubble
			// is blocked: a tick that ran beside a submit could see the
			// instant an item sits in the queue for the worker that is
			// finishing its last one, which is no queue at all.
			time.Sleep(time.Millisecond / 2)
			for range 20 { // 5s
				time.Sleep(250 * time.Millisecond)
				d := c.Tick()
				peak = max(peak, d.To)
				if d.Queue != 0 {
					t.Fatalf("the pool queued %d tasks: the consumer should pull only what starts", d.Queue)
				}
			}
			if !withBacklog {
				if peak != 2 {
					t.Errorf("without the backlog the controller grew to %d; it sees no one waiting", peak)
				}
				return
			}
			// 2000 items of 100ms drain within four 250ms windows at 200
			// workers; the ceiling is 64.
			if peak < 32 {
				t.Errorf("with a backlog of 2000 the controller grew only to %d", peak)
			}
			for backlog.Load() > 0 {
				time.Sleep(250 * time.Millisecond)
				c.Tick()
			}
			for range 60 { // 15s: past the stabilisation window
				time.Sleep(250 * time.Millisecond)
				c.Tick()
			}
			t.Logf("with the backlog: peak %d workers, %d after it drained", peak, c.Stats().Size)
			if s := c.Stats(); s.Size > 4 || s.BacklogErrors != 0 {
				t.Errorf("after the backlog drained: size %d, backlog errors %d; want at most 4, 0", s.Size, s.BacklogErrors)
			}
		})
	}
}

// TestBacklogErrorIsNoBacklog: a backlog function that fails counts as no
// backlog (no growth on a guess) and is counted in Stats.
func TestBacklogErrorIsNoBacklog(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(2, pool.WithTimings())
		defer p.Close()
		c, _ := autoscale.New(p, autoscale.WithTick(time.Second), autoscale.WithBacklog(func(ctx context.Context) (int, error) {
			<-ctx.Done() // an unreachable broker: the tick's deadline ends the call
			return 0, ctx.Err()
		}))
		gate := make(chan struct{})
		defer close(gate)
		load(t, p, 2, gate)
		time.Sleep(time.Second)
		d := c.Tick()
		if d.Backlog != 0 || d.To != 2 || c.Stats().BacklogErrors != 1 {
			t.Errorf("backlog %d, size %d -> %d, %d errors; want 0, 2 -> 2, 1", d.Backlog, d.From, d.To, c.Stats().BacklogErrors)
		}
		if _, err := autoscale.New(p, autoscale.WithBacklog(nil)); !errors.Is(err, autoscale.ErrInvalidOption) {
			t.Errorf("WithBacklog(nil) = %v, want ErrInvalidOption", err)
		}
	})
}

// TestNewRefusesAnUntimedPool: a poolkit pool built without
// pool.WithTimings measures no waits or service times, which the law
// sizes from: New says so rather than run blind.
func TestNewRefusesAnUntimedPool(t *testing.T) {
	p, _ := pool.New(1)
	defer p.Close()
	if c, err := autoscale.New(p); !errors.Is(err, autoscale.ErrUntimed) || c != nil {
		t.Errorf("New(untimed pool) = %v, %v; want nil, ErrUntimed", c, err)
	}
}

// TestRunWakesOnBacklog: AUTO-15. A pool created too small grows as soon
// as tasks wait behind its busy workers, an eighth of a tick after the
// controller started, not at the first tick; and a backlog that lasts
// (here, at the ceiling) wakes it no more: the ticks come a full interval
// apart.
func TestRunWakesOnBacklog(t *testing.T) {
	for _, c := range []struct {
		name     string
		max      int
		maxFirst time.Duration // the latest the first size change may come
	}{
		{"too-small", 64, 200 * time.Millisecond},
		{"at-the-ceiling", 2, 200 * time.Millisecond},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p, err := pool.New(1, pool.WithTimings())
				if err != nil {
					t.Fatal(err)
				}
				defer func() { _ = p.Shutdown(context.Background()) }()
				ctl, err := autoscale.New(p, autoscale.WithTick(time.Second), autoscale.WithMax(c.max))
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan error, 1)
				go func() { done <- ctl.Run(ctx) }()
				// 400 tasks a second, each 50ms of downstream I/O: 20 busy
				// workers' worth, for 3 seconds.
				start := time.Now()
				var sizes []time.Duration // when each size change was seen
				last := p.Cap()
				for time.Since(start) < 3*time.Second {
					if err := p.Submit(context.Background(), func() { time.Sleep(50 * time.Millisecond) }); err != nil {
						t.Fatal(err)
					}
					time.Sleep(2500 * time.Microsecond)
					if n := p.Cap(); n != last {
						sizes = append(sizes, time.Since(start))
						last = n
					}
				}
				cancel()
				if err := <-done; !errors.Is(err, context.Canceled) {
					t.Errorf("Run = %v, want context.Canceled", err)
				}
				for _, d := range ctl.Log() {
					t.Logf("%v: %d -> %d, %s: %s", d.At.Sub(start), d.From, d.To, d.Cause, d.Reason)
				}
				if len(sizes) == 0 || sizes[0] > c.maxFirst {
					t.Errorf("size changes at %v with a 1s tick: want the first within %v of the backlog", sizes, c.maxFirst)
				}
				if ticks := ctl.Stats().Ticks; ticks > 4 {
					t.Errorf("%d ticks in 3s at a 1s tick: a backlog should wake the controller once, not at every turn", ticks)
				}
			})
		})
	}
}
