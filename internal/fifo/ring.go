// Package fifo holds the two first-in-first-out structures the pool's
// layers and the actor runtime keep under their own locks: Ring, a
// growable ring buffer, and List, an intrusive doubly linked list. Neither
// is safe for concurrent use.
package fifo

// Ring is a growable FIFO. Its zero value is empty and allocates nothing,
// so that an idle key or actor that never got a value costs no buffer.
// Its buffer's length is zero or a power of two, so that an index wraps
// with a mask; it doubles when full.
type Ring[T any] struct {
	buf        []T
	head, size int
}

// Len returns how many values the ring holds.
func (r *Ring[T]) Len() int { return r.size }

// Cap returns the length of the ring's buffer: what it holds before it
// grows again.
func (r *Ring[T]) Cap() int { return len(r.buf) }

// Push appends v.
func (r *Ring[T]) Push(v T) {
	if r.size == len(r.buf) {
		buf := make([]T, max(4, 2*len(r.buf)))
		n := copy(buf, r.buf[r.head:])
		copy(buf[n:], r.buf[:r.head])
		r.buf, r.head = buf, 0
	}
	r.buf[(r.head+r.size)&(len(r.buf)-1)] = v
	r.size++
}

// Pop removes and returns the oldest value; the ring must not be empty.
// Its slot is cleared, so that the ring keeps nothing alive.
func (r *Ring[T]) Pop() T {
	var zero T
	v := r.buf[r.head]
	r.buf[r.head] = zero
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.size--
	if r.size == 0 {
		r.head = 0
	}
	return v
}

// Trim gives back the buffer of an empty ring longer than keep: after a
// burst, an idle holder keeps little.
func (r *Ring[T]) Trim(keep int) {
	if r.size == 0 && len(r.buf) > keep {
		r.buf, r.head = nil, 0
	}
}
