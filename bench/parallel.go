package bench

import (
	"context"
	"fmt"
	"runtime/metrics"
	"sync"
	"testing"

	"github.com/panjf2000/ants/v2"

	dropin "github.com/poolkit/poolkit/ants"
	"github.com/poolkit/poolkit/pool"
)

// blockingInvoke is the function-pool benchmark most often published for Go
// pools: a pool of 50 workers with a fixed function, fed by
// GOMAXPROCS x parallelism goroutines that each call a blocking Invoke in a
// loop, tasks of about 1 µs. Below parallelism 25 on two cores the pool is
// never full, so what it measures is the cost of a call while workers are
// free: a pool that starts a goroutine per call, or wakes one it need
// not, shows it here (goroutines/op counts the goroutines started per
// call, from runtime/metrics).
//
// The report runs it at parallelism 1 (GOMAXPROCS submitters), named
// BlockingInvoke; BenchmarkBlockingInvoke sweeps 1, 2, 10, 50 and 100.
func blockingInvoke(parallelism int) Workload {
	name := "BlockingInvoke"
	if parallelism != 1 {
		name = fmt.Sprintf("BlockingInvoke%d", parallelism)
	}
	return Workload{
		Name: name,
		About: fmt.Sprintf("GOMAXPROCS x %d goroutines call Invoke on a function pool of 50 workers "+
			"(ants' PoolWithFunc, poolkit's drop-in for it, poolkit's FuncPool), tasks of ~1 µs; "+
			"one op is one call", parallelism),
		Quick: "50ms", Full: "300ms",
		Cases: []Case{
			{"poolkit", func(b *testing.B) {
				var wg sync.WaitGroup
				p, err := pool.NewFunc(50, func(x uint64) { microTask(x); wg.Done() })
				if err != nil {
					problem(b, "poolkit", fmt.Sprintf("NewFunc(50) = %v", err))
				}
				defer p.Close()
				parallelInvoke(b, "poolkit", parallelism, &wg, func(x uint64) error { return p.Invoke(context.Background(), x) })
			}},
			{"ants", func(b *testing.B) {
				var wg sync.WaitGroup
				p, err := ants.NewPoolWithFunc(50, func(x any) { microTask(x.(uint64)); wg.Done() })
				if err != nil {
					problem(b, "ants", fmt.Sprintf("NewPoolWithFunc(50) = %v", err))
				}
				defer p.Release()
				parallelInvoke(b, "ants", parallelism, &wg, func(x uint64) error { return p.Invoke(x) })
			}},
			{"poolkit-ants", func(b *testing.B) {
				var wg sync.WaitGroup
				p, err := dropin.NewPoolWithFunc(50, func(x any) { microTask(x.(uint64)); wg.Done() })
				if err != nil {
					problem(b, "poolkit-ants", fmt.Sprintf("NewPoolWithFunc(50) = %v", err))
				}
				defer p.Release()
				parallelInvoke(b, "poolkit-ants", parallelism, &wg, func(x uint64) error { return p.Invoke(x) })
			}},
		},
	}
}

// microTask computes for about a microsecond.
func microTask(x uint64) {
	for range 10 {
		x = spin(x)
	}
	sink.Add(x & 1)
}

// parallelInvoke calls invoke once per op from GOMAXPROCS x parallelism
// goroutines, waits for the tasks (the pool's function calls wg.Done), and
// reports the goroutines started per call. The timer stops before it
// returns.
func parallelInvoke(b *testing.B, impl string, parallelism int, wg *sync.WaitGroup, invoke func(uint64) error) {
	var failed firstError
	b.ReportAllocs()
	b.SetParallelism(parallelism)
	g0, counted := goroutinesCreated()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var i uint64
		for pb.Next() {
			i++
			wg.Add(1)
			if err := invoke(i); err != nil {
				wg.Done()
				failed.set(fmt.Errorf("invoke: %v", err))
				return
			}
		}
	})
	wg.Wait()
	b.StopTimer()
	if g1, _ := goroutinesCreated(); counted {
		// RunParallel's own goroutines are counted too: at most
		// GOMAXPROCS x parallelism per run, spread over b.N calls.
		b.ReportMetric(float64(g1-g0)/float64(b.N), "goroutines/op")
	}
	if err := failed.get(); err != nil {
		problem(b, impl, err.Error())
	}
}

// goroutinesCreated reads how many goroutines the process has started;
// ok is false when the runtime does not publish it.
func goroutinesCreated() (n uint64, ok bool) {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return s[0].Value.Uint64(), true
}
