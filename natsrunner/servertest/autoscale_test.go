package servertest_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/natsrunner"
)

// Backlog reads the consumer's NumPending; Stats carries the handler
// latency and the nak rate.
func TestBacklogAndHandlerStats(t *testing.T) {
	const n = 60
	e := newEnv(t, 5*time.Second)
	e.publish(n)
	led := newLedger()
	h := func(_ context.Context, msg jetstream.Msg) error {
		time.Sleep(3 * time.Millisecond)
		md, err := msg.Metadata()
		if err != nil {
			return err
		}
		if msgID(t, msg)%4 == 0 && md.NumDelivered == 1 {
			return errors.New("first delivery of every 4th fails")
		}
		return nil
	}
	r, err := natsrunner.New(e.consumer(e.js), newPool(t, 4), h, led.hook(t, "a"),
		natsrunner.WithBackoff(noBackoff), natsrunner.WithFetchMaxWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// The consumer's NumPending catches up with the stream a moment
	// after the publishes are acknowledged.
	var backlog uint64
	var berr error
	waitFor(t, 5*time.Second, "Backlog before Run to reach n", func() bool {
		backlog, berr = r.Backlog(ctx)
		return berr != nil || backlog == n
	})
	if berr != nil || backlog != n {
		t.Fatalf("Backlog before Run = %d, %v; want %d", backlog, berr, n)
	}
	stop := start(t, r)
	waitFor(t, 10*time.Second, "all acked", func() bool { return led.ackedIDs() == n })
	_ = stop()
	led.checkExactlyOnce(t, n)
	if b, err := r.Backlog(ctx); err != nil || b != 0 {
		t.Errorf("Backlog after Run = %d, %v; want 0", b, err)
	}
	s := r.Stats()
	t.Logf("stats %+v mean %v nak rate %.3f", s, s.MeanHandlerTime(), s.NakRate())
	const naks = n / 4
	if s.Handled != n+naks || s.Naked != naks {
		t.Errorf("handled %d naked %d, want %d and %d", s.Handled, s.Naked, n+naks, naks)
	}
	if m := s.MeanHandlerTime(); m < 3*time.Millisecond || m > time.Second {
		t.Errorf("mean handler time %v, want >= 3ms", m)
	}
	if got, want := s.NakRate(), float64(naks)/float64(n+naks); got != want {
		t.Errorf("nak rate %v, want %v", got, want)
	}
	if d := s.Sub(natsrunner.Stats{Handled: 10, HandlerTime: time.Millisecond}); d.Handled != s.Handled-10 || d.HandlerTime != s.HandlerTime-time.Millisecond {
		t.Errorf("Sub: %+v", d)
	}
}

// autoscaled runs n messages through a runner whose pool (start size
// size) is driven by an autoscale.Controller given the runner's
// AutoscaleOptions (the consumer's backlog, the handler failures); it
// returns the peak and final pool capacity. The runner pulls only what
// the pool can start.
func autoscaled(t *testing.T, n, size int, h natsrunner.Handler, opts ...natsrunner.Option) (peakCap, final int, ctl *autoscale.Controller) {
	t.Helper()
	e := newEnv(t, 30*time.Second)
	e.publish(n)
	p := newPool(t, size)
	led := newLedger()
	r, err := natsrunner.New(e.consumer(e.js), p, h, append([]natsrunner.Option{led.hook(t, "a"),
		natsrunner.WithFetchMaxWait(100 * time.Millisecond), natsrunner.WithBackoff(noBackoff)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	ctl, err = autoscale.New(p, append(r.AutoscaleOptions(), autoscale.WithMax(32), autoscale.WithTick(50*time.Millisecond))...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ctlDone := make(chan struct{})
	go func() { defer close(ctlDone); _ = ctl.Run(ctx) }()
	defer func() { cancel(); <-ctlDone }()

	stop := start(t, r)
	var pk peak
	began := time.Now()
	waitFor(t, 40*time.Second, "all acked", func() bool {
		pk.observe(p.Stats().Cap)
		return led.ackedIDs() == n
	})
	elapsed := time.Since(began)
	_ = stop()
	cancel()
	<-ctlDone
	led.checkExactlyOnce(t, n)
	final = p.Stats().Cap
	cs := ctl.Stats()
	rs := r.Stats()
	t.Logf("%d messages in %v; pool %d -> peak %d, final %d; controller class %s knee %d resizes %d ticks %d decisions %v; runner mean handler %v, %d of %d handler calls failed",
		n, elapsed, size, pk.get(), final, cs.Class, cs.Knee, cs.Resizes, cs.Ticks, cs.Decisions, rs.MeanHandlerTime(), rs.Failed, rs.Handled)
	for _, d := range ctl.Log() {
		if testing.Verbose() && d.From != d.To {
			t.Logf("decision %d->%d %s: %s", d.From, d.To, d.Cause, d.Reason)
		}
	}
	return pk.get(), final, ctl
}

// I/O-like handlers: the runner pulls only what the pool can start, so the
// pool never queues; the controller sees the demand in the consumer's
// backlog and grows the pool.
func TestAutoscalerGrowsPool(t *testing.T) {
	const start = 4
	peakCap, _, _ := autoscaled(t, 2000, start, func(context.Context, jetstream.Msg) error {
		time.Sleep(5 * time.Millisecond)
		return nil
	})
	if peakCap <= start {
		t.Errorf("pool never grew above its start size %d (peak %d)", start, peakCap)
	}
}

// A slow downstream with a hidden limit of 4 concurrent calls: more
// workers buy nothing, and the controller backs off instead of climbing to
// its ceiling of 32. It runs in real time with 50ms ticks, where one
// window's throughput is noisy: the knee it settles on has ranged from 4
// to 15 over runs, so the assertion is the back-off, at most half the
// ceiling, not the knee's precision (the law's own tests, in fake time,
// check that).
func TestAutoscalerHiddenLimit(t *testing.T) {
	const limit = 4
	sem := make(chan struct{}, limit)
	peakCap, final, _ := autoscaled(t, 1500, limit, func(context.Context, jetstream.Msg) error {
		sem <- struct{}{}
		time.Sleep(5 * time.Millisecond)
		<-sem
		return nil
	})
	if final > 32/2 {
		t.Errorf("controller ended at %d workers (peak %d) for a downstream limit of %d", final, peakCap, limit)
	}
}

// A downstream that refuses calls past a limit of 4 at once, answering at
// once with an error (a 429) rather than slowly: the service time says
// nothing, the failure rate does. The controller, seeing the backlog,
// grows; the failures that come with the growth make it back off, to far
// below its ceiling of 32. Every message is still acked exactly once
// (refused ones are nak'd and redelivered).
func TestAutoscalerBacksOffFailures(t *testing.T) {
	const limit = 4
	var inUse atomic.Int32
	peakCap, final, ctl := autoscaled(t, 1500, 2, func(context.Context, jetstream.Msg) error {
		if inUse.Add(1) > limit {
			inUse.Add(-1)
			return errors.New("downstream: too many requests")
		}
		time.Sleep(5 * time.Millisecond)
		inUse.Add(-1)
		return nil
	}, natsrunner.WithMaxAttempts(1000)) // a refused message is retried until it gets through
	if ctl.Stats().Decisions[autoscale.CauseFailing] == 0 {
		t.Errorf("no decision for failures (peak %d, final %d)", peakCap, final)
	}
	if final > 32/2 {
		t.Errorf("controller ended at %d workers (peak %d) for a downstream limit of %d", final, peakCap, limit)
	}
}
