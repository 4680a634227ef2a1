//go:build go1.25

package promcollector_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/metricspec"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/promcollector"
)

// poolkit's types are the sources.
var (
	_ promcollector.PoolSource       = (*pool.Pool)(nil)
	_ promcollector.PoolSource       = (*pool.FuncPool[int])(nil)
	_ promcollector.AutoscalerSource = (*autoscale.Controller)(nil)
	_ promcollector.SystemSource     = (*actorpool.System)(nil)
	_ promcollector.RouterSource     = (*actorpool.Router)(nil)
)

func TestLint(t *testing.T) {
	c := watchAll(t)
	problems, err := testutil.CollectAndLint(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
	// A lint of nothing would pass too: make sure every kind was there.
	if n := testutil.CollectAndCount(c); n < 40 {
		t.Errorf("linted %d series, want every metric of the four kinds", n)
	}
}

// TestDescribe checks that Describe announces each metric of metricspec
// once, with the subject's label and the metric's own, and that what
// Collect sends matches it (the pedantic registry checks each metric
// against its description).
func TestDescribe(t *testing.T) {
	c := promcollector.New()
	ch := make(chan *prometheus.Desc)
	go func() { c.Describe(ch); close(ch) }()
	var got []string
	for d := range ch {
		got = append(got, d.String())
	}
	// Desc has no accessors: read its String, "Desc{fqName: ..., help:
	// ..., ..., variableLabels: {...}}".
	var want []string
	for _, s := range metricspec.Subjects {
		for _, m := range s.Metrics {
			labels := s.Label
			if m.Label != "" {
				labels += "," + m.Label
			}
			want = append(want, fmt.Sprintf("fqName: %q, help: %q, ... variableLabels: {%s}}", m.Prom, m.Help, labels))
		}
	}
	ok := len(got) == len(want)
	for i := 0; ok && i < len(got); i++ {
		head, tail, _ := strings.Cut(want[i], " ... ")
		ok = strings.HasPrefix(got[i], "Desc{"+head) && strings.HasSuffix(got[i], tail)
	}
	if !ok {
		t.Errorf("Describe sent\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	mfs := gather(t, watchAll(t))
	if len(mfs) != len(want) {
		t.Errorf("collected %d families, want %d", len(mfs), len(want))
	}
}

func TestWatchErrors(t *testing.T) {
	p := newPool(t, 1)
	ctl := newController(t, p)
	sys := newSystem(t)
	r, err := actorpool.NewRouter(sys, 1, echo)
	if err != nil {
		t.Fatal(err)
	}
	c := promcollector.New()
	var nilPool *pool.Pool
	var nilRouter *actorpool.Router
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"empty pool name", c.WatchPool("", p), promcollector.ErrInvalid},
		{"nil pool", c.WatchPool("p", nil), promcollector.ErrInvalid},
		{"nil *pool.Pool", c.WatchPool("p", nilPool), promcollector.ErrInvalid},
		{"non-UTF-8 name", c.WatchPool("p\xff", p), promcollector.ErrInvalid},
		{"nil autoscaler", c.WatchAutoscaler("p", nil), promcollector.ErrInvalid},
		{"empty system name", c.WatchSystem("", sys), promcollector.ErrInvalid},
		{"nil *actorpool.Router", c.WatchRouter("r", nilRouter), promcollector.ErrInvalid},
		{"pool", c.WatchPool("p", p), nil},
		{"its autoscaler under its name", c.WatchAutoscaler("p", ctl), nil},
		{"a system under the same name", c.WatchSystem("p", sys), nil},
		{"a router under the same name", c.WatchRouter("p", r), nil},
		{"the same pool under another name", c.WatchPool("q", p), nil},
		{"another pool under a watched name", c.WatchPool("p", newPool(t, 1)), promcollector.ErrDuplicate},
		{"duplicate autoscaler", c.WatchAutoscaler("p", ctl), promcollector.ErrDuplicate},
		{"duplicate system", c.WatchSystem("p", sys), promcollector.ErrDuplicate},
		{"duplicate router", c.WatchRouter("p", r), promcollector.ErrDuplicate},
	} {
		if !errors.Is(tc.err, tc.want) || (tc.want == nil) != (tc.err == nil) {
			t.Errorf("%s: %v, want %v", tc.name, tc.err, tc.want)
		}
		if tc.err != nil && !strings.HasPrefix(tc.err.Error(), "promcollector: ") {
			t.Errorf("%s: %q lacks the package prefix", tc.name, tc.err)
		}
	}
	// The refused pool is not watched: "p" still reads the first one.
	if n := testutil.CollectAndCount(c, "poolkit_pool_capacity"); n != 2 {
		t.Errorf("%d pools watched, want 2", n)
	}
}

// TestWatchLeavesTimingsAsBuilt checks that watching a pool or a router
// leaves its timings as its owner built it: an untimed one stays untimed,
// a timed one times what it runs.
func TestWatchLeavesTimingsAsBuilt(t *testing.T) {
	p, err := pool.New(1) // untimed: watching must not switch its timings on
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.Shutdown(context.Background()) }()
	sys := newSystem(t)
	untimed, err := actorpool.NewRouter(sys, 1, echo)
	if err != nil {
		t.Fatal(err)
	}
	timed, err := actorpool.NewRouter(sys, 1, echo, actorpool.WithTimings())
	if err != nil {
		t.Fatal(err)
	}
	c := promcollector.New()
	for _, err := range []error{c.WatchPool("p", p), c.WatchRouter("untimed", untimed), c.WatchRouter("timed", timed)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Submit(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []*actorpool.Router{untimed, timed} {
		if _, err := r.Ref().Ask(t.Context(), "x"); err != nil {
			t.Fatal(err)
		}
	}
	settle(t, "the pool's task to complete", func() bool { return p.Stats().Completed == 1 })
	if n := p.Stats().Service.Count; n != 0 {
		t.Errorf("a pool built without timings timed %d tasks once watched: watching must leave its timings as built", n)
	}
	settle(t, "the timed router's message to be timed", func() bool { return timed.Stats().Service.Count == 1 })
	if st := untimed.Stats(); st.Timed || st.Service.Count != 0 {
		t.Errorf("a router built without timings: Timed %v, timed %d messages once watched; watching must leave its timings as built", st.Timed, st.Service.Count)
	}
}

// TestManyPools checks that pools watched under different names give
// separate series, and that Unwatch takes every kind watched under a name
// away and nothing else.
func TestManyPools(t *testing.T) {
	a, b := newPool(t, 2), newPool(t, 3)
	c := promcollector.New()
	for name, p := range map[string]*pool.Pool{"a": a, "b": b} {
		if err := c.WatchPool(name, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.WatchAutoscaler("a", newController(t, a)); err != nil {
		t.Fatal(err)
	}
	if err := c.WatchPool("a", b); !errors.Is(err, promcollector.ErrDuplicate) {
		t.Errorf("watching another pool as a: %v, want %v", err, promcollector.ErrDuplicate)
	}
	capacity := func(caps ...string) string {
		var sb strings.Builder
		fmt.Fprintf(&sb, "# HELP poolkit_pool_capacity %s\n# TYPE poolkit_pool_capacity gauge\n", metricspec.PoolCapacity.Help)
		for _, c := range caps {
			fmt.Fprintf(&sb, "poolkit_pool_capacity%s\n", c)
		}
		return sb.String()
	}
	if err := testutil.CollectAndCompare(c, strings.NewReader(capacity(`{pool="a"} 2`, `{pool="b"} 3`)), "poolkit_pool_capacity"); err != nil {
		t.Error(err)
	}
	if n := testutil.CollectAndCount(c, "poolkit_autoscaler_target_workers"); n != 1 {
		t.Errorf("%d autoscalers, want 1", n)
	}

	c.Unwatch("a")
	c.Unwatch("none") // not watched: nothing happens
	if err := testutil.CollectAndCompare(c, strings.NewReader(capacity(`{pool="b"} 3`)), "poolkit_pool_capacity"); err != nil {
		t.Error(err)
	}
	if n := testutil.CollectAndCount(c, "poolkit_autoscaler_target_workers"); n != 0 {
		t.Errorf("%d autoscalers after Unwatch, want 0", n)
	}
	// The name is free again.
	if err := c.WatchPool("a", a); err != nil {
		t.Errorf("watching a again: %v", err)
	}
}

// TestCollectOrder checks that Collect sends the sources of each kind in
// the order of their names, whatever the order they were watched in.
func TestCollectOrder(t *testing.T) {
	c := promcollector.New()
	names := []string{"m", "b", "z", "a", "k"}
	for _, n := range names {
		if err := c.WatchPool(n, newPool(t, 1)); err != nil {
			t.Fatal(err)
		}
	}
	ch := make(chan prometheus.Metric)
	go func() { c.Collect(ch); close(ch) }()
	var got []string
	for m := range ch {
		var out dto.Metric
		if err := m.Write(&out); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(m.Desc().String(), `"poolkit_pool_capacity"`) {
			got = append(got, out.GetLabel()[0].GetValue())
		}
	}
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Errorf("pools collected in the order %v, want %v", got, names)
	}
}

// TestScrapeUnderLoad gathers again and again while pools run tasks, a
// router forwards messages and another goroutine watches and unwatches a
// pool; run it with -race. Counters must never go back between scrapes.
func TestScrapeUnderLoad(t *testing.T) {
	c := promcollector.New()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(c)
	pools := []*pool.Pool{newPool(t, 4), newPool(t, 4)}
	for i, p := range pools {
		if err := c.WatchPool(fmt.Sprint("load", i), p); err != nil {
			t.Fatal(err)
		}
	}
	sys := newSystem(t, actorpool.WithWorkers(2))
	r, err := actorpool.NewRouter(sys, 2, echo, actorpool.WithTimings())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.WatchSystem("actors", sys); err != nil {
		t.Fatal(err)
	}
	if err := c.WatchRouter("router", r); err != nil {
		t.Fatal(err)
	}

	var stop atomic.Bool
	var wg sync.WaitGroup
	for _, p := range pools {
		wg.Go(func() {
			var sink atomic.Int64
			for !stop.Load() {
				if err := p.Submit(context.Background(), func() { sink.Add(1) }); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for i := 0; !stop.Load(); i++ {
			if err := r.Ref().Tell(i); err != nil {
				t.Error(err)
				return
			}
			if i%64 == 0 { // keep the mailboxes short
				if _, err := r.Ref().Ask(t.Context(), i); err != nil {
					t.Error(err)
					return
				}
			}
		}
	})
	churn := newPool(t, 1)
	wg.Go(func() {
		for !stop.Load() {
			if err := c.WatchPool("churn", churn); err != nil {
				t.Error(err)
				return
			}
			c.Unwatch("churn")
		}
	})

	last := map[string]float64{}
	for range 100 {
		mfs := gatherFrom(t, reg)
		for _, name := range []string{"poolkit_pool_completed_tasks_total", "poolkit_pool_submitted_tasks_total", "poolkit_router_forwarded_messages_total"} {
			for _, m := range mfs[name].GetMetric() {
				key := name + m.GetLabel()[0].GetValue()
				v := m.GetCounter().GetValue()
				if v < last[key] {
					t.Errorf("%s went back from %v to %v", key, last[key], v)
				}
				last[key] = v
			}
		}
		for _, m := range mfs["poolkit_pool_task_duration_seconds"].GetMetric() {
			checkHistogram(t, m.GetHistogram())
		}
	}
	stop.Store(true)
	wg.Wait()
	if last["poolkit_pool_completed_tasks_totalload0"] == 0 || last["poolkit_router_forwarded_messages_totalrouter"] == 0 {
		t.Errorf("no load seen: %v", last)
	}
}
