package pool

import (
	"math/bits"
	"time"

	"github.com/poolkit/poolkit/internal/engine"
	"github.com/poolkit/poolkit/internal/fifo"
)

// schedTask is a task of a Scheduler from its acceptance to its start,
// expiry or shedding (P2).
type schedTask struct {
	run      func()      // the task (Schedule's wraps it to fill its Future)
	report   func(error) // Schedule's: the outcome of a task that never ran; nil for Submit
	stop     func() bool // stops the watch on the task's context; nil: none
	deadline time.Time   // the end of its wait under WithMaxWait
	class    Class
	waiting  fifo.Link[schedTask] // its place in its class while it waits (P2)
}

func (t *schedTask) Link() *fifo.Link[schedTask] { return &t.waiting }

// schedQueue is one class's waiting tasks, oldest first.
type schedQueue = fifo.List[schedTask, *schedTask]

// take is a ticket: it runs the most urgent waiting task, if any is
// left.
func (s *Scheduler) take() {
	engine.At(engine.SchedTake)
	s.mu.Lock()
	s.mu.tickets--
	var t *schedTask
	if s.mu.waiting > 0 {
		if s.maxWait > 0 {
			s.expireLocked(time.Now())
		}
		t = s.pickLocked()
	}
	s.checkLocked()
	s.mu.Unlock()
	if t == nil {
		return
	}
	if t.stop != nil {
		t.stop()
	}
	t.run()
}

// pickLocked removes and returns the task the next start goes to: the
// oldest of the highest class with tasks waiting, unless a lower class
// is owed a start (its share), in which case the oldest of the highest
// such class. Requires s.mu.
func (s *Scheduler) pickLocked() *schedTask {
	ne := s.mu.nonEmpty
	if ne == 0 {
		return nil
	}
	c := bits.Len8(ne) - 1
	for l := c - 1; l >= 0; l-- {
		if ne&(1<<l) != 0 && s.mu.passed[l] >= shareTurns-1 {
			c = l
			break
		}
	}
	t := s.mu.classes[c].Front()
	s.removeLocked(t)
	s.mu.passed[c] = 0
	for m := s.mu.nonEmpty &^ (1 << c); m != 0; m &= m - 1 {
		if l := bits.TrailingZeros8(m); s.mu.passed[l] < shareTurns {
			s.mu.passed[l]++
		}
	}
	return t
}

// pushLocked queues t at the back of its class. Requires s.mu.
func (s *Scheduler) pushLocked(t *schedTask) {
	s.mu.classes[t.class].PushBack(t)
	s.mu.waiting++
	s.mu.nonEmpty |= 1 << t.class
	s.armLocked()
	s.checkLocked()
}

// removeLocked takes t out of its class (P2). Requires s.mu.
func (s *Scheduler) removeLocked(t *schedTask) {
	q := &s.mu.classes[t.class]
	q.Remove(t)
	s.mu.waiting--
	if q.Len() == 0 {
		s.mu.nonEmpty &^= 1 << t.class
		s.mu.passed[t.class] = 0
	}
}

// endLocked ends a task that leaves without running: its watch stops,
// and its Future, if any, learns why. Requires s.mu.
func (s *Scheduler) endLocked(t *schedTask, why error) {
	if t.stop != nil {
		t.stop()
	}
	if t.report != nil {
		t.report(why)
	}
	t.run, t.report = nil, nil
}

// ticket is the unit each waiting task of a Scheduler has in the pool
// (P1): it runs the most urgent waiting task when a worker starts it.
type ticket Scheduler

func (t *ticket) run()         { (*Scheduler)(t).take() }
func (t *ticket) layer() layer { return (*Scheduler)(t) }

// handBack is the scheduler's part of the pool's ShutdownNow, called
// after the pool has closed and handed back the scheduler's tickets
// (P4): it returns the waiting tasks, most urgent first, for the caller
// to own.
func (s *Scheduler) handBack(units []unit) []func() {
	tickets := len(units)
	s.mu.Lock()
	defer s.mu.Unlock()
	back := make([]func(), 0, s.mu.waiting)
	for t := s.pickLocked(); t != nil; t = s.pickLocked() {
		if t.stop != nil {
			t.stop()
		}
		back = append(back, t.run)
	}
	s.mu.tickets -= tickets
	s.returned.Add(int64(len(back) - tickets))
	s.checkLocked()
	return back
}

// checkLocked checks P1 and P3 under the interleaving hooks. Requires
// s.mu.
func (s *Scheduler) checkLocked() {
	if !engine.HooksOn {
		return
	}
	engine.Invariant(s.mu.tickets >= s.mu.waiting && s.mu.waiting >= 0, "a scheduler has %d tasks waiting and %d tickets (P1)", s.mu.waiting, s.mu.tickets)
	n := 0
	for c := 0; c < numClasses; c++ {
		k := 0
		q := &s.mu.classes[c]
		for t := q.Front(); t != nil; t = q.Next(t) {
			k++
		}
		n += k
		engine.Invariant((k > 0) == (s.mu.nonEmpty&(1<<c) != 0) && (k > 0 || s.mu.passed[c] == 0), "class %d has %d tasks, but its bit is %v and it is owed %d (P3)", c, k, s.mu.nonEmpty&(1<<c) != 0, s.mu.passed[c])
	}
	engine.Invariant(n == s.mu.waiting, "a scheduler counts %d tasks waiting, its classes hold %d", s.mu.waiting, n)
}
