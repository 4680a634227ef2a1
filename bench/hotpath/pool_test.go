package hotpath

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"

	"github.com/poolkit/poolkit/ants"
	"github.com/poolkit/poolkit/pool"
)

// workers is the size of the pools of package pool measured.
const workers = 8

// shutdowner is a pool that can be closed and waited for.
type shutdowner interface {
	Shutdown(ctx context.Context) error
}

// shutdownAtEnd shuts p down when the benchmark run ends, outside the
// timer, and waits for its workers to exit.
func shutdownAtEnd(b *testing.B, p shutdowner) {
	b.Cleanup(func() {
		b.StopTimer()
		ctx, cancel := context.WithTimeout(context.Background(), stuck)
		defer cancel()
		if err := p.Shutdown(ctx); err != nil {
			b.Errorf("shutdown: %v", err)
		}
	})
}

// ctx is the context of every submission measured: one that is never
// done, as a caller with no deadline passes.
var ctx = context.Background()

// newPool returns a pool of workers, released when the run ends.
func newPool(b *testing.B, opts ...pool.Option) *pool.Pool {
	p, err := pool.New(workers, opts...)
	if err != nil {
		b.Fatal(err)
	}
	shutdownAtEnd(b, p)
	return p
}

// submitAll has one goroutine submit b.N tiny tasks to p and waits until
// they have run. One op is one task.
func submitAll(b *testing.B, p *pool.Pool) {
	var wg sync.WaitGroup
	// One task value for every Submit: the allocations measured are the
	// pool's own.
	task := func() { tinyWork(); wg.Done() }
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		wg.Add(1)
		if err := p.Submit(ctx, task); err != nil {
			b.Fatal(err)
		}
	}
	wg.Wait()
	b.StopTimer()
}

// BenchmarkTinyTasks: one submitter, tasks of about 100 ns, 8 workers.
func BenchmarkTinyTasks(b *testing.B) { submitAll(b, newPool(b)) }

// BenchmarkSubmitTimings is BenchmarkTinyTasks with the pool's timings
// on: what measuring queue wait and run time costs per task.
func BenchmarkSubmitTimings(b *testing.B) { submitAll(b, newPool(b, pool.WithTimings())) }

// BenchmarkInvoke: one goroutine invokes a FuncPool of 8 workers with
// tasks of about 100 ns; the argument waits unboxed.
func BenchmarkInvoke(b *testing.B) {
	var wg sync.WaitGroup
	p, err := pool.NewFunc(workers, func(x uint64) { sink.Add(spin(x, tinyRounds) & 1); wg.Done() })
	if err != nil {
		b.Fatal(err)
	}
	shutdownAtEnd(b, p)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		wg.Add(1)
		if err := p.Invoke(ctx, uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
	wg.Wait()
	b.StopTimer()
}

// BenchmarkSubmitResult: one submitter, tasks of about 100 ns with a
// Future each, 8 workers; the submitter waits for every 64th Future, as a
// caller that gathers results in batches does. ctx=background passes a
// context that is never done; ctx=cancelable a request's, which can end,
// so that the pool watches it while the task waits.
func BenchmarkSubmitResult(b *testing.B) {
	cancelable, cancel := context.WithCancel(ctx)
	b.Cleanup(cancel)
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{{"ctx=background", ctx}, {"ctx=cancelable", cancelable}} {
		b.Run(c.name, func(b *testing.B) {
			p := newPool(b)
			fn := func() (int, error) { tinyWork(); return 1, nil }
			futures := make([]*pool.Future[int], 0, 64)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				f, err := pool.SubmitResult(c.ctx, p, fn)
				if err != nil {
					b.Fatal(err)
				}
				futures = append(futures, f)
				if len(futures) == cap(futures) || i == b.N-1 {
					for _, f := range futures {
						if _, err := f.Wait(c.ctx); err != nil {
							b.Fatal(err)
						}
					}
					futures = futures[:0]
				}
			}
			b.StopTimer()
		})
	}
}

// BenchmarkSubmitParallel: GOMAXPROCS goroutines submit tiny tasks to one
// pool of 8 workers.
func BenchmarkSubmitParallel(b *testing.B) { submitParallel(b, newPool(b), 1) }

// BenchmarkManySubmitters: GOMAXPROCS x 8 goroutines submit tiny tasks to
// one pool of 8 workers: the queue stays full and most submitters block,
// so every task crosses the blocked submitters' path.
func BenchmarkManySubmitters(b *testing.B) { submitParallel(b, newPool(b), 8) }

// BenchmarkPbyP: GOMAXPROCS goroutines submit tiny tasks to a pool of
// GOMAXPROCS workers, the shape of a service that sizes its pool by its
// cores.
func BenchmarkPbyP(b *testing.B) {
	p, err := pool.New(runtime.GOMAXPROCS(0))
	if err != nil {
		b.Fatal(err)
	}
	shutdownAtEnd(b, p)
	submitParallel(b, p, 1)
}

// submitParallel has parallelism x GOMAXPROCS goroutines submit b.N tiny
// tasks to p between them, and waits until they have run. One op is one
// task.
func submitParallel(b *testing.B, p *pool.Pool, parallelism int) {
	var wg sync.WaitGroup
	task := func() { tinyWork(); wg.Done() }
	b.ReportAllocs()
	b.SetParallelism(parallelism)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			wg.Add(1)
			if err := p.Submit(ctx, task); err != nil {
				wg.Done()
				b.Error(err)
				return
			}
		}
	})
	wg.Wait()
	b.StopTimer()
}

// BenchmarkDropinInvoke: the ants drop-in's PoolWithFunc of 50 workers,
// invoked (blocking when all are busy) by parallelism x GOMAXPROCS
// goroutines with tasks of about 1 µs. It also reports the goroutines
// started per task: the drop-in reuses its workers, so this stays near 0.
func BenchmarkDropinInvoke(b *testing.B) {
	for _, parallelism := range []int{1, 2, 10, 50, 100} {
		b.Run(fmt.Sprintf("parallelism=%d", parallelism), func(b *testing.B) {
			var wg sync.WaitGroup
			p, err := ants.NewPoolWithFunc(50, func(arg any) { sink.Add(spin(arg.(uint64), microRounds) & 1); wg.Done() })
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() {
				b.StopTimer()
				if err := p.ReleaseTimeout(stuck); err != nil {
					b.Errorf("release: %v", err)
				}
			})
			// One boxed argument for every Invoke: boxing is not the pool's
			// cost.
			var arg any = seed
			created, ok := goroutinesCreated()
			b.ReportAllocs()
			b.SetParallelism(parallelism)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					wg.Add(1)
					if err := p.Invoke(arg); err != nil {
						wg.Done()
						b.Error(err)
						return
					}
				}
			})
			wg.Wait()
			b.StopTimer()
			if after, ok2 := goroutinesCreated(); ok && ok2 {
				b.ReportMetric(float64(after-created)/float64(b.N), "goroutines/op")
			}
		})
	}
}

// goroutinesCreated is the number of goroutines created since the
// program started, and false when the runtime does not report it.
func goroutinesCreated() (uint64, bool) {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return s[0].Value.Uint64(), true
}
