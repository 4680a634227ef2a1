package actors

import (
	"fmt"
	"runtime"
	"testing"
)

// The comparative suites, each run over the contenders given: every
// module that adds a library declares its Benchmark functions by calling
// these, so the workloads and names stay the same everywhere. Each
// contender is a sub-benchmark named impl=NAME, for `benchstat -col
// /impl`.

// BenchPingPong: GOMAXPROCS x 2 pairs, 1 and 100 messages in flight each.
func BenchPingPong(b *testing.B, cs []Contender) {
	for _, c := range cs {
		for _, inflight := range []int{1, 100} {
			b.Run(fmt.Sprintf("impl=%s/inflight=%d", c.Name, inflight), Bench(PingPong(c, inflight)))
		}
	}
}

// BenchAsk: sequential Ask round trips.
func BenchAsk(b *testing.B, cs []Contender) {
	for _, c := range cs {
		b.Run("impl="+c.Name, Bench(Ask(c)))
	}
}

// BenchFanIn: GOMAXPROCS producers into one actor.
func BenchFanIn(b *testing.B, cs []Contender) {
	for _, c := range cs {
		b.Run("impl="+c.Name, Bench(FanIn(c)))
	}
}

// BenchFanOut: 10k and 100k actors.
func BenchFanOut(b *testing.B, cs []Contender) {
	for _, c := range cs {
		for _, n := range []int{10_000, 100_000} {
			b.Run(fmt.Sprintf("impl=%s/actors=%d", c.Name, n), Bench(FanOut(c, n)))
		}
	}
}

// BenchRouter: 1 and GOMAXPROCS producers into a round-robin pool of
// each of RouterWorkers' sizes.
func BenchRouter(b *testing.B, cs []Contender) {
	for _, c := range cs {
		for _, p := range []int{1, runtime.GOMAXPROCS(0)} {
			for _, w := range RouterWorkers() {
				b.Run(fmt.Sprintf("impl=%s/producers=%d/workers=%d", c.Name, p, w), Bench(Router(c, p, w)))
			}
		}
	}
}

// BenchBudget is poolkit's alone: the other libraries fix their budget
// (GoAkt at 32 in the version measured; protoactor yields to the Go
// scheduler every 300 messages without giving up the actor).
func BenchBudget(b *testing.B) {
	for _, budget := range []int{1, 8, 32, 128} {
		b.Run(fmt.Sprintf("impl=poolkit/budget=%d", budget), Bench(Budget(budget)))
	}
}

// BenchSerializer is poolkit's alone: direct Ask against Ask through a
// serializer, with 1 and 8 customers.
func BenchSerializer(b *testing.B) {
	for _, customers := range []int{1, 8} {
		for _, via := range []string{"direct", "serializer"} {
			b.Run(fmt.Sprintf("impl=poolkit/via=%s/customers=%d", via, customers),
				Bench(Serializer(via == "serializer", customers)))
		}
	}
}
