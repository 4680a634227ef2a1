package bench

import (
	"fmt"
	"testing"
)

// Every workload is a Benchmark function, its contenders sub-benchmarks
// named impl=NAME: `go test -bench . ./bench | benchstat -col /impl -`.

func BenchmarkTinyTasks(b *testing.B)      { runWorkload(b, "TinyTasks") }
func BenchmarkIOLike(b *testing.B)         { runWorkload(b, "IOLike") }
func BenchmarkMixed(b *testing.B)          { runWorkload(b, "Mixed") }
func BenchmarkManySubmitters(b *testing.B) { runWorkload(b, "ManySubmitters") }
func BenchmarkSubmitLatency(b *testing.B)  { runWorkload(b, "SubmitLatency") }
func BenchmarkInvoke(b *testing.B)         { runWorkload(b, "Invoke") }
func BenchmarkBlockingInvoke(b *testing.B) {
	for _, p := range []int{1, 2, 10, 50, 100} {
		b.Run(fmt.Sprintf("p=%d", p), func(b *testing.B) {
			for _, c := range blockingInvoke(p).Cases {
				b.Run("impl="+c.Impl, c.F)
			}
		})
	}
}
func BenchmarkSleeping1M(b *testing.B)      { runWorkload(b, "Sleeping1M") }
func BenchmarkResizeGrow(b *testing.B)      { runWorkload(b, "ResizeGrow") }
func BenchmarkResizeShrink(b *testing.B)    { runWorkload(b, "ResizeShrink") }
func BenchmarkKeyedUniform(b *testing.B)    { runWorkload(b, "KeyedUniform") }
func BenchmarkKeyedZipf(b *testing.B)       { runWorkload(b, "KeyedZipf") }
func BenchmarkKeyedSlowKey(b *testing.B)    { runWorkload(b, "KeyedSlowKey") }
func BenchmarkOverloadClasses(b *testing.B) { runWorkload(b, "OverloadClasses") }

func runWorkload(b *testing.B, name string) {
	w, ok := Lookup(name)
	if !ok {
		b.Fatalf("no workload %q", name)
	}
	for _, c := range w.Cases {
		b.Run("impl="+c.Impl, c.F)
	}
}
