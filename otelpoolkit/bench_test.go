package otelpoolkit_test

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/poolkit/poolkit/pool"
)

// BenchmarkCollect is one collection of a watched pool by the SDK's manual
// reader: the callback's observations and the Producer's histograms.
func BenchmarkCollect(b *testing.B) {
	m, reader, _ := setup(b)
	p, err := pool.New(4, pool.WithTimings())
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	if err := m.WatchPool("work", p); err != nil {
		b.Fatal(err)
	}
	var rm metricdata.ResourceMetrics
	b.ReportAllocs()
	for b.Loop() {
		if err := reader.Collect(context.Background(), &rm); err != nil {
			b.Fatal(err)
		}
	}
}
