// Package otelpoolkit reports the metrics of poolkit's pools, autoscalers,
// actor systems and routers through OpenTelemetry: the metrics of
// docs/metrics.md, with the instrument names, kinds and units listed there.
// Through the OpenTelemetry Prometheus exporter they become the same
// series, under the same names, as the ones package promcollector
// exports, so a dashboard works whichever of the two feeds it.
//
// # What it reports
//
// Nothing is recorded on the hot path: the sources keep their own
// counters, gauges and histograms (Stats), and a Metrics reads
// them when a reader collects. Gauges are Int64ObservableUpDownCounters
// (a cumulative, non-monotonic sum; a Prometheus gauge), counters
// Int64ObservableCounters (a monotonic sum; a Prometheus counter), all
// observed by one callback. Every data point carries the name its source
// was watched under, as the attribute pool (for a pool and for the
// autoscaler driving it), system or router, and, for the metrics that
// have one, the attribute reason or cause.
//
// # Histograms, and the Producer
//
// The OpenTelemetry metrics API has no asynchronous histogram, and the
// histograms a pool or a router keeps are cumulative counts the exporter
// cannot feed through a synchronous one without recording every task a
// second time. So they bypass the API: a Producer hands the SDK's readers
// ready-made data points (metricdata.Histogram[float64], cumulative, with
// the explicit bounds of docs/metrics.md, growing fourfold from 1.024µs,
// the counts and the exact sum in seconds; no min or max, which the
// sources do not keep), under the same instrumentation scope, ScopeName.
// A reader only reports what it was given when it was made, so the
// Producer has to be given to it (sdkmetric.WithProducer, or the
// Prometheus exporter's WithProducer); otherwise the gauges and counters
// are reported and the histograms are not.
//
// Since the SDK reports a producer's data as it is, views do not apply to
// the histograms (they cannot be renamed, dropped or re-bucketed by one),
// and a reader configured for delta temporality still receives them
// cumulative. A data point's start time is when its source was watched;
// its counts may go back further, to when the source's timings were
// switched on.
//
// # Set-up
//
// A reader takes its producers when it is made, before the MeterProvider
// that New needs, so with an explicit provider the Producer comes first:
//
//	hist := otelpoolkit.NewProducer()
//	exp, err := otelprom.New(otelprom.WithProducer(hist)) // or sdkmetric.NewPeriodicReader(exporter, sdkmetric.WithProducer(hist))
//	...
//	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp))
//	m, err := otelpoolkit.New(otelpoolkit.WithMeterProvider(mp), otelpoolkit.WithProducer(hist))
//	...
//	defer m.Close()
//	err = m.WatchPool("api", p)
//
// With the global provider the order can be the other way round, since
// instruments made on it before otel.SetMeterProvider are handed over to
// the provider set: New() without options, then a reader made with
// m.Producer(), then otel.SetMeterProvider.
//
// # Sources and their life
//
// Watching a source changes nothing in it: a pool's or a router's
// timings are what it was built with (pool.WithTimings,
// actorpool.WithTimings), the histograms are the ones the source keeps,
// and its timings cost about two clock reads per task or message. A
// source is read twice per collection, once by the callback and once by
// the Producer, each time with its Stats method, which takes the source's
// locks briefly and does not stop its tasks.
//
// Unwatch stops reporting a name; Close stops everything and unregisters
// the callback. The SDK reports an asynchronous instrument's series only
// when the collection observed them, so after Unwatch or Close the series
// disappear from the next collection rather than freeze at their last
// values.
package otelpoolkit
