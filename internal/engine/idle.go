package engine

// idleStack holds the parked workers, the most recently parked on top. A
// submitter wakes the top one, so the ones at the bottom stay idle and
// expire, in the order they parked: removal from the bottom is O(1), the
// slice's live part starting at base. Without that, a burst of workers
// expiring together costs time quadratic in their number, under e.mu.
// Guarded by e.mu.
type idleStack[E any] struct {
	ws   []*worker[E] // ws[:base] are nil; ws[base:] parked, bottom first
	base int
}

func (s *idleStack[E]) len() int { return len(s.ws) - s.base }

func (s *idleStack[E]) push(w *worker[E]) {
	tally(tallyIdle)
	w.idleAt = len(s.ws)
	s.ws = append(s.ws, w)
}

// bottom returns the worker parked longest ago; the stack must not be
// empty.
func (s *idleStack[E]) bottom() *worker[E] { return s.ws[s.base] }

// pop takes the most recently parked worker; the stack must not be empty.
func (s *idleStack[E]) pop() *worker[E] {
	tally(tallyIdle)
	n := len(s.ws) - 1
	w := s.ws[n]
	s.ws[n] = nil
	s.ws = s.ws[:n]
	w.idleAt = -1
	s.settle()
	return w
}

// remove takes w, which must be parked, out of the stack, moving whichever
// side of it is shorter.
func (s *idleStack[E]) remove(w *worker[E]) {
	i := w.idleAt
	if i-s.base <= len(s.ws)-1-i {
		copy(s.ws[s.base+1:i+1], s.ws[s.base:i])
		s.ws[s.base] = nil
		s.base++
		for j := s.base; j <= i; j++ {
			s.ws[j].idleAt = j
		}
	} else {
		copy(s.ws[i:], s.ws[i+1:])
		s.ws[len(s.ws)-1] = nil
		s.ws = s.ws[:len(s.ws)-1]
		for j := i; j < len(s.ws); j++ {
			s.ws[j].idleAt = j
		}
	}
	w.idleAt = -1
	s.settle()
}

// settle reclaims the dead bottom once it is most of the slice, so that
// the slice does not grow without bound as workers park on top and expire
// from below (amortised O(1) per removal).
func (s *idleStack[E]) settle() {
	switch {
	case s.len() == 0:
		s.ws, s.base = s.ws[:0], 0
	case s.base >= 64 && s.base > len(s.ws)/2:
		n := copy(s.ws, s.ws[s.base:])
		clear(s.ws[n:])
		s.ws, s.base = s.ws[:n], 0
		for j, w := range s.ws {
			w.idleAt = j
		}
	}
}
