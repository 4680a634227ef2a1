package autoscale_test

import (
	"context"
	"errors"
	"strings"
	"sync"
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
	p, _ := pool.New(1)
	defer p.Release()
	if _, err := autoscale.New(nil); !errors.Is(err, autoscale.ErrNilTarget) {
		t.Errorf("New(nil) = %v, want ErrNilTarget", err)
	}
	for _, o := range []autoscale.Option{nil, autoscale.WithMin(0), autoscale.WithMax(-1), autoscale.WithTick(0),
		autoscale.WithUtilization(1.5), autoscale.WithTargetWait(-1), autoscale.WithStabilization(-1), autoscale.WithLogSize(0)} {
		if _, err := autoscale.New(p, o); !errors.Is(err, autoscale.ErrInvalidOption) {
			t.Errorf("New with a bad option = %v, want ErrInvalidOption", err)
		}
	}
	if _, err := autoscale.New(p, autoscale.WithMin(5), autoscale.WithMax(2)); !errors.Is(err, autoscale.ErrInvalidOption) {
		t.Errorf("New(min 5, max 2) = %v, want ErrInvalidOption", err)
	}
}

// load submits n metered tasks that each hold until gate closes.
func load(t *testing.T, p *pool.Pool, m *autoscale.Meter, n int, gate <-chan struct{}) {
	t.Helper()
	for range n {
		if err := p.Submit(m.Wrap(func() { <-gate })); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGrowsUnderPressure: with a queue behind busy workers, each tick
// grows the pool, at most doubling, until the backlog runs.
func TestGrowsUnderPressure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(1)
		defer p.Release()
		c, err := autoscale.New(p, autoscale.WithMax(16), autoscale.WithTick(time.Second))
		if err != nil {
			t.Fatal(err)
		}
		gate := make(chan struct{})
		defer close(gate)
		load(t, p, c.Meter(), 20, gate)
		var sizes []int
		for range 5 {
			time.Sleep(time.Second)
			synctest.Wait()
			sizes = append(sizes, c.Tick().To)
		}
		want := []int{2, 4, 8, 16, 16} // the queue asks for 20; at most doubling, capped at 16
		for i := range want {
			if sizes[i] != want[i] {
				t.Fatalf("sizes over 5 ticks = %v, want %v (doubling to the ceiling)", sizes, want)
			}
		}
		if p.Running() != 16 {
			t.Errorf("Running() = %d, want 16", p.Running())
		}
	})
}

// TestShrinksWhenIdle: once the work is gone the pool shrinks, but only
// after the stabilisation window, and a fifth of N at most per tick.
func TestShrinksWhenIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(10)
		defer p.Release()
		c, _ := autoscale.New(p, autoscale.WithTick(time.Second), autoscale.WithStabilization(3*time.Second))
		var sizes []int
		for range 8 {
			time.Sleep(time.Second)
			synctest.Wait()
			sizes = append(sizes, c.Tick().To)
		}
		// Nothing shrinks until a whole 3s window has seen the pool idle;
		// then a fifth of N (at least 1) goes per tick.
		want := []int{10, 10, 10, 8, 6, 4, 3, 2}
		for i := range want {
			if sizes[i] != want[i] {
				t.Fatalf("sizes over 8 idle ticks = %v, want %v", sizes, want)
			}
		}
	})
}

// TestBacksOffOnRejections: rejections shrink the pool to 0.9·N (at least
// by one) and hold growth for two ticks despite pressure.
func TestBacksOffOnRejections(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(10)
		defer p.Release()
		c, _ := autoscale.New(p, autoscale.WithTick(time.Second))
		gate := make(chan struct{})
		defer close(gate)
		load(t, p, c.Meter(), 30, gate) // 10 running, 20 queued: pressure
		for range 3 {
			c.Meter().Reject()
		}
		time.Sleep(time.Second)
		synctest.Wait()
		d := c.Tick()
		if d.To != 9 || !strings.Contains(d.Reason, "rejections") {
			t.Fatalf("after rejections: %d (%q), want 9 for the rejections", d.To, d.Reason)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if d := c.Tick(); d.To != 9 {
			t.Errorf("the tick after rejections: %d (%q), want growth held at 9", d.To, d.Reason)
		}
	})
}

// TestBurstAbsorbed: a queue with fewer than half the workers busy is a
// burst the queue absorbs (the app-limited guard): no growth.
func TestBurstAbsorbed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(8, pool.WithQueueSize(0))
		defer p.Release()
		c, _ := autoscale.New(p, autoscale.WithTick(time.Second))
		m := c.Meter()
		m.Wrap(func() {}) // wrapped but never submitted: a queued arrival
		time.Sleep(time.Second)
		synctest.Wait()
		if d := c.Tick(); d.To > 8 {
			t.Errorf("grew to %d with an idle pool and one queued task", d.To)
		}
	})
}

// TestRunStopsWithContext: Run ticks until its context ends and returns
// ctx.Err(); a closed target ends it with the resize error.
func TestRunStopsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := pool.New(4)
		c, _ := autoscale.New(p, autoscale.WithTick(time.Second))
		ctx, cancel := context.WithTimeout(context.Background(), 5500*time.Millisecond)
		defer cancel()
		if err := c.Run(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Run = %v, want context.DeadlineExceeded", err)
		}
		if s := c.Stats(); s.Ticks != 5 {
			t.Errorf("Ticks = %d after 5.5s at 1s, want 5", s.Ticks)
		}
		p.Release()
		var wg sync.WaitGroup
		var runErr error
		wg.Go(func() { runErr = c.Run(context.Background()) })
		wg.Wait()
		if !errors.Is(runErr, resize.ErrClosed) {
			t.Errorf("Run on a released pool = %v, want resize.ErrClosed", runErr)
		}
	})
}
