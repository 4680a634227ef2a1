package hotpath

import (
	"sync"
	"testing"

	"github.com/poolkit/poolkit/pool"
)

// BenchmarkKeyed has one goroutine submit b.N tiny tasks for 64 keys in
// turn to a pool.Keyed of 8 workers and waits until they have run. One op
// is one task.
func BenchmarkKeyed(b *testing.B) {
	p := newPool(b)
	kd, err := pool.NewKeyed[int](p, pool.WithUnboundedQueue())
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	task := func() { tinyWork(); wg.Done() }
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		wg.Add(1)
		if err := kd.Submit(ctx, i%64, task); err != nil {
			b.Fatal(err)
		}
	}
	wg.Wait()
}
