package actors

import (
	"fmt"
	"testing"
)

// smokeB runs a workload inside a test: the timer calls do nothing but
// what matters to the metrics, which are kept for checking (ResetTimer
// forgets them, as testing.B's does).
type smokeB struct {
	*testing.T
	metrics map[string]float64
}

func (s smokeB) ResetTimer()                         { clear(s.metrics) }
func (smokeB) StopTimer()                            {}
func (smokeB) ReportAllocs()                         {}
func (s smokeB) ReportMetric(v float64, unit string) { s.metrics[unit] = v }

// Smoke runs every comparative workload once over every contender at a
// tiny size, and with poolkit the budget and serializer workloads too, so
// that a change in a library or in poolkit that breaks an adapter fails a
// test, not the middle of a benchmark run.
func Smoke(t *testing.T, cs []Contender, withPoolkitOnly bool) {
	type run struct {
		name string
		w    Workload
		want []string // metrics it must report
	}
	var runs []run
	for _, c := range cs {
		runs = append(runs,
			run{c.Name + "/PingPong/inflight=1", PingPong(c, 1), []string{"msg/s"}},
			run{c.Name + "/PingPong/inflight=100", PingPong(c, 100), []string{"msg/s"}},
			run{c.Name + "/Ask", Ask(c), []string{"p50-ns", "p99-ns"}},
			run{c.Name + "/FanIn", FanIn(c), []string{"msg/s"}},
			run{c.Name + "/FanOut", FanOut(c, 100), []string{"msg/s", "heapB/actor", "goroutines/actor"}},
			run{c.Name + "/Router/producers=1", Router(c, 1, 4), []string{"msg/s"}},
			run{c.Name + "/Router/producers=2", Router(c, 2, 4), []string{"msg/s"}},
		)
	}
	if withPoolkitOnly {
		for _, budget := range []int{1, 128} {
			runs = append(runs, run{fmt.Sprintf("poolkit/Budget=%d", budget), Budget(budget), []string{"cold-p99-ns", "hot-msg/s"}})
		}
		for _, via := range []bool{false, true} {
			runs = append(runs, run{fmt.Sprintf("poolkit/Serializer=%v", via), Serializer(via, 4), []string{"p99-ns"}})
		}
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			b := smokeB{T: t, metrics: map[string]float64{}}
			r.w(b, 400)
			for _, m := range r.want {
				if _, ok := b.metrics[m]; !ok {
					t.Errorf("no %s reported; got %v", m, b.metrics)
				}
			}
		})
	}
}
