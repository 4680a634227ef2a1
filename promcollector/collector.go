package promcollector

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/poolkit/poolkit/metricspec"
	"github.com/poolkit/poolkit/pool"
)

// The sources a Collector watches. poolkit's own types satisfy them:
// *pool.Pool and *pool.FuncPool[T] are PoolSources, *autoscale.Controller
// is an AutoscalerSource, *actorpool.System a SystemSource and
// *actorpool.Router a RouterSource. Each has a Stats method, and nothing
// else is asked of it.
type (
	PoolSource       = metricspec.PoolSource
	AutoscalerSource = metricspec.AutoscalerSource
	SystemSource     = metricspec.SystemSource
	RouterSource     = metricspec.RouterSource
)

var (
	// ErrInvalid is matched by the error of a Watch method given an empty
	// name, a name that is not valid UTF-8 (it could not be a label
	// value), or a nil source.
	ErrInvalid = errors.New("promcollector: invalid argument")
	// ErrDuplicate is matched by the error of a Watch method given a name
	// already watched for the same kind of source. A pool and the
	// autoscaler driving it share a name, as they share the pool label.
	ErrDuplicate = errors.New("promcollector: name already watched")
)

// kind is a kind of source; it indexes kinds and Collector.watched.
type kind int

const (
	kindPool kind = iota
	kindAutoscaler
	kindSystem
	kindRouter
	numKinds
)

// kinds gives, for each kind, its name in errors and its metrics.
var kinds = [numKinds]struct {
	noun    string
	subject *metricspec.Subject
}{
	kindPool:       {"pool", &metricspec.Pool},
	kindAutoscaler: {"autoscaler", &metricspec.Autoscaler},
	kindSystem:     {"system", &metricspec.System},
	kindRouter:     {"router", &metricspec.Router},
}

// A Collector publishes the metrics of the pools, autoscalers, actor
// systems and routers it watches. It implements prometheus.Collector.
// Create one with New; the zero value is not usable. Its methods are safe
// for concurrent use, scrapes included: a scrape sees each source either
// watched or not.
//
// A Collector's metric names are fixed, so a registry takes at most one
// Collector: watch many sources with one, rather than one Collector per
// source.
type Collector struct {
	descs  map[*metricspec.Metric]*prometheus.Desc
	bounds []float64 // metricspec.Bounds, computed once

	mu      sync.Mutex
	watched [numKinds][]watched // each sorted by name
}

// watched is one source: its name and how to read it.
type watched struct {
	name string
	read func(metricspec.Emit)
}

// New returns a Collector that watches nothing yet. It registers nothing:
// register it on a registry of your own (prometheus.NewRegistry), which
// keeps the global state of prometheus.DefaultRegisterer out of a
// library.
func New() *Collector {
	c := &Collector{descs: make(map[*metricspec.Metric]*prometheus.Desc), bounds: metricspec.Bounds()}
	for _, k := range kinds {
		for _, m := range k.subject.Metrics {
			labels := []string{k.subject.Label}
			if m.Label != "" {
				labels = append(labels, m.Label)
			}
			c.descs[m] = prometheus.NewDesc(m.Prom, m.Help, labels, nil)
		}
	}
	return c
}

// WatchPool publishes p's metrics under the label pool=name from the next
// scrape on.
//
// The wait and duration histograms are the pool's timings, recorded only
// by a pool built with pool.WithTimings; without it they stay empty.
//
// It returns an error matching ErrInvalid for an empty or non-UTF-8 name
// or a nil p, and one matching ErrDuplicate when a pool is already watched
// under name; the collector and p are then unchanged.
func (c *Collector) WatchPool(name string, p PoolSource) error {
	return c.watch(kindPool, name, p, func(e metricspec.Emit) { metricspec.ReadPool(p, e) })
}

// WatchAutoscaler publishes the metrics of a, the autoscaler driving the
// pool watched (or not) under the same name, under the label pool=pool,
// from the next scrape on. Until a's first tick its gauges read 0.
//
// It returns an error matching ErrInvalid for an empty or non-UTF-8 name
// or a nil a, and one matching ErrDuplicate when an autoscaler is already
// watched under that name.
func (c *Collector) WatchAutoscaler(pool string, a AutoscalerSource) error {
	return c.watch(kindAutoscaler, pool, a, func(e metricspec.Emit) { metricspec.ReadAutoscaler(a, e) })
}

// WatchSystem publishes s's metrics under the label system=name from the
// next scrape on. A system's Stats visits every live actor's mailbox, so
// a scrape costs time in proportion to the live actors.
//
// It returns an error matching ErrInvalid for an empty or non-UTF-8 name
// or a nil s, and one matching ErrDuplicate when a system is already
// watched under name.
func (c *Collector) WatchSystem(name string, s SystemSource) error {
	return c.watch(kindSystem, name, s, func(e metricspec.Emit) { metricspec.ReadSystem(s, e) })
}

// WatchRouter publishes r's metrics under the label router=name from the
// next scrape on.
//
// The mailbox wait and handling histograms are the router's timings,
// recorded only by a router built with actorpool.WithTimings; without it
// they stay empty.
//
// It returns an error matching ErrInvalid for an empty or non-UTF-8 name
// or a nil r, and one matching ErrDuplicate when a router is already
// watched under name; the collector and r are then unchanged.
func (c *Collector) WatchRouter(name string, r RouterSource) error {
	return c.watch(kindRouter, name, r, func(e metricspec.Emit) { metricspec.ReadRouter(r, e) })
}

// Unwatch stops watching everything watched under name: the pool, the
// autoscaler, the system and the router, whichever are watched. Their
// series are gone from the next scrape on; a scrape under way may still
// publish them. Unwatching a name not watched does nothing.
func (c *Collector) Unwatch(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.watched {
		if i, ok := find(c.watched[k], name); ok {
			c.watched[k] = slices.Delete(c.watched[k], i, i+1)
		}
	}
}

// watch adds src, read by read, to the sources of kind k under name.
func (c *Collector) watch(k kind, name string, src any, read func(metricspec.Emit)) error {
	noun := kinds[k].noun
	switch {
	case name == "":
		return fmt.Errorf("%w: empty %s name", ErrInvalid, noun)
	case !utf8.ValidString(name):
		return fmt.Errorf("%w: %s name %q is not valid UTF-8", ErrInvalid, noun, name)
	case metricspec.IsNil(src):
		return fmt.Errorf("%w: nil %s %q", ErrInvalid, noun, name)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	i, ok := find(c.watched[k], name)
	if ok {
		return fmt.Errorf("%w: %s %q", ErrDuplicate, noun, name)
	}
	c.watched[k] = slices.Insert(c.watched[k], i, watched{name, read})
	return nil
}

// find returns where name is, or would be, in ws, sorted by name.
func find(ws []watched, name string) (int, bool) {
	return slices.BinarySearchFunc(ws, name, func(w watched, name string) int { return strings.Compare(w.name, name) })
}

// Describe sends the description of every metric the collector may
// publish, whatever it watches, so that a registry checks names, label
// names and conflicts with its other collectors when the collector is
// registered rather than at each scrape.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, k := range kinds {
		for _, m := range k.subject.Metrics {
			ch <- c.descs[m]
		}
	}
}

// Collect reads every watched source now and sends its metrics: pools,
// then autoscalers, systems and routers, each kind in the order of the
// names. The sources are read outside the collector's lock, so that a slow
// Stats holds up neither Watch nor Unwatch. The values of one source are
// as consistent as its Stats are: each is read field by field while the
// source runs.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	var all [numKinds][]watched
	for k := range all {
		// Watch and Unwatch write these slices in place: read copies.
		all[k] = slices.Clone(c.watched[k])
	}
	c.mu.Unlock()
	for _, ws := range all {
		for _, w := range ws {
			name := w.name
			w.read(func(m *metricspec.Metric, label string, v float64, h *pool.Histogram) {
				ch <- c.metric(m, name, label, v, h)
			})
		}
	}
}

// metric returns the constant metric m of the source watched under name,
// with its own label value label, for the value v or the histogram h.
func (c *Collector) metric(m *metricspec.Metric, name, label string, v float64, h *pool.Histogram) prometheus.Metric {
	d := c.descs[m]
	lv := []string{name}
	if m.Label != "" {
		lv = append(lv, label)
	}
	var (
		out prometheus.Metric
		err error
	)
	switch m.Kind {
	case metricspec.Gauge:
		out, err = prometheus.NewConstMetric(d, prometheus.GaugeValue, v, lv...)
	case metricspec.Counter:
		out, err = prometheus.NewConstMetric(d, prometheus.CounterValue, v, lv...)
	case metricspec.Histogram:
		counts, sum := metricspec.Counts(h, true)
		buckets := make(map[float64]uint64, len(c.bounds))
		for i, b := range c.bounds {
			buckets[b] = counts[i]
		}
		out, err = prometheus.NewConstHistogram(d, h.Count, sum, buckets, lv...)
	default:
		err = fmt.Errorf("promcollector: %s: unknown kind %d", m.Prom, m.Kind)
	}
	if err != nil {
		// The names were checked by Watch, so this is a bug; an invalid
		// metric fails the scrape with err instead of panicking in the
		// registry's goroutine.
		return prometheus.NewInvalidMetric(d, err)
	}
	return out
}
