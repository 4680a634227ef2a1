//go:build go1.25

package engine

import (
	"sync"
	"testing"
)

// TestQueueFIFOAndBound: for every capacity, including the small ones the
// ring needs special care for, the queue holds exactly its capacity, is
// FIFO, and refuses pushes once sealed.
func TestQueueFIFOAndBound(t *testing.T) {
	for _, capacity := range []int{0, 1, 2, 3, 5, 8, 1000} {
		var q queue[int]
		q.init(capacity)
		for round := range 3 {
			for i := range capacity {
				if !q.push(round*1000 + i) {
					t.Fatalf("cap %d: push %d refused", capacity, i)
				}
			}
			if q.push(-1) {
				t.Fatalf("cap %d: push accepted past capacity", capacity)
			}
			if q.len() != capacity {
				t.Fatalf("cap %d: len() = %d", capacity, q.len())
			}
			for i := range capacity {
				if v, ok := q.pop(); !ok || v != round*1000+i {
					t.Fatalf("cap %d: pop = %d, %v; want %d", capacity, v, ok, round*1000+i)
				}
			}
			if _, ok := q.pop(); ok {
				t.Fatalf("cap %d: pop from empty queue succeeded", capacity)
			}
		}
		q.seal()
		if q.push(1) || !q.drained() {
			t.Fatalf("cap %d: sealed queue accepted a push or is not drained", capacity)
		}
		q.unseal()
		if capacity > 0 && !q.push(1) {
			t.Fatalf("cap %d: unsealed queue refused a push", capacity)
		}
	}
}

// TestQueueConcurrent: under concurrent producers and consumers every value
// pushed is popped exactly once, and popSealed after a seal returns exactly
// what was left.
func TestQueueConcurrent(t *testing.T) {
	defer suspendInterleaving()()
	for _, capacity := range []int{1, 2, 3, 64} {
		var q queue[int]
		q.init(capacity)
		const producers, each = 4, 2000
		seen := make([]int32, producers*each)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for p := range producers {
			wg.Go(func() {
				for i := range each {
					for !q.push(p*each + i) {
						if v, ok := q.pop(); ok { // help drain
							mu.Lock()
							seen[v]++
							mu.Unlock()
						}
					}
				}
			})
		}
		wg.Wait()
		q.seal()
		for {
			v, ok := q.popSealed()
			if !ok {
				break
			}
			seen[v]++
		}
		for v, n := range seen {
			if n != 1 {
				t.Fatalf("cap %d: value %d popped %d times", capacity, v, n)
			}
		}
	}
}
