package bench

import (
	"sync"
	"testing"
	"time"
)

const (
	ioTasks   = 10_000
	ioWorkers = 1000
	ioWait    = time.Millisecond
)

// BenchmarkIOLike: 10k tasks that each wait 1 ms (a stand-in for a call to
// a downstream service) on 1000 workers. The ideal is ten waves, 10 ms;
// timer granularity and wake-up costs decide how close a pool gets.
func BenchmarkIOLike(b *testing.B) {
	for _, c := range contenders() {
		b.Run("impl="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := c.make(ioWorkers)
				if err != nil {
					b.Fatal(err)
				}
				var wg sync.WaitGroup
				for range ioTasks {
					wg.Add(1)
					if err := r.Submit(func() { time.Sleep(ioWait); wg.Done() }); err != nil {
						b.Fatal(err)
					}
				}
				wg.Wait()
				r.Close()
			}
		})
	}
}
