package otelpoolkit_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.uber.org/goleak"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/metricspec"
	"github.com/poolkit/poolkit/otelpoolkit"
	"github.com/poolkit/poolkit/pool"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// setup returns a Metrics on a fresh SDK provider whose manual reader has
// the Metrics' Producer.
func setup(t testing.TB) (*otelpoolkit.Metrics, *sdkmetric.ManualReader, *otelpoolkit.Producer) {
	t.Helper()
	hist := otelpoolkit.NewProducer()
	reader := sdkmetric.NewManualReader(sdkmetric.WithProducer(hist))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	m, err := otelpoolkit.New(otelpoolkit.WithMeterProvider(mp), otelpoolkit.WithProducer(hist))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	if m.Producer() != hist {
		t.Fatal("Producer() is not the Producer given with WithProducer")
	}
	return m, reader, hist
}

// collect returns the metrics reported under ScopeName, by name, merging
// the SDK's scope and the Producer's. It fails the test if another scope
// reports or a name comes twice.
func collect(t *testing.T, r sdkmetric.Reader) map[string]metricdata.Metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != otelpoolkit.ScopeName || sm.Scope.Version != otelpoolkit.Version() {
			t.Fatalf("scope %q version %q, want %q version %q", sm.Scope.Name, sm.Scope.Version, otelpoolkit.ScopeName, otelpoolkit.Version())
		}
		for _, md := range sm.Metrics {
			if _, dup := out[md.Name]; dup {
				t.Fatalf("%s reported twice", md.Name)
			}
			out[md.Name] = md
		}
	}
	return out
}

// point is one data point, whatever its kind.
type point struct {
	attrs map[string]string
	value int64                                   // gauges and counters
	hist  *metricdata.HistogramDataPoint[float64] // histograms
}

// points returns md's data points, checking its kind against spec's.
func points(t *testing.T, spec *metricspec.Metric, md metricdata.Metrics) []point {
	t.Helper()
	if md.Unit != spec.OTelUnit || md.Description != spec.Help {
		t.Errorf("%s: unit %q description %q, want %q %q", spec.OTel, md.Unit, md.Description, spec.OTelUnit, spec.Help)
	}
	attrs := func(s attribute.Set) map[string]string {
		m := map[string]string{}
		for _, kv := range s.ToSlice() {
			m[string(kv.Key)] = kv.Value.AsString()
		}
		return m
	}
	var out []point
	switch d := md.Data.(type) {
	case metricdata.Sum[int64]:
		if spec.Kind == metricspec.Histogram || d.IsMonotonic != (spec.Kind == metricspec.Counter) {
			t.Errorf("%s: a sum with monotonic=%v, want kind %v", spec.OTel, d.IsMonotonic, spec.Kind)
		}
		if d.Temporality != metricdata.CumulativeTemporality {
			t.Errorf("%s: temporality %v", spec.OTel, d.Temporality)
		}
		for _, dp := range d.DataPoints {
			out = append(out, point{attrs: attrs(dp.Attributes), value: dp.Value})
		}
	case metricdata.Histogram[float64]:
		if spec.Kind != metricspec.Histogram {
			t.Errorf("%s: a histogram, want kind %v", spec.OTel, spec.Kind)
		}
		if d.Temporality != metricdata.CumulativeTemporality {
			t.Errorf("%s: temporality %v", spec.OTel, d.Temporality)
		}
		for i := range d.DataPoints {
			out = append(out, point{attrs: attrs(d.DataPoints[i].Attributes), hist: &d.DataPoints[i]})
		}
	default:
		t.Errorf("%s: data of type %T", spec.OTel, md.Data)
	}
	return out
}

// find returns the data point of spec whose attributes are exactly want.
func find(t *testing.T, got map[string]metricdata.Metrics, spec *metricspec.Metric, want map[string]string) point {
	t.Helper()
	md, ok := got[spec.OTel]
	if !ok {
		t.Fatalf("%s not reported", spec.OTel)
	}
	for _, p := range points(t, spec, md) {
		if maps.Equal(p.attrs, want) {
			return p
		}
	}
	t.Fatalf("%s: no data point with attributes %v", spec.OTel, want)
	return point{}
}

// checkHistogram checks a histogram data point against what was recorded.
func checkHistogram(t *testing.T, name string, p point, count uint64) {
	t.Helper()
	h := p.hist
	if h == nil {
		t.Fatalf("%s: not a histogram", name)
	}
	if h.Count != count {
		t.Errorf("%s: count %d, want %d", name, h.Count, count)
	}
	if !slices.Equal(h.Bounds, metricspec.Bounds()) {
		t.Errorf("%s: bounds %v, want %v", name, h.Bounds, metricspec.Bounds())
	}
	if len(h.BucketCounts) != len(h.Bounds)+1 {
		t.Errorf("%s: %d buckets for %d bounds", name, len(h.BucketCounts), len(h.Bounds))
	}
	var sum uint64
	for _, c := range h.BucketCounts {
		sum += c
	}
	if sum != h.Count {
		t.Errorf("%s: buckets add up to %d, count %d", name, sum, h.Count)
	}
	if count > 0 && h.Sum <= 0 {
		t.Errorf("%s: sum %v for %d durations", name, h.Sum, count)
	}
	if h.StartTime.IsZero() || h.Time.Before(h.StartTime) {
		t.Errorf("%s: start %v, time %v", name, h.StartTime, h.Time)
	}
}

// expect lists, for every metric of subject, the value each of its data
// points must have, read from the source through metricspec once it is
// quiescent, and checks that the collection has exactly those points.
// known overrides values that the test knows independently.
func expect(t *testing.T, got map[string]metricdata.Metrics, subject metricspec.Subject, name string,
	read func(metricspec.Emit), known map[*metricspec.Metric]map[string]int64) {
	t.Helper()
	read(func(spec *metricspec.Metric, label string, v float64, h *pool.Histogram) {
		attrs := map[string]string{subject.Label: name}
		if spec.Label != "" {
			attrs[spec.Label] = label
		}
		p := find(t, got, spec, attrs)
		if h != nil {
			checkHistogram(t, spec.OTel, p, h.Count)
			return
		}
		want := int64(v)
		if k, ok := known[spec][label]; ok {
			if k != want {
				t.Errorf("%s%v: the source says %d, the test %d", spec.OTel, attrs, want, k)
			}
			want = k
		}
		if p.value != want {
			t.Errorf("%s%v = %d, want %d", spec.OTel, attrs, p.value, want)
		}
	})
}

func TestCollect(t *testing.T) {
	m, reader, _ := setup(t)

	// A pool that rejects for each reason.
	p, err := pool.New(2, pool.WithTimings(), pool.WithMaxWaiting(0), pool.WithQueueSize(8), pool.WithPanicHandler(func(any) {}))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := m.WatchPool("main", p); err != nil {
		t.Fatal(err)
	}
	const batches, batch = 10, 8 // a batch fits the queue once the previous one has run
	var wg sync.WaitGroup
	for range batches {
		wg.Add(batch)
		for range batch {
			if err := p.Submit(context.Background(), func() { time.Sleep(10 * time.Microsecond); wg.Done() }); err != nil {
				t.Fatal(err)
			}
		}
		wg.Wait()
	}
	accepted := uint64(batches * batch)
	if err := p.Submit(context.Background(), func() { panic("on purpose") }); err != nil {
		t.Fatal(err)
	}
	accepted++
	// Overload: both workers held, then the queue filled until refused.
	gate, started := make(chan struct{}), make(chan struct{}, 2)
	for range 2 {
		for p.Submit(context.Background(), func() { started <- struct{}{}; <-gate }) != nil {
			time.Sleep(time.Millisecond) // the panicking task's worker is not free yet
		}
		accepted++
	}
	<-started
	<-started
	for {
		err := p.Submit(context.Background(), func() {})
		if err != nil {
			if !errors.Is(err, pool.ErrOverload) {
				t.Fatalf("submit to a full pool: %v", err)
			}
			break
		}
		accepted++
	}
	close(gate)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 3 {
		if err := p.Submit(ctx, func() {}); !errors.Is(err, context.Canceled) {
			t.Fatalf("submit with a done context: %v", err)
		}
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := p.Submit(context.Background(), func() {}); !errors.Is(err, pool.ErrClosed) {
			t.Fatalf("submit to a released pool: %v", err)
		}
	}

	// An autoscaler driving another pool, watched under that pool's name.
	scaled, err := pool.New(4, pool.WithTimings())
	if err != nil {
		t.Fatal(err)
	}
	defer scaled.Close()
	ctl, err := autoscale.New(scaled, autoscale.WithMin(2), autoscale.WithMax(8))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.WatchPool("scaled", scaled); err != nil {
		t.Fatal(err)
	}
	if err := m.WatchAutoscaler("scaled", ctl); err != nil {
		t.Fatal(err)
	}
	const ticks = 3
	for range ticks {
		ctl.Tick()
	}

	// An actor system, with a refusal of each reason, and a router.
	sys, err := actorpool.New(actorpool.WithWorkers(2))
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Shutdown(context.Background())
	if err := m.WatchSystem("actors", sys); err != nil {
		t.Fatal(err)
	}
	held, release, drained := make(chan struct{}), make(chan struct{}), make(chan struct{})
	blocker, err := sys.Spawn(func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) {
			switch msg {
			case "hold":
				close(held)
				<-release
			case "queued":
				close(drained) // the one-message mailbox has room again
			}
			_ = c.Respond(msg)
		})
	}, actorpool.WithMailboxSize(1))
	if err != nil {
		t.Fatal(err)
	}
	if err := blocker.Tell("hold"); err != nil {
		t.Fatal(err)
	}
	<-held
	if err := blocker.Tell("queued"); err != nil {
		t.Fatal(err)
	}
	if err := blocker.Tell("refused"); !errors.Is(err, actorpool.ErrMailboxFull) {
		t.Fatalf("tell to a full mailbox: %v", err)
	}
	if err := blocker.Tell(nil); !errors.Is(err, actorpool.ErrNilMessage) {
		t.Fatalf("tell nil: %v", err)
	}
	close(release)
	<-drained
	const routed = 20
	r, err := actorpool.NewRouter(sys, 2, func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) { _ = c.Respond(msg) })
	}, actorpool.WithTimings())
	if err != nil {
		t.Fatal(err)
	}
	if err := m.WatchRouter("echo", r); err != nil {
		t.Fatal(err)
	}
	for i := range routed {
		if _, err := r.Ref().Ask(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := blocker.Ask(context.Background(), "sync"); err != nil {
		t.Fatal(err)
	}
	// Shut down, the workers have folded what they timed into the totals.
	if err := sys.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}

	got := collect(t, reader)

	// Every metric is reported, and nothing else.
	var want []string
	for _, s := range metricspec.Subjects {
		for _, spec := range s.Metrics {
			want = append(want, spec.OTel)
		}
	}
	sort.Strings(want)
	if names := slices.Sorted(maps.Keys(got)); !slices.Equal(names, want) {
		t.Fatalf("reported %v\nwant %v", names, want)
	}

	known := map[*metricspec.Metric]map[string]int64{
		metricspec.PoolCapacity:  {"": 2},
		metricspec.PoolRunning:   {"": 0},
		metricspec.PoolWaiting:   {"": 0},
		metricspec.PoolSubmitted: {"": int64(accepted)},
		metricspec.PoolCompleted: {"": int64(accepted)},
		metricspec.PoolRejected:  {"overload": 1, "closed": 2, "context": 3},
		metricspec.PoolPanicked:  {"": 1},
		metricspec.PoolReturned:  {"": 0},
		metricspec.PoolResizes:   {"": 0},
	}
	expect(t, got, metricspec.Pool, "main", func(e metricspec.Emit) { metricspec.ReadPool(p, e) }, known)
	checkHistogram(t, "task_wait", find(t, got, metricspec.PoolWait, map[string]string{"pool": "main"}), accepted)
	checkHistogram(t, "task_duration", find(t, got, metricspec.PoolService, map[string]string{"pool": "main"}), accepted)

	expect(t, got, metricspec.Pool, "scaled", func(e metricspec.Emit) { metricspec.ReadPool(scaled, e) }, nil)
	expect(t, got, metricspec.Autoscaler, "scaled", func(e metricspec.Emit) { metricspec.ReadAutoscaler(ctl, e) },
		map[*metricspec.Metric]map[string]int64{metricspec.AutoMin: {"": 2}, metricspec.AutoMax: {"": 8}})
	var decisions int64
	for _, c := range autoscale.Causes {
		decisions += find(t, got, metricspec.AutoDecisions, map[string]string{"pool": "scaled", "cause": string(c)}).value
	}
	if decisions != ticks {
		t.Errorf("decisions add up to %d, want %d ticks", decisions, ticks)
	}

	expect(t, got, metricspec.System, "actors", func(e metricspec.Emit) { metricspec.ReadSystem(sys, e) },
		map[*metricspec.Metric]map[string]int64{
			metricspec.ActorWorkers:     {"": 2},
			metricspec.ActorLive:        {"": 0},
			metricspec.ActorMailbox:     {"": 0},
			metricspec.ActorSpawned:     {"": 1 + 1 + 2}, // the blocker, the router and its two workers
			metricspec.ActorStopped:     {"": 1 + 1 + 2},
			metricspec.ActorDeadLetters: {"": 0},
			metricspec.ActorRefused:     {"mailbox_full": 1, "other": 1},
			metricspec.ActorPanics:      {"": 0},
			metricspec.ActorRestarts:    {"": 0},
		})
	expect(t, got, metricspec.Router, "echo", func(e metricspec.Emit) { metricspec.ReadRouter(r, e) },
		map[*metricspec.Metric]map[string]int64{
			metricspec.RouterForwarded: {"": routed},
			metricspec.RouterUnhandled: {"": 0},
			metricspec.RouterRestarts:  {"": 0},
		})
	checkHistogram(t, "mailbox_wait", find(t, got, metricspec.RouterWait, map[string]string{"router": "echo"}), routed)
	checkHistogram(t, "handling", find(t, got, metricspec.RouterHandling, map[string]string{"router": "echo"}), routed)

	// One data point per watched source and label value, no more.
	for name, md := range got {
		var n int
		switch d := md.Data.(type) {
		case metricdata.Sum[int64]:
			n = len(d.DataPoints)
		case metricdata.Histogram[float64]:
			n = len(d.DataPoints)
		}
		want := 1
		switch {
		case name == metricspec.PoolRejected.OTel:
			want = 2 * 3 // two pools, three reasons
		case name == metricspec.AutoDecisions.OTel:
			want = len(autoscale.Causes)
		case name == metricspec.ActorRefused.OTel:
			want = 2
		case strings.HasPrefix(name, "poolkit.pool."):
			want = 2
		}
		if n != want {
			t.Errorf("%s: %d data points, want %d", name, n, want)
		}
	}
}

func TestDefaultProvider(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	prev := otel.GetMeterProvider()
	otel.SetMeterProvider(mp)
	t.Cleanup(func() {
		otel.SetMeterProvider(prev)
		_ = mp.Shutdown(context.Background())
	})

	p, err := pool.New(3, pool.WithTimings())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for name, opts := range map[string][]otelpoolkit.Option{
		"none": nil,
		"nil":  {otelpoolkit.WithMeterProvider(nil)},
	} {
		m, err := otelpoolkit.New(opts...)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.WatchPool(name, p); err != nil {
			t.Fatal(err)
		}
		got := collect(t, reader)
		if v := find(t, got, metricspec.PoolCapacity, map[string]string{"pool": name}).value; v != 3 {
			t.Errorf("%s: capacity %d through the global provider, want 3", name, v)
		}
		// The reader was made without the Producer: no histograms.
		if _, ok := got[metricspec.PoolWait.OTel]; ok {
			t.Errorf("%s: a histogram reported by a reader without the Producer", name)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestClose(t *testing.T) {
	m, reader, hist := setup(t)
	p, err := pool.New(2, pool.WithTimings())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := m.WatchPool("p", p); err != nil {
		t.Fatal(err)
	}
	if len(collect(t, reader)) == 0 {
		t.Fatal("nothing reported before Close")
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	// The SDK drops the series of an asynchronous instrument that the
	// collection did not observe; the Producer reports nothing.
	if got := collect(t, reader); len(got) != 0 {
		t.Errorf("reported after Close: %v", slices.Sorted(maps.Keys(got)))
	}
	if sm, err := hist.Produce(context.Background()); err != nil || sm != nil {
		t.Errorf("Produce after Close: %v, %v", sm, err)
	}
	for name, err := range map[string]error{
		"pool":       m.WatchPool("q", p),
		"autoscaler": m.WatchAutoscaler("q", fakeAutoscaler{}),
		"system":     m.WatchSystem("q", fakeSystem{}),
		"router":     m.WatchRouter("q", fakeRouter{}),
	} {
		if !errors.Is(err, otelpoolkit.ErrClosed) {
			t.Errorf("Watch%s after Close: %v, want ErrClosed", name, err)
		}
	}
	if err := m.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}

	// The Producer is free again: a new Metrics on the same reader reports.
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	defer mp.Shutdown(context.Background())
	m2, err := otelpoolkit.New(otelpoolkit.WithMeterProvider(mp), otelpoolkit.WithProducer(hist))
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	if err := m2.WatchPool("p", p); err != nil {
		t.Fatal(err)
	}
	if got := collect(t, reader); len(got) != 2 { // the two histograms, through the Producer
		t.Errorf("after a new Metrics took the Producer: %v", slices.Sorted(maps.Keys(got)))
	}
	// While it serves m2 it cannot serve a third.
	if _, err := otelpoolkit.New(otelpoolkit.WithMeterProvider(mp), otelpoolkit.WithProducer(hist)); !errors.Is(err, otelpoolkit.ErrInvalid) {
		t.Errorf("New with a Producer in use: %v, want ErrInvalid", err)
	}
}

// countingProvider counts the callbacks registered on its meters and
// unregistered.
type countingProvider struct {
	metric.MeterProvider
	registered, unregistered atomic.Int32
}

type countingMeter struct {
	metric.Meter
	p *countingProvider
}

type countingRegistration struct {
	metric.Registration
	p *countingProvider
}

func (p *countingProvider) Meter(name string, opts ...metric.MeterOption) metric.Meter {
	return countingMeter{p.MeterProvider.Meter(name, opts...), p}
}

func (m countingMeter) RegisterCallback(f metric.Callback, insts ...metric.Observable) (metric.Registration, error) {
	r, err := m.Meter.RegisterCallback(f, insts...)
	if err != nil {
		return nil, err
	}
	m.p.registered.Add(1)
	return countingRegistration{r, m.p}, nil
}

func (r countingRegistration) Unregister() error {
	r.p.unregistered.Add(1)
	return r.Registration.Unregister()
}

func TestCloseUnregisters(t *testing.T) {
	sdk := sdkmetric.NewMeterProvider()
	defer sdk.Shutdown(context.Background())
	cp := &countingProvider{MeterProvider: sdk}
	m, err := otelpoolkit.New(otelpoolkit.WithMeterProvider(cp))
	if err != nil {
		t.Fatal(err)
	}
	if r, u := cp.registered.Load(), cp.unregistered.Load(); r != 1 || u != 0 {
		t.Fatalf("after New: %d callbacks registered, %d unregistered; want 1, 0", r, u)
	}
	_ = m.Close()
	_ = m.Close()
	if r, u := cp.registered.Load(), cp.unregistered.Load(); r != 1 || u != 1 {
		t.Errorf("after Close: %d callbacks registered, %d unregistered; want 1, 1", r, u)
	}
}

func TestUnwatch(t *testing.T) {
	m, reader, _ := setup(t)
	a, _ := pool.New(1, pool.WithTimings())
	defer a.Close()
	b, _ := pool.New(2, pool.WithTimings())
	defer b.Close()
	ctl, err := autoscale.New(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{m.WatchPool("a", a), m.WatchAutoscaler("a", ctl), m.WatchPool("b", b)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	m.Unwatch("a")
	m.Unwatch("nothing")
	got := collect(t, reader)
	if _, ok := got[metricspec.AutoTarget.OTel]; ok {
		t.Error("the autoscaler of an unwatched pool is still reported")
	}
	for name, md := range got {
		var sets []attribute.Set
		switch d := md.Data.(type) {
		case metricdata.Sum[int64]:
			for _, dp := range d.DataPoints {
				sets = append(sets, dp.Attributes)
			}
		case metricdata.Histogram[float64]:
			for _, dp := range d.DataPoints {
				sets = append(sets, dp.Attributes)
			}
		}
		for _, s := range sets {
			if v, _ := s.Value("pool"); v.AsString() != "b" {
				t.Errorf("%s: a data point for pool %q", name, v.AsString())
			}
		}
	}
	// The name is free again.
	if err := m.WatchPool("a", a); err != nil {
		t.Errorf("watch again after Unwatch: %v", err)
	}
}

func TestErrors(t *testing.T) {
	m, _, _ := setup(t)
	p, _ := pool.New(1, pool.WithTimings())
	defer p.Close()
	var nilPool *pool.Pool
	var nilRouter *actorpool.Router
	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"empty name", m.WatchPool("", p), otelpoolkit.ErrInvalid},
		{"nil source", m.WatchPool("x", nil), otelpoolkit.ErrInvalid},
		{"nil pointer", m.WatchPool("x", nilPool), otelpoolkit.ErrInvalid},
		{"nil router", m.WatchRouter("x", nilRouter), otelpoolkit.ErrInvalid},
		{"nil system", m.WatchSystem("x", nil), otelpoolkit.ErrInvalid},
		{"nil autoscaler", m.WatchAutoscaler("x", nil), otelpoolkit.ErrInvalid},
		{"first", m.WatchPool("x", p), nil},
		{"duplicate", m.WatchPool("x", p), otelpoolkit.ErrDuplicate},
		{"same name, other kind", m.WatchSystem("x", fakeSystem{}), nil},
	} {
		if !errors.Is(c.err, c.want) || (c.want == nil) != (c.err == nil) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.want)
		}
	}
	if _, err := otelpoolkit.New(nil); !errors.Is(err, otelpoolkit.ErrInvalid) {
		t.Errorf("New(nil): %v, want ErrInvalid", err)
	}
	if _, err := otelpoolkit.New(otelpoolkit.WithProducer(nil)); !errors.Is(err, otelpoolkit.ErrInvalid) {
		t.Errorf("New(WithProducer(nil)): %v, want ErrInvalid", err)
	}
}

// Sources need not be poolkit's.
type (
	fakeAutoscaler struct{}
	fakeSystem     struct{}
	fakeRouter     struct{}
)

func (fakeAutoscaler) Stats() autoscale.Stats   { return autoscale.Stats{} }
func (fakeSystem) Stats() actorpool.Stats       { return actorpool.Stats{} }
func (fakeRouter) Stats() actorpool.RouterStats { return actorpool.RouterStats{} }
