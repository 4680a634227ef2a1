package engine

import (
	"reflect"
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
	// spread is the distance, in slots, between the slots of two
	// consecutive positions (slot): coprime with size, so that the
	// positions of one lap map onto every slot once.
	spread uint64
}

// qslot is one place of the ring, unpadded: the positions are spread
// over the ring instead (slot), so that a producer filling one position
// does not invalidate the line a consumer reads at the next, whatever the
// element's size. Padding each slot to a cache line did that for one
// element size only: 64-byte slots for the pool's units made the one-word
// engines' slots 56 bytes, which 3 neighbours in 8 share a line with.
type qslot[E any] struct {
	seq atomic.Uint64
	val E
}

// spreadBytes is how far apart, at least, the slots of two consecutive
// positions lie: two cache lines, since x86's adjacent-line prefetcher
// fetches lines in pairs.
const spreadBytes = 128

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
	q.spread = spreadFor(q.size, uint64(reflect.TypeOf(q.slots).Elem().Size()))
	for pos := uint64(0); pos < q.size; pos++ {
		q.slot(pos).seq.Store(pos)
	}
}

// spreadFor returns the spread of a ring of size slots of slotBytes each:
// the least number of slots that covers spreadBytes and is coprime with
// size, capped below size; 1 (no spread) for a ring too small to spread.
func spreadFor(size, slotBytes uint64) uint64 {
	if size <= 2 || slotBytes == 0 {
		return 1
	}
	m := (spreadBytes + slotBytes - 1) / slotBytes
	for ; m < size; m++ {
		if gcd(m, size) == 1 {
			return m
		}
	}
	return 1
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
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

// slot is the place of position pos: position i of a lap lies at slot
// i*spread mod size. Since spread is coprime with size this is a
// permutation of the slots, the same for every lap (a position and the one
// a lap later share their slot, as the sequence numbers require), and
// consecutive positions lie spread slots apart.
func (q *queue[E]) slot(pos uint64) *qslot[E] {
	if q.mask != 0 {
		return &q.slots[(pos*q.spread)&q.mask] // size divides 2^64: the product may wrap
	}
	return &q.slots[(pos%q.size)*q.spread%q.size]
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
