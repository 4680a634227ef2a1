package otelpoolkit_test

import (
	"context"
	"fmt"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/poolkit/poolkit/otelpoolkit"
	"github.com/poolkit/poolkit/pool"
)

func Example() {
	// The Producer first: a reader takes it when it is made, before the
	// provider that New needs. (The Prometheus exporter takes it with
	// otelprom.WithProducer.)
	hist := otelpoolkit.NewProducer()
	reader := sdkmetric.NewManualReader(sdkmetric.WithProducer(hist))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	m, _ := otelpoolkit.New(otelpoolkit.WithMeterProvider(mp), otelpoolkit.WithProducer(hist))
	defer m.Close()
	p, _ := pool.New(4, pool.WithTimings())
	_ = m.WatchPool("api", p)

	for range 10 {
		_ = p.Submit(context.Background(), func() {})
	}
	_ = p.Shutdown(context.Background())

	var rm metricdata.ResourceMetrics
	_ = reader.Collect(context.Background(), &rm)
	for _, sm := range rm.ScopeMetrics {
		for _, md := range sm.Metrics {
			switch d := md.Data.(type) {
			case metricdata.Sum[int64]:
				if md.Name == "poolkit.pool.completed_tasks" {
					fmt.Println(md.Name, d.DataPoints[0].Value)
				}
			case metricdata.Histogram[float64]:
				fmt.Println(md.Name, d.DataPoints[0].Count)
			}
		}
	}
	// Output:
	// poolkit.pool.completed_tasks 10
	// poolkit.pool.task_wait 10
	// poolkit.pool.task_duration 10
}
