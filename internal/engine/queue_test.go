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

// TestQueueSpread: the positions of a lap are spread over the ring as a
// permutation of its slots, the same for every lap, with consecutive
// positions at least spreadBytes apart wherever the ring has room for it;
// FIFO order holds through laps at every size, power of two or not.
func TestQueueSpread(t *testing.T) {
	for size := uint64(1); size <= 300; size++ {
		for _, slotBytes := range []uint64{16, 24, 32, 40, 56, 64, 72, 200} {
			m := spreadFor(size, slotBytes)
			if gcd(m, size) != 1 || (m >= size && size > 1) {
				t.Fatalf("size %d, %d-byte slots: spread %d is not coprime with the size below it", size, slotBytes, m)
			}
			if m == 1 && size*slotBytes >= 4*spreadBytes && slotBytes < spreadBytes {
				t.Errorf("size %d, %d-byte slots: no spread, though the ring is %d bytes", size, slotBytes, size*slotBytes)
			}
			if m > 1 && m*slotBytes < spreadBytes {
				t.Errorf("size %d, %d-byte slots: spread %d slots, %d bytes", size, slotBytes, m, m*slotBytes)
			}
		}
	}
	for _, capacity := range []int{2, 3, 6, 7, 8, 12, 64, 100, 1024} {
		var q queue[int]
		q.init(capacity)
		seen := make(map[*qslot[int]]uint64)
		for pos := uint64(0); pos < q.size; pos++ {
			s := q.slot(pos)
			if prev, dup := seen[s]; dup {
				t.Fatalf("cap %d: positions %d and %d share a slot", capacity, prev, pos)
			}
			seen[s] = pos
			if q.slot(pos+q.size) != s || q.slot(pos+5*q.size) != s {
				t.Fatalf("cap %d: position %d moves between laps", capacity, pos)
			}
		}
		// Far positions, where the product wraps: still one slot per lap.
		for _, pos := range []uint64{1<<62 - 3, 1<<63 - 1, 1 << 61} {
			if q.slot(pos) != q.slot(pos%q.size) {
				t.Fatalf("cap %d: far position %d moves between laps", capacity, pos)
			}
		}
		for lap := 0; lap < 5; lap++ {
			for i := 0; i < capacity-lap%2; i++ {
				if !q.push(lap*10000 + i) {
					t.Fatalf("cap %d: push refused", capacity)
				}
			}
			for i := 0; i < capacity-lap%2; i++ {
				if v, ok := q.pop(); !ok || v != lap*10000+i {
					t.Fatalf("cap %d lap %d: pop = %d, %v; want %d", capacity, lap, v, ok, lap*10000+i)
				}
			}
		}
	}
}
