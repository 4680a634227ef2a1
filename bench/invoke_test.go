package bench

import (
	"sync"
	"testing"

	"github.com/panjf2000/ants/v2"

	"github.com/poolkit/poolkit/pool"
)

// BenchmarkInvoke: one argument handed to a pool with a fixed function,
// per op, with 8 workers, over a steady stream (the batch is waited for at
// the end). It shows the per-call cost and allocations of the typed
// function pools; a func() pool needs a closure per task instead.
func BenchmarkInvoke(b *testing.B) {
	b.Run("impl=poolkit", func(b *testing.B) {
		var wg sync.WaitGroup
		p, err := pool.NewFunc(8, func(x uint64) { sink.Add(spin(x) & 1); wg.Done() })
		if err != nil {
			b.Fatal(err)
		}
		invokeLoop(b, &wg, p.Invoke)
		p.Release()
	})
	b.Run("impl=ants", func(b *testing.B) {
		var wg sync.WaitGroup
		p, err := ants.NewPoolWithFuncGeneric(8, func(x uint64) { sink.Add(spin(x) & 1); wg.Done() })
		if err != nil {
			b.Fatal(err)
		}
		invokeLoop(b, &wg, p.Invoke)
		p.Release()
	})
	b.Run("impl=chan", func(b *testing.B) {
		var wg sync.WaitGroup
		ch := make(chan uint64, 1024)
		var workers sync.WaitGroup
		for range 8 {
			workers.Go(func() {
				for x := range ch {
					sink.Add(spin(x) & 1)
					wg.Done()
				}
			})
		}
		b.ReportAllocs()
		var i uint64
		for b.Loop() {
			i++
			wg.Add(1)
			ch <- i
		}
		wg.Wait()
		b.StopTimer()
		close(ch)
		workers.Wait()
	})
}

// invokeLoop hands one argument per op to invoke and waits for the batch;
// the pool's function calls wg.Done. The timer stops before it returns.
func invokeLoop(b *testing.B, wg *sync.WaitGroup, invoke func(uint64) error) {
	b.ReportAllocs()
	var i uint64
	for b.Loop() {
		i++
		wg.Add(1)
		if err := invoke(i); err != nil {
			b.Fatal(err)
		}
	}
	wg.Wait()
	b.StopTimer()
}

// BenchmarkManySubmitters: every benchmark goroutine (GOMAXPROCS x 8 of
// them) submits tiny tasks to one pool of 8 workers; one op is one
// submitted task, waited for at the end.
func BenchmarkManySubmitters(b *testing.B) {
	for _, c := range contenders() {
		b.Run("impl="+c.name, func(b *testing.B) {
			r, err := c.make(8)
			if err != nil {
				b.Fatal(err)
			}
			var wg sync.WaitGroup
			b.ReportAllocs()
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				var i uint64
				for pb.Next() {
					i++
					wg.Add(1)
					if err := r.Submit(func() { sink.Add(spin(i) & 1); wg.Done() }); err != nil {
						b.Error(err)
						wg.Done()
						return
					}
				}
			})
			wg.Wait()
			b.StopTimer()
			r.Close()
		})
	}
}
