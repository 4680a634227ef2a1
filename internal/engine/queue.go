package engine

import (
	"runtime"
	"sync/atomic"
)

// queue is the engine's bounded multi-producer, multi-consumer FIFO of
// accepted work that has not started. It is a ring of slots, each with a
// sequence number that tells producers and consumers whose turn the slot
// is (D. Vyukov's bounded MPMC queue), so push and pop each cost one
// compare-and-swap when uncontended and never take a lock.
//
// Sealing sets a bit in the tail index. A push that has not yet claimed a
// slot then fails, and every push that did claim one is counted in the
// sealed tail, so a closer can wait for exactly the work that was accepted
// before the seal: nothing accepted is missed, and nothing is accepted
// after. Safe for concurrent use.
type queue[E any] struct {
	_     [64]byte
	tail  atomic.Uint64 // next position to push; bit 63 = sealed
	_     [56]byte
	head  atomic.Uint64 // next position to pop
	_     [56]byte
	size  uint64 // slots in the ring
	mask  uint64 // size-1 when size is a power of two, else 0
	one   bool   // capacity 1, kept in a ring of 2 (see init)
	slots []qslot[E]
}

// qslot is padded towards a cache line so that a producer filling one
// slot does not invalidate the line a consumer is reading; on the
// tiny-task benchmark the padding cut the time by about a seventh. The
// padding is sized for the pool's units: a unit[E] of a two-word E (an
// interface, 16 bytes, and the 8-byte stamp), so that seq, val and the
// padding make 64 bytes. An engine of a one-word E (ants' func(), the
// actors, FuncPool[uint64]) has 56-byte slots: on 2 cores that measured
// 3-4% dearer per task than 64 (and the pool's 72-byte slots under a
// 40-byte padding 5-8% dearer), so the padding follows the pool's element
// until it can follow each element's size.
type qslot[E any] struct {
	seq atomic.Uint64
	val E
	_   [32]byte
}

const sealBit = uint64(1) << 63

// init sizes the queue to hold capacity values. The sequence-number scheme
// cannot tell a full one-slot ring from an empty one, so capacity 1 uses a
// ring of 2 and push checks the occupancy itself.
func (q *queue[E]) init(capacity int) {
	size := capacity
	if capacity == 1 {
		size, q.one = 2, true
	}
	q.size = uint64(size)
	if size > 0 && size&(size-1) == 0 {
		q.mask = q.size - 1
	}
	q.slots = make([]qslot[E], size)
	for i := range q.slots {
		q.slots[i].seq.Store(uint64(i))
	}
}

// half is half the queue's capacity, rounded up.
func (q *queue[E]) half() int {
	if q.one {
		return 1
	}
	return int(q.size+1) / 2
}

// none reports whether the queue holds nothing at all (capacity 0): a
// unit is accepted only when a worker can start it at once.
func (q *queue[E]) none() bool { return q.size == 0 }

// next returns the position of the oldest value not yet taken: values
// at positions below it have left the queue.
func (q *queue[E]) next() uint64 { return q.head.Load() }

func (q *queue[E]) slot(pos uint64) *qslot[E] {
	if q.mask != 0 {
		return &q.slots[pos&q.mask]
	}
	return &q.slots[pos%q.size]
}

// push appends v. It returns false when the queue is full or sealed; the
// caller tells the two apart with sealed.
func (q *queue[E]) push(v E) bool {
	if q.size == 0 {
		return false
	}
	pos := q.tail.Load()
	for {
		if pos&sealBit != 0 || q.one && pos != q.head.Load() {
			return false
		}
		s := q.slot(pos)
		seq := s.seq.Load()
		switch d := int64(seq - pos); {
		case d == 0:
			tally(tallyTail)
			if q.tail.CompareAndSwap(pos, pos+1) {
				hook(hkQueuePushClaim)
				s.val = v
				s.seq.Store(pos + 1)
				hook(hkQueuePushed)
				return true
			}
			pos = q.tail.Load()
		case d < 0:
			return false // full: the slot still holds an unconsumed value
		default:
			pos = q.tail.Load()
		}
	}
}

// pop removes the oldest value. It reports false when nothing is ready,
// which includes a push that has claimed a slot but not yet filled it.
func (q *queue[E]) pop() (E, bool) {
	v, _, ok := q.take()
	return v, ok
}

// take is pop that also returns the value's position: the number of pushes
// before it, which orders every value ever queued.
func (q *queue[E]) take() (E, uint64, bool) {
	var zero E
	if q.size == 0 {
		return zero, 0, false
	}
	pos := q.head.Load()
	for {
		s := q.slot(pos)
		seq := s.seq.Load()
		switch d := int64(seq - (pos + 1)); {
		case d == 0:
			tally(tallyHead)
			if q.head.CompareAndSwap(pos, pos+1) {
				hook(hkQueuePopClaim)
				v := s.val
				s.val = zero // let the garbage collector have the task
				s.seq.Store(pos + q.size)
				return v, pos, true
			}
			pos = q.head.Load()
		case d < 0:
			return zero, 0, false
		default:
			pos = q.head.Load()
		}
	}
}

// pushed returns how many values were ever pushed.
func (q *queue[E]) pushed() uint64 { return q.tail.Load() &^ sealBit }

// len returns how many values are queued or being pushed.
func (q *queue[E]) len() int {
	h := q.head.Load()
	t := q.tail.Load() &^ sealBit
	if t <= h {
		return 0
	}
	return int(t - h)
}

// seal stops further pushes.
func (q *queue[E]) seal() {
	hook(hkQueueSeal)
	setBits(&q.tail, sealBit)
}

// unseal allows pushes again.
func (q *queue[E]) unseal() { clearBits(&q.tail, sealBit) }

func (q *queue[E]) sealed() bool { return q.tail.Load()&sealBit != 0 }

// drained reports whether the queue is sealed and every value pushed before
// the seal has been popped.
func (q *queue[E]) drained() bool {
	t := q.tail.Load()
	return t&sealBit != 0 && q.head.Load() == t&^sealBit
}

// popSealed removes the oldest value of a sealed queue, waiting out pushes
// that claimed a slot before the seal but have not filled it yet (a few
// instructions, unless the pusher was preempted). It reports false once the
// queue is drained.
func (q *queue[E]) popSealed() (E, bool) {
	for {
		if v, ok := q.pop(); ok {
			return v, true
		}
		if q.drained() {
			var zero E
			return zero, false
		}
		tally(tallyYield)
		runtime.Gosched()
	}
}
