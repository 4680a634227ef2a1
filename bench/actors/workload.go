package actors

import (
	"testing"
)

// B is what a workload needs of its caller: *testing.B in a benchmark;
// in the smoke test, a *testing.T with the timer calls ignored and the
// metrics kept, so that a broken adapter fails with its own message.
type B interface {
	testing.TB
	ResetTimer()
	StopTimer()
	ReportAllocs()
	ReportMetric(n float64, unit string)
}

// Workload runs about n operations on a fresh system and reports its
// metrics. What an operation is, each workload says.
type Workload func(b B, n int)

// Bench adapts a workload to a benchmark function.
func Bench(w Workload) func(*testing.B) {
	return func(b *testing.B) { w(b, b.N) }
}

// start makes a fresh system for one run and closes it when the run ends,
// outside the timed part.
func start(b B, c Contender) System {
	sys, err := c.New()
	if err != nil {
		b.Fatalf("%s: %v", c.Name, err)
	}
	b.Cleanup(func() {
		b.StopTimer()
		if err := sys.Close(); err != nil {
			b.Errorf("%s: close: %v", c.Name, err)
		}
	})
	return sys
}

func spawn(b B, sys System, h Handler) Ref {
	r, err := sys.Spawn(h)
	if err != nil {
		b.Fatalf("spawn: %v", err)
	}
	return r
}

// token is the payload of the workloads whose messages carry nothing: a
// pointer, so that sending it allocates nothing.
type token struct{}

var tok = &token{}

// spin does about 10 ns of arithmetic per round that the compiler cannot
// remove: a handler's work.
func spin(rounds int) uint64 {
	x := uint64(rounds) | 1
	for range rounds * 6 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}
