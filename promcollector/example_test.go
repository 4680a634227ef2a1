package promcollector_test

import (
	"fmt"
	"log"
	"net/http"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/promcollector"
)

// ExampleNew publishes a pool's metrics on /metrics, from a registry of
// the application's own.
func ExampleNew() {
	p, _ := pool.New(8, pool.WithTimings())
	defer p.Close()

	c := promcollector.New()
	if err := c.WatchPool("ingest", p); err != nil {
		log.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(c)
	http.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
}

// ExampleCollector_Unwatch watches two pools with one collector, then
// stops watching one of them.
func ExampleCollector_Unwatch() {
	small, _ := pool.New(2, pool.WithTimings())
	defer small.Close()
	large, _ := pool.New(64, pool.WithTimings())
	defer large.Close()

	c := promcollector.New()
	_ = c.WatchPool("small", small)
	_ = c.WatchPool("large", large)
	reg := prometheus.NewRegistry()
	reg.MustRegister(c)
	capacities := func() {
		mfs, _ := reg.Gather()
		var out []string
		for _, mf := range mfs {
			if mf.GetName() == "poolkit_pool_capacity" {
				for _, m := range mf.GetMetric() {
					out = append(out, fmt.Sprintf("%s=%v", m.GetLabel()[0].GetValue(), m.GetGauge().GetValue()))
				}
			}
		}
		fmt.Println(strings.Join(out, " "))
	}
	capacities()
	c.Unwatch("small")
	capacities()
	// Output:
	// large=64 small=2
	// large=64
}
