package bench

import (
	"sync"
	"sync/atomic"
	"testing"
)

// spin does about 100 ns of arithmetic that the compiler cannot remove.
func spin(seed uint64) uint64 {
	x := seed
	for range 60 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

var sink atomic.Uint64

const tinyTasks = 100_000

// BenchmarkTinyTasks: 100k tasks of ~100 ns on 8 workers, one submitter,
// waiting for all of them. One op is the whole batch.
func BenchmarkTinyTasks(b *testing.B) {
	b.Run("impl=inline", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var wg sync.WaitGroup
			for i := range tinyTasks {
				wg.Add(1)
				func() { sink.Add(spin(uint64(i)) & 1); wg.Done() }()
			}
			wg.Wait()
		}
	})
	for _, c := range contenders() {
		b.Run("impl="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := c.make(8)
				if err != nil {
					b.Fatal(err)
				}
				var wg sync.WaitGroup
				for i := range tinyTasks {
					wg.Add(1)
					if err := r.Submit(func() { sink.Add(spin(uint64(i)) & 1); wg.Done() }); err != nil {
						b.Fatal(err)
					}
				}
				wg.Wait()
				r.Close()
			}
		})
	}
}
