package bench

import (
	"sync/atomic"
	"testing"
)

// Workload is one benchmark, run over every contender that fits it. Every
// workload has a case named "poolkit": the ratios are to it.
type Workload struct {
	// Name is the Benchmark function's name without "Benchmark".
	Name string
	// About says what one op is.
	About string
	// Quick and Full are the benchtimes (testing's -benchtime syntax) of a
	// quick and of a full comparison.
	Quick, Full string
	// Heavy workloads (a million sleeping tasks) are run in fewer rounds:
	// see Options.HeavyRounds.
	Heavy bool
	Cases []Case
}

// Case is one contender's run of a workload.
type Case struct {
	Impl string
	F    func(b *testing.B)
}

// Workloads returns every workload in the order the report shows them.
func Workloads() []Workload {
	return []Workload{
		tinyTasks(),
		ioLike(),
		mixed(),
		manySubmitters(),
		submitLatency(),
		invoke(),
		blockingInvoke(1),
		sleeping1M(),
		resizeGrow(),
		resizeShrink(),
		keyedUniform(),
		keyedZipf(),
		keyedSlowKey(),
		overloadClasses(),
	}
}

// Lookup returns the workload with the given name.
func Lookup(name string) (Workload, bool) {
	for _, w := range Workloads() {
		if w.Name == name {
			return w, true
		}
	}
	return Workload{}, false
}

// spin does about 100 ns of arithmetic that the compiler cannot remove.
func spin(seed uint64) uint64 {
	x := seed | 1
	for range 60 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

var sink atomic.Uint64

// each builds one case per contender that fits: inline contenders only
// where the work never waits.
func each(withInline bool, f func(c contender) func(b *testing.B)) []Case {
	var cases []Case
	for _, c := range contenders() {
		if c.inline && !withInline {
			continue
		}
		cases = append(cases, Case{Impl: c.name, F: f(c)})
	}
	return cases
}
