package pool

import (
	"context"
	"math/bits"
	"time"

	"github.com/poolkit/poolkit/internal/engine"
)

// expire is the watch on a task's context: the task expires, unless it
// has already left (P2).
func (s *Scheduler) expire(t *schedTask, ctx context.Context) {
	engine.At(engine.SchedExpire)
	s.mu.Lock()
	if s.mu.classes[t.class].Contains(t) {
		s.removeLocked(t)
		s.expired.Add(1)
		s.endLocked(t, ctx.Err())
	}
	s.checkLocked()
	s.mu.Unlock()
}

// expireLocked expires the tasks whose wait ended by now (WithMaxWait):
// in each class they are the oldest. Requires s.mu.
func (s *Scheduler) expireLocked(now time.Time) {
	for m := s.mu.nonEmpty; m != 0; m &= m - 1 {
		c := bits.TrailingZeros8(m)
		q := &s.mu.classes[c]
		for q.Len() > 0 && !now.Before(q.Front().deadline) {
			t := q.Front()
			s.removeLocked(t)
			s.expired.Add(1)
			s.mu.breached[c] = now
			s.endLocked(t, ErrExpired)
		}
	}
}

// breachedLocked reports whether a task of class c arriving now would
// join a standing queue that is not being served within WithMaxWait: a
// task of class c or above has expired for its wait within the last
// maxWait, and tasks of class c or above still wait. Such an arrival is
// refused at once (ErrShed) rather than left to expire: the lowest
// classes, whose tasks expire first, are refused first, and a class
// whose queue has drained is admitted again. Requires s.mu.
func (s *Scheduler) breachedLocked(c Class, now time.Time) bool {
	if s.mu.nonEmpty>>c == 0 {
		return false
	}
	for h := c; h < numClasses; h++ {
		if at := s.mu.breached[h]; !at.IsZero() && now.Sub(at) < s.maxWait {
			return true
		}
	}
	return false
}

// timeUp is the WithMaxWait timer: it expires the tasks whose wait has
// ended and sets itself for the next.
func (s *Scheduler) timeUp() {
	engine.At(engine.SchedExpire)
	s.mu.Lock()
	s.mu.armed = false
	s.expireLocked(time.Now())
	s.armLocked()
	s.checkLocked()
	s.mu.Unlock()
}

// armLocked sets the WithMaxWait timer for the earliest deadline of the
// waiting tasks, unless it is set already (an earlier one: deadlines
// follow acceptance). Requires s.mu.
func (s *Scheduler) armLocked() {
	if s.maxWait == 0 || s.mu.armed || s.mu.nonEmpty == 0 {
		return
	}
	var first time.Time
	for m := s.mu.nonEmpty; m != 0; m &= m - 1 {
		if d := s.mu.classes[bits.TrailingZeros8(m)].Front().deadline; first.IsZero() || d.Before(first) {
			first = d
		}
	}
	s.mu.armed = true
	if s.mu.timer == nil {
		s.mu.timer = time.AfterFunc(time.Until(first), s.timeUp)
	} else {
		s.mu.timer.Reset(time.Until(first))
	}
}
