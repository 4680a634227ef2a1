package otelpoolkit

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/poolkit/poolkit/metricspec"
	"github.com/poolkit/poolkit/pool"
)

// ScopeName is the instrumentation scope of everything the package
// reports: the name of its Meter and of the scope its Producer reports
// under.
const ScopeName = "github.com/poolkit/poolkit/otelpoolkit"

// module is the path of the module the package belongs to, as build
// information records it.
const module = ScopeName

// Version returns the version of this module recorded in the running
// binary's build information: a release tag or a pseudo-version when the
// module is a dependency, "(devel)" when it is the main module, "" when
// the binary carries no build information. It is the version of the
// instrumentation scope.
func Version() string { return version() }

// The version is read from the build information rather than written
// here, so that it cannot fall behind the module's tags.
var version = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	if bi.Main.Path == module {
		return bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == module {
			return d.Version
		}
	}
	return ""
})

// The sources of metrics. poolkit's types satisfy them: *pool.Pool and
// *pool.FuncPool[T] are PoolSources, *autoscale.Controller an
// AutoscalerSource, *actorpool.System a SystemSource and *actorpool.Router
// a RouterSource.
type (
	PoolSource       = metricspec.PoolSource
	AutoscalerSource = metricspec.AutoscalerSource
	SystemSource     = metricspec.SystemSource
	RouterSource     = metricspec.RouterSource
)

// The errors of the package. The errors returned wrap them, with details;
// test for them with errors.Is.
var (
	// ErrInvalid reports an empty name, a nil source, a nil Option, or a
	// Producer already serving another Metrics.
	ErrInvalid = errors.New("otelpoolkit: invalid argument")
	// ErrDuplicate reports a name already watched for the same kind of
	// source.
	ErrDuplicate = errors.New("otelpoolkit: already watched")
	// ErrClosed reports a Watch call on a closed Metrics.
	ErrClosed = errors.New("otelpoolkit: closed")
)

// An Option configures New.
type Option func(*config)

type config struct {
	provider metric.MeterProvider
	producer *Producer
	err      error // an Option's, which New returns
}

// WithMeterProvider makes New create its instruments with mp. Without it,
// or with a nil mp, New uses the global provider, otel.GetMeterProvider(),
// as OpenTelemetry's instrumentation libraries do: a caller can pass its
// own optional provider through without testing it for nil.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.provider = mp }
}

// WithProducer makes New report the histograms through p, a Producer made
// by NewProducer and already given to a reader of the MeterProvider. A
// reader takes its producers when it is made, before the provider exists,
// and New needs the provider: without this option, a New given an
// explicit provider would have no way to reach that provider's readers.
// A nil p is an error matching ErrInvalid.
func WithProducer(p *Producer) Option {
	return func(c *config) {
		if p == nil {
			c.err = fmt.Errorf("%w: nil Producer", ErrInvalid)
		}
		c.producer = p
	}
}

// Metrics reports the metrics of the pools, autoscalers, actor systems and
// routers it watches, read at collection time: observable instruments for
// the gauges and counters, and its Producer for the histograms. Create one
// with New; its methods are safe for concurrent use.
type Metrics struct {
	instruments map[*metricspec.Metric]metric.Int64Observable
	reg         metric.Registration
	producer    *Producer
	bounds      []float64 // shared by every data point, never written

	mu     sync.Mutex
	closed bool
	// watches is replaced, never modified, so that a collection reads a
	// snapshot of it without holding mu while it reads the sources.
	watches []*watch
}

// New returns a Metrics that reports nothing until it watches something.
// It creates every gauge and counter of docs/metrics.md as an observable
// instrument (a gauge as an Int64ObservableUpDownCounter, a counter as an
// Int64ObservableCounter) on a Meter named ScopeName, and registers one
// callback that observes them all. A nil Option is an error matching
// ErrInvalid, as is a Producer given with WithProducer that serves
// another Metrics not yet closed.
func New(opts ...Option) (*Metrics, error) {
	var cfg config
	for _, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("%w: nil Option", ErrInvalid)
		}
		o(&cfg)
	}
	if cfg.err != nil {
		return nil, cfg.err
	}
	provider := cfg.provider
	if provider == nil {
		provider = otel.GetMeterProvider()
	}
	meter := provider.Meter(ScopeName, metric.WithInstrumentationVersion(Version()))

	m := &Metrics{
		instruments: make(map[*metricspec.Metric]metric.Int64Observable),
		producer:    cfg.producer,
		bounds:      metricspec.Bounds(),
	}
	var observables []metric.Observable
	for _, s := range metricspec.Subjects {
		for _, spec := range s.Metrics {
			var inst metric.Int64Observable
			var err error
			unit, desc := metric.WithUnit(spec.OTelUnit), metric.WithDescription(spec.Help)
			switch spec.Kind {
			case metricspec.Gauge:
				inst, err = meter.Int64ObservableUpDownCounter(spec.OTel, unit, desc)
			case metricspec.Counter:
				inst, err = meter.Int64ObservableCounter(spec.OTel, unit, desc)
			default:
				continue // a histogram: the Producer reports it
			}
			if err != nil {
				return nil, fmt.Errorf("otelpoolkit: instrument %s: %w", spec.OTel, err)
			}
			m.instruments[spec] = inst
			observables = append(observables, inst)
		}
	}

	if m.producer == nil {
		m.producer = NewProducer()
	}
	if !m.producer.m.CompareAndSwap(nil, m) {
		return nil, fmt.Errorf("%w: the Producer serves another Metrics", ErrInvalid)
	}
	reg, err := meter.RegisterCallback(m.observe, observables...)
	if err != nil {
		m.producer.m.CompareAndSwap(m, nil)
		return nil, fmt.Errorf("otelpoolkit: register callback: %w", err)
	}
	m.reg = reg
	return m, nil
}

// Producer returns the producer of the histograms: the one given with
// WithProducer, or one New made. A reader reports the histograms only if
// it was made with it (sdkmetric.WithProducer); see the package
// documentation.
func (m *Metrics) Producer() sdkmetric.Producer { return m.producer }

// WatchPool reports p's metrics with the attribute pool=name, until
// Unwatch(name) or Close. The histograms are the timings p keeps, recorded
// only by a pool built with pool.WithTimings; without it they stay empty.
func (m *Metrics) WatchPool(name string, p PoolSource) error {
	return m.add("pool", name, p, func(e metricspec.Emit) { metricspec.ReadPool(p, e) })
}

// WatchAutoscaler reports c's metrics with the attribute pool set to the
// name of the pool c drives, which may be the name that pool is watched
// under.
func (m *Metrics) WatchAutoscaler(pool string, c AutoscalerSource) error {
	return m.add("autoscaler", pool, c, func(e metricspec.Emit) { metricspec.ReadAutoscaler(c, e) })
}

// WatchSystem reports s's metrics with the attribute system=name.
func (m *Metrics) WatchSystem(name string, s SystemSource) error {
	return m.add("system", name, s, func(e metricspec.Emit) { metricspec.ReadSystem(s, e) })
}

// WatchRouter reports r's metrics with the attribute router=name. The
// histograms are the timings r keeps, recorded only by a router built
// with actorpool.WithTimings; without it they stay empty.
func (m *Metrics) WatchRouter(name string, r RouterSource) error {
	return m.add("router", name, r, func(e metricspec.Emit) { metricspec.ReadRouter(r, e) })
}

// Unwatch stops reporting every source watched under name, whatever its
// kind: a pool and its autoscaler go together. A collection that starts
// after Unwatch returns does not read them. Unwatching a name not watched
// does nothing.
func (m *Metrics) Unwatch(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	kept := make([]*watch, 0, len(m.watches))
	for _, w := range m.watches {
		if w.name != name {
			kept = append(kept, w)
		}
	}
	m.watches = kept
}

// Close stops every report: it unwatches everything, unregisters the
// callback and detaches the Producer, which may then serve a new Metrics.
// A collection that starts after Close returns reports nothing from m. A
// later Watch call returns an error matching ErrClosed; a later Close
// does nothing and returns nil.
func (m *Metrics) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	m.watches = nil
	m.mu.Unlock()
	m.producer.m.CompareAndSwap(m, nil)
	// Not under mu: the SDK runs the callback under its own lock, which
	// Unregister takes too, and the callback takes mu.
	return m.reg.Unregister()
}

// watch is one watched source.
type watch struct {
	kind, name string
	label      string // the subject's attribute: pool, system or router
	since      time.Time
	read       func(metricspec.Emit)
	base       attribute.Set // label=name
	// labelled caches, by labelKey, the attribute sets of the metrics
	// with a label of their own, whose values (reasons, causes) only the
	// readers know: a collection after the first builds none.
	labelled sync.Map
}

type labelKey struct {
	spec  *metricspec.Metric
	value string
}

// attributes returns the attribute set of spec's data point for the
// value label of spec's own label.
func (w *watch) attributes(spec *metricspec.Metric, label string) attribute.Set {
	if spec.Label == "" {
		return w.base
	}
	k := labelKey{spec, label}
	if s, ok := w.labelled.Load(k); ok {
		return s.(attribute.Set)
	}
	s := attribute.NewSet(attribute.String(w.label, w.name), attribute.String(spec.Label, label))
	w.labelled.Store(k, s)
	return s
}

// labels maps a kind of source to the attribute its name goes in.
var labels = map[string]string{
	"pool":       metricspec.Pool.Label,
	"autoscaler": metricspec.Autoscaler.Label,
	"system":     metricspec.System.Label,
	"router":     metricspec.Router.Label,
}

func (m *Metrics) add(kind, name string, src any, read func(metricspec.Emit)) error {
	if name == "" {
		return fmt.Errorf("%w: empty %s name", ErrInvalid, kind)
	}
	if metricspec.IsNil(src) {
		return fmt.Errorf("%w: nil %s %q", ErrInvalid, kind, name)
	}
	label := labels[kind]
	w := &watch{
		kind:  kind,
		name:  name,
		label: label,
		since: time.Now(),
		read:  read,
		base:  attribute.NewSet(attribute.String(label, name)),
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return fmt.Errorf("%w: watch %s %q", ErrClosed, kind, name)
	}
	for _, o := range m.watches {
		if o.kind == kind && o.name == name {
			return fmt.Errorf("%w: %s %q", ErrDuplicate, kind, name)
		}
	}
	m.watches = append(m.watches[:len(m.watches):len(m.watches)], w)
	return nil
}

func (m *Metrics) snapshot() []*watch {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.watches
}

// observe is the one callback: it reads every watched source.
func (m *Metrics) observe(_ context.Context, o metric.Observer) error {
	for _, w := range m.snapshot() {
		w.read(func(spec *metricspec.Metric, label string, v float64, h *pool.Histogram) {
			if h != nil {
				return
			}
			o.ObserveInt64(m.instruments[spec], int64(v), metric.WithAttributeSet(w.attributes(spec, label)))
		})
	}
	return nil
}

// Producer reports the histograms of the pools and routers a Metrics
// watches, as cumulative explicit-bucket histograms, to the readers it
// was given to. It implements sdkmetric.Producer. Make one with
// NewProducer when the MeterProvider is created before the Metrics, which
// is always the case with WithMeterProvider; a Metrics made without
// WithProducer makes its own. A Producer serves one Metrics at a time,
// from New to Close; until then, and after, it reports nothing.
type Producer struct {
	m atomic.Pointer[Metrics]
}

// NewProducer returns a Producer for New's WithProducer option.
func NewProducer() *Producer { return new(Producer) }

// Produce returns one ScopeMetrics, under ScopeName, holding a
// metricdata.Histogram[float64] per histogram of docs/metrics.md that a
// watched source has, with one data point per source; or nothing when
// nothing with a histogram is watched. It is safe for concurrent use.
func (p *Producer) Produce(ctx context.Context) ([]metricdata.ScopeMetrics, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m := p.m.Load()
	if m == nil {
		return nil, nil
	}
	return m.produce(), nil
}

func (m *Metrics) produce() []metricdata.ScopeMetrics {
	now := time.Now()
	var order []*metricspec.Metric
	points := make(map[*metricspec.Metric][]metricdata.HistogramDataPoint[float64])
	for _, w := range m.snapshot() {
		w.read(func(spec *metricspec.Metric, label string, _ float64, h *pool.Histogram) {
			if h == nil {
				return
			}
			counts, sum := metricspec.Counts(h, false)
			// The count is the buckets' total, not h.Count, so that the
			// data point is consistent even from a source whose snapshot
			// is not.
			var n uint64
			for _, c := range counts {
				n += c
			}
			if _, ok := points[spec]; !ok {
				order = append(order, spec)
			}
			points[spec] = append(points[spec], metricdata.HistogramDataPoint[float64]{
				Attributes:   w.attributes(spec, label),
				StartTime:    w.since,
				Time:         now,
				Count:        n,
				Bounds:       m.bounds,
				BucketCounts: counts,
				Sum:          sum,
			})
		})
	}
	if len(order) == 0 {
		return nil
	}
	sm := metricdata.ScopeMetrics{
		Scope:   instrumentation.Scope{Name: ScopeName, Version: Version()},
		Metrics: make([]metricdata.Metrics, 0, len(order)),
	}
	for _, spec := range order {
		sm.Metrics = append(sm.Metrics, metricdata.Metrics{
			Name:        spec.OTel,
			Description: spec.Help,
			Unit:        spec.OTelUnit,
			Data: metricdata.Histogram[float64]{
				Temporality: metricdata.CumulativeTemporality,
				DataPoints:  points[spec],
			},
		})
	}
	return []metricdata.ScopeMetrics{sm}
}
