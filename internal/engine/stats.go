package engine

import (
	"errors"
	"sync/atomic"

	"github.com/poolkit/poolkit/internal/timing"
)

// Stats is a snapshot of the engine's gauges and counters. Package pool
// documents its fields (pool.Stats, a conversion of this type: the two
// must keep the same fields in the same order).
type Stats struct {
	Cap, Workers, Idle, Running, Waiting int
	Keys, KeyedWaiting                   int // package pool's Keyed fills them
	Closed, Timed                        bool

	Submitted, Completed                                        uint64
	Rejected, RejectedOverload, RejectedClosed, RejectedContext uint64
	Panicked, Returned, Resizes                                 uint64
	Expired, Shed                                               uint64 // package pool's Scheduler fills them

	Wait, Service timing.Histogram
}

// Stats returns a snapshot of the pool's gauges and counters.
func (e *Engine[E]) Stats() Stats {
	if e.run == nil {
		return Stats{Closed: true} // a zero value takes no work
	}
	e.mu.Lock()
	s := Stats{
		Workers:   e.mu.live,
		Idle:      e.mu.idle.len(),
		Submitted: e.q.pushed() + e.mu.direct,
		Completed: e.mu.completed,
	}
	// The histograms are summed only if anything was ever timed: a pool
	// that is not timed pays for its Stats what it did before it had
	// timings, a load per worker (a reader that polls Stats, a feeder or a
	// benchmark waiting for a shrink, would otherwise pay 64 more per
	// worker, under the lock the workers park with).
	timed := e.mu.everTimed
	if timed {
		s.Wait, s.Service = e.mu.timings.Wait, e.mu.timings.Service
	}
	for _, w := range e.mu.all {
		s.Completed += w.completed.Load()
		if timed {
			w.wait.AddTo(&s.Wait)
			w.service.AddTo(&s.Service)
		}
	}
	e.unlock()
	s.Cap = e.gate.capacity()
	s.Closed = e.gate.closed()
	s.Timed = e.timings.Load()
	s.Running = e.Running()
	s.Waiting = e.Waiting()
	s.RejectedOverload = e.rejected.overload.Load()
	s.RejectedClosed = e.rejected.closed.Load()
	s.RejectedContext = e.rejected.context.Load()
	s.Rejected = s.RejectedOverload + s.RejectedClosed + s.RejectedContext
	s.Panicked = e.panicked.Load()
	s.Returned = e.returned.Load()
	s.Resizes = e.resizes.Load()
	return s
}

// rejections counts refused submissions by reason.
type rejections struct{ overload, closed, context atomic.Uint64 }

// count counts a submission refused with err and returns err. An error
// that is neither an overload nor a closed pool came from the caller's
// context.
func (r *rejections) count(err error) error {
	switch {
	case errors.Is(err, ErrOverload):
		r.overload.Add(1)
	case errors.Is(err, ErrClosed):
		r.closed.Add(1)
	default:
		r.context.Add(1)
	}
	return err
}
