//go:build go1.24

package promcollector_test

import (
	"fmt"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/poolkit/poolkit/promcollector"
)

// BenchmarkGather is one scrape's work in the collector and the registry:
// a pool, its autoscaler, an actor system and a router, each read and
// turned into metric families.
func BenchmarkGather(b *testing.B) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(watchAll(b))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Gather(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGatherSystem is a scrape of an actor system alone, by its
// number of live actors: the mailbox depth is summed over all of them.
func BenchmarkGatherSystem(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("actors=%d", n), func(b *testing.B) {
			sys := newSystem(b)
			for range n {
				if _, err := sys.Spawn(echo); err != nil {
					b.Fatal(err)
				}
			}
			c := promcollector.New()
			if err := c.WatchSystem("actors", sys); err != nil {
				b.Fatal(err)
			}
			reg := prometheus.NewRegistry()
			reg.MustRegister(c)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := reg.Gather(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
