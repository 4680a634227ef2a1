package bench

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/Jeffail/tunny"
	"github.com/panjf2000/ants/v2"

	dropin "github.com/poolkit/poolkit/ants"
	"github.com/poolkit/poolkit/pool"
)

func invoke() Workload {
	return Workload{
		Name: "Invoke",
		About: "one argument handed to a pool with a fixed function (poolkit FuncPool, ants' generic " +
			"PoolWithFunc, tunny) on 8 workers, one submitter; one op is one call",
		Quick: "50ms", Full: "300ms",
		Cases: []Case{
			{"poolkit", func(b *testing.B) {
				var wg sync.WaitGroup
				p, err := pool.NewFunc(8, func(x uint64) { sink.Add(spin(x) & 1); wg.Done() })
				if err != nil {
					problem(b, "poolkit", fmt.Sprintf("NewFunc(8) = %v", err))
				}
				defer p.Close()
				invokeLoop(b, "poolkit", &wg, func(x uint64) error { return p.Invoke(context.Background(), x) })
			}},
			{"chan", func(b *testing.B) {
				var wg, workers sync.WaitGroup
				ch := make(chan uint64, 1024)
				for range 8 {
					workers.Go(func() {
						for x := range ch {
							sink.Add(spin(x) & 1)
							wg.Done()
						}
					})
				}
				invokeLoop(b, "chan", &wg, func(x uint64) error { ch <- x; return nil })
				close(ch)
				workers.Wait()
			}},
			{"ants", func(b *testing.B) {
				var wg sync.WaitGroup
				p, err := ants.NewPoolWithFuncGeneric(8, func(x uint64) { sink.Add(spin(x) & 1); wg.Done() })
				if err != nil {
					problem(b, "ants", fmt.Sprintf("NewPoolWithFuncGeneric(8) = %v", err))
				}
				defer p.Release()
				invokeLoop(b, "ants", &wg, p.Invoke)
			}},
			{"poolkit-ants", func(b *testing.B) {
				var wg sync.WaitGroup
				p, err := dropin.NewPoolWithFuncGeneric(8, func(x uint64) { sink.Add(spin(x) & 1); wg.Done() })
				if err != nil {
					problem(b, "poolkit-ants", fmt.Sprintf("NewPoolWithFuncGeneric(8) = %v", err))
				}
				defer p.Release()
				invokeLoop(b, "poolkit-ants", &wg, p.Invoke)
			}},
			{"tunny", func(b *testing.B) {
				// Process blocks until the job is done: each call gets a
				// goroutine of its own, so that the caller goes on at once
				// (compat's adapter, in the func() workloads, also waits
				// for a worker to start the job before it returns).
				var wg sync.WaitGroup
				p := tunny.NewFunc(8, func(x any) any { sink.Add(spin(x.(uint64)) & 1); wg.Done(); return nil })
				var callers sync.WaitGroup
				invokeLoop(b, "tunny", &wg, func(x uint64) error { callers.Go(func() { p.Process(x) }); return nil })
				callers.Wait()
				p.Close()
			}},
		},
	}
}

// invokeLoop hands one argument per op to impl's invoke and waits for
// the batch; the pool's function calls wg.Done. The timer stops before it
// returns.
func invokeLoop(b *testing.B, impl string, wg *sync.WaitGroup, invoke func(uint64) error) {
	b.ReportAllocs()
	var i uint64
	for b.Loop() {
		i++
		wg.Add(1)
		if err := invoke(i); err != nil {
			wg.Done()
			wg.Wait()
			problem(b, impl, fmt.Sprintf("Invoke of argument %d = %v", i, err))
		}
	}
	wg.Wait()
	b.StopTimer()
}
