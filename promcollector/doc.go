// Package promcollector exports poolkit's pools, autoscalers, actor
// systems and routers to Prometheus.
//
// A Collector is a prometheus.Collector that watches any number of them,
// each under a name that becomes a label of its series: pool for a pool
// and for the autoscaler driving it, system for an actor system, router
// for a router. The metrics, their types, units and help are those of
// poolkit's docs/metrics.md; the OpenTelemetry exporter, otelpoolkit,
// publishes the same ones, so that a dashboard works whichever exporter
// feeds it.
//
// Nothing is recorded between scrapes: every value is read from its source
// when the registry collects (Stats), and published as a constant metric.
// A scrape costs a call of Stats per watched thing, each taking its
// source's locks briefly; the sources themselves pay nothing for being
// watched, and watching changes nothing in them. A pool's or a router's
// histograms are its own timings, kept only by a pool built with
// pool.WithTimings or a router built with actorpool.WithTimings.
//
// The collector registers itself nowhere. Register it on a registry of
// your own, as library code should leave the global one alone:
//
//	c := promcollector.New()
//	if err := c.WatchPool("ingest", p); err != nil { ... }
//	reg := prometheus.NewRegistry()
//	reg.MustRegister(c)
//	http.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
//
// To add labels of your own to every series (an instance, a shard), wrap the
// registerer with prometheus.WrapRegistererWith rather than watching under
// composite names.
//
// # Histograms
//
// Pools and routers record durations into fixed buckets whose bounds
// double from 1.024µs (pool.Histogram.Bound). The collector publishes every
// other bound, from 1.024µs to about 1100s, so that the bounds grow
// fourfold: 16 buckets and +Inf. Counts and sums are exact, not sampled.
package promcollector
