package otelpoolkit_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/metricspec"
	"github.com/poolkit/poolkit/otelpoolkit"
	"github.com/poolkit/poolkit/pool"
)

// promSetup returns a Metrics whose data a Prometheus exporter, with its
// default options, publishes on a fresh registry.
func promSetup(t *testing.T) (*otelpoolkit.Metrics, *prometheus.Registry, *sdkmetric.ManualReader) {
	t.Helper()
	reg := prometheus.NewRegistry()
	hist := otelpoolkit.NewProducer()
	exp, err := otelprom.New(otelprom.WithRegisterer(reg), otelprom.WithProducer(hist))
	if err != nil {
		t.Fatal(err)
	}
	// A second reader, as a service exporting over OTLP as well would have.
	manual := sdkmetric.NewManualReader(sdkmetric.WithProducer(hist))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp), sdkmetric.WithReader(manual))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	m, err := otelpoolkit.New(otelpoolkit.WithMeterProvider(mp), otelpoolkit.WithProducer(hist))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m, reg, manual
}

func gather(t *testing.T, reg *prometheus.Registry) map[string]*dto.MetricFamily {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*dto.MetricFamily{}
	for _, mf := range mfs {
		out[mf.GetName()] = mf
	}
	return out
}

// label returns the value of the label name of pm.
func label(pm *dto.Metric, name string) string {
	for _, lp := range pm.GetLabel() {
		if lp.GetName() == name {
			return lp.GetValue()
		}
	}
	return ""
}

// TestPrometheusNames checks that the OpenTelemetry Prometheus exporter
// turns every instrument into the Prometheus name and type that
// docs/metrics.md lists, the ones promcollector exports.
func TestPrometheusNames(t *testing.T) {
	m, reg, _ := promSetup(t)

	p, _ := pool.New(2, pool.WithTimings())
	defer p.Close()
	ctl, err := autoscale.New(p)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := actorpool.New()
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Shutdown(context.Background())
	r, err := actorpool.NewRouter(sys, 2, func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) { _ = c.Respond(msg) })
	}, actorpool.WithTimings())
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{m.WatchPool("p", p), m.WatchAutoscaler("p", ctl), m.WatchSystem("s", sys), m.WatchRouter("r", r)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	const n = 7
	for range n {
		if err := p.Submit(context.Background(), func() {}); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctl.Tick()

	got := gather(t, reg)
	want := map[string]dto.MetricType{}
	types := map[metricspec.Kind]dto.MetricType{
		metricspec.Gauge:     dto.MetricType_GAUGE,
		metricspec.Counter:   dto.MetricType_COUNTER,
		metricspec.Histogram: dto.MetricType_HISTOGRAM,
	}
	for _, s := range metricspec.Subjects {
		for _, spec := range s.Metrics {
			want[spec.Prom] = types[spec.Kind]
		}
	}
	var names []string
	for name := range got {
		if strings.HasPrefix(name, "poolkit_") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if wantNames := slices.Sorted(maps.Keys(want)); !slices.Equal(names, wantNames) {
		for _, name := range names {
			if _, ok := want[name]; !ok {
				t.Errorf("exported %s, which docs/metrics.md does not list", name)
			}
		}
		for _, name := range wantNames {
			if _, ok := got[name]; !ok {
				t.Errorf("docs/metrics.md lists %s, not exported", name)
			}
		}
	}
	for name, typ := range want {
		if mf, ok := got[name]; ok && mf.GetType() != typ {
			t.Errorf("%s: type %v, want %v", name, mf.GetType(), typ)
		}
	}
	for _, s := range metricspec.Subjects {
		for _, spec := range s.Metrics {
			mf, ok := got[spec.Prom]
			if !ok {
				continue
			}
			for _, pm := range mf.GetMetric() {
				if label(pm, s.Label) == "" || (spec.Label != "" && label(pm, spec.Label) == "") {
					t.Errorf("%s: labels %v, want %q and %q", spec.Prom, pm.GetLabel(), s.Label, spec.Label)
				}
				if label(pm, "otel_scope_name") != otelpoolkit.ScopeName {
					t.Errorf("%s: scope %q", spec.Prom, label(pm, "otel_scope_name"))
				}
			}
		}
	}

	// The histograms come through with their bounds and counts.
	mf := got[metricspec.PoolService.Prom]
	if mf == nil || len(mf.GetMetric()) != 1 {
		t.Fatalf("%s: %v", metricspec.PoolService.Prom, mf)
	}
	h := mf.GetMetric()[0].GetHistogram()
	var bounds []float64
	for _, b := range h.GetBucket() {
		bounds = append(bounds, b.GetUpperBound())
	}
	if !slices.Equal(bounds, metricspec.Bounds()) {
		t.Errorf("bounds %v, want %v", bounds, metricspec.Bounds())
	}
	if h.GetSampleCount() != n {
		t.Errorf("count %d, want %d", h.GetSampleCount(), n)
	}
	tm := p.Stats()
	wantCum, _ := metricspec.Counts(&tm.Service, true)
	for i, b := range h.GetBucket() {
		if b.GetCumulativeCount() != wantCum[i] {
			t.Errorf("bucket le=%v: %d, want %d", b.GetUpperBound(), b.GetCumulativeCount(), wantCum[i])
		}
	}
	v := got[metricspec.PoolCompleted.Prom].GetMetric()[0].GetCounter().GetValue()
	if v != n {
		t.Errorf("%s = %v, want %d", metricspec.PoolCompleted.Prom, v, n)
	}
}

// TestScrapeUnderLoad scrapes, through both readers, while tasks run and
// sources come and go; run with -race. Counters must never go back, and a
// histogram's buckets must always add up to its count.
func TestScrapeUnderLoad(t *testing.T) {
	m, reg, manual := promSetup(t)
	p, err := pool.New(4, pool.WithTimings(), pool.WithQueueSize(64))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := m.WatchPool("load", p); err != nil {
		t.Fatal(err)
	}
	sys, err := actorpool.New(actorpool.WithWorkers(2))
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Shutdown(context.Background())
	r, err := actorpool.NewRouter(sys, 3, func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(*actorpool.Context, any) {})
	}, actorpool.WithTimings())
	if err != nil {
		t.Fatal(err)
	}
	if err := m.WatchRouter("load", r); err != nil {
		t.Fatal(err)
	}
	if err := m.WatchSystem("load", sys); err != nil {
		t.Fatal(err)
	}

	var stop atomic.Bool
	var submitted atomic.Uint64
	var wg sync.WaitGroup
	spawn := func(f func()) { // WaitGroup.Go, which needs Go 1.25
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	for range 4 {
		spawn(func() {
			for i := 0; !stop.Load(); i++ {
				if p.Submit(context.Background(), func() {}) == nil {
					submitted.Add(1)
				}
				if i%4 == 0 {
					_ = r.Ref().Tell(i)
				}
			}
		})
	}
	// Sources come and go meanwhile.
	spawn(func() {
		for !stop.Load() {
			q, _ := pool.New(1, pool.WithTimings())
			if err := m.WatchPool("churn", q); err != nil {
				t.Error(err)
			}
			_ = q.Submit(context.Background(), func() {})
			m.Unwatch("churn")
			if err := q.Shutdown(context.Background()); err != nil {
				t.Error(err)
			}
		}
	})
	spawn(func() {
		for !stop.Load() {
			var rm metricdata.ResourceMetrics
			if err := manual.Collect(context.Background(), &rm); err != nil {
				t.Error(err)
				return
			}
		}
	})

	var last float64
	deadline := time.Now().Add(500 * time.Millisecond)
	for scrapes := 0; scrapes < 20 || time.Now().Before(deadline); scrapes++ {
		got := gather(t, reg)
		for _, pm := range got[metricspec.PoolCompleted.Prom].GetMetric() {
			if label(pm, "pool") != "load" {
				continue
			}
			if v := pm.GetCounter().GetValue(); v < last {
				t.Fatalf("completed went back from %v to %v", last, v)
			} else {
				last = v
			}
		}
		for _, spec := range []*metricspec.Metric{metricspec.PoolWait, metricspec.PoolService, metricspec.RouterWait, metricspec.RouterHandling} {
			for _, pm := range got[spec.Prom].GetMetric() {
				h := pm.GetHistogram()
				b := h.GetBucket()
				if len(b) == 0 || b[len(b)-1].GetCumulativeCount() > h.GetSampleCount() {
					t.Fatalf("%s: buckets %v for count %d", spec.Prom, b, h.GetSampleCount())
				}
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := collect(t, manual)
	want := int64(submitted.Load())
	if v := find(t, got, metricspec.PoolCompleted, map[string]string{"pool": "load"}).value; v != want || want == 0 {
		t.Errorf("completed %d, want %d", v, want)
	}
	checkHistogram(t, "task_duration", find(t, got, metricspec.PoolService, map[string]string{"pool": "load"}), uint64(want))
	if last == 0 {
		t.Error("no scrape saw a completed task")
	}
}
