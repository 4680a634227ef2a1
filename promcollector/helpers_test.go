package promcollector_test

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/promcollector"
)

// settle waits until cond holds, failing the test after a generous
// deadline: the state it waits for is reached by other goroutines.
func settle(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// newPool returns a pool released, and waited for, when the test ends.
func newPool(t testing.TB, size int, opts ...pool.Option) *pool.Pool {
	t.Helper()
	p, err := pool.New(size, append([]pool.Option{pool.WithTimings()}, opts...)...) // timed: the histograms are the timings
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Shutdown(context.Background()); err != nil {
			t.Errorf("release: %v", err)
		}
	})
	return p
}

// newSystem returns an actor system shut down when the test ends.
func newSystem(t testing.TB, opts ...actorpool.Option) *actorpool.System {
	t.Helper()
	sys, err := actorpool.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := sys.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return sys
}

// newController returns an autoscaler for p, which the test ticks itself.
func newController(t testing.TB, p *pool.Pool, opts ...autoscale.Option) *autoscale.Controller {
	t.Helper()
	ctl, err := autoscale.New(p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return ctl
}

// echo is a router worker's behaviour: it answers an Ask with the message.
func echo() actorpool.Behavior {
	return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) { _ = c.Respond(msg) })
}

// gather registers c on a pedantic registry, which checks every metric
// collected against the descriptions, and returns the families by name.
func gather(t *testing.T, c *promcollector.Collector) map[string]*dto.MetricFamily {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	if err := reg.Register(c); err != nil {
		t.Fatal(err)
	}
	return gatherFrom(t, reg)
}

func gatherFrom(t *testing.T, g prometheus.Gatherer) map[string]*dto.MetricFamily {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]*dto.MetricFamily, len(mfs))
	for _, mf := range mfs {
		out[mf.GetName()] = mf
	}
	return out
}

// series returns the metric of family name whose label lname is lvalue,
// or nil.
func series(mfs map[string]*dto.MetricFamily, name, lname, lvalue string) *dto.Metric {
	for _, m := range mfs[name].GetMetric() {
		for _, lp := range m.GetLabel() {
			if lp.GetName() == lname && lp.GetValue() == lvalue {
				return m
			}
		}
	}
	return nil
}

// watchAll returns a collector watching a pool and its autoscaler under
// "work", a system under "actors" and a router under "router", each having
// done something.
func watchAll(t testing.TB) *promcollector.Collector {
	t.Helper()
	c := promcollector.New()
	p := newPool(t, 2)
	ctl := newController(t, p)
	sys := newSystem(t, actorpool.WithWorkers(2))
	r, err := actorpool.NewRouter(sys, 2, echo, actorpool.WithTimings())
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		c.WatchPool("work", p), c.WatchAutoscaler("work", ctl), c.WatchSystem("actors", sys), c.WatchRouter("router", r),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 10; i++ {
		if err := p.Submit(context.Background(), func() {}); err != nil {
			t.Fatal(err)
		}
	}
	ctl.Tick()
	for i := 0; i < 10; i++ {
		if _, err := r.Ref().Ask(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	settle(t, "the tasks to complete", func() bool { return p.Stats().Completed == 10 })
	return c
}
