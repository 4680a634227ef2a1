package pool

import (
	"errors"
	"sync/atomic"
)

// Stats is a snapshot of a pool's gauges and counters, taken by one call to
// Stats. The fields are read one after another while the pool runs, so
// they need not add up exactly while tasks are moving; once the pool is
// quiescent (nothing running, nothing waiting) they do:
// Submitted == Completed + Returned.
type Stats struct {
	// Cap is the capacity: the most tasks that may run at once.
	Cap int
	// Workers is the number of worker goroutines alive, idle ones included.
	Workers int
	// Idle is the number of parked workers.
	Idle int
	// Running is the number of tasks executing now (never idle workers).
	Running int
	// Waiting is the number of accepted tasks that have not started, plus
	// callers blocked in Submit.
	Waiting int
	// Submitted counts accepted tasks: submissions that returned nil.
	Submitted uint64
	// Completed counts tasks that finished running, by returning, by
	// panicking or by calling runtime.Goexit.
	Completed uint64
	// Rejected counts submissions that returned an error other than
	// ErrNilTask and ErrNilContext: overload, closed pool or a done
	// context. The three counts below split it by reason and add up to it.
	Rejected uint64
	// RejectedOverload counts refusals with ErrPoolOverload: the pool was
	// full and the submission could not wait (WithNonblocking,
	// WithMaxBlockingTasks).
	RejectedOverload uint64
	// RejectedClosed counts refusals with ErrPoolClosed.
	RejectedClosed uint64
	// RejectedContext counts submissions whose context was done before the
	// pool accepted them.
	RejectedContext uint64
	// Panicked counts tasks that panicked; they are counted in Completed too.
	Panicked uint64
	// Returned counts accepted tasks handed back, not run, by ReleaseNow.
	Returned uint64
	// Resizes counts the Resize and Tune calls that changed the capacity.
	Resizes uint64
}

// Stats returns a snapshot of the pool's gauges and counters.
func (e *engine[E]) Stats() Stats {
	if e.run == nil {
		return Stats{}
	}
	e.mu.Lock()
	s := Stats{
		Workers:   e.mu.live,
		Idle:      e.mu.idle.len(),
		Submitted: e.q.pushed() + e.mu.direct,
		Completed: e.mu.completed,
	}
	for _, w := range e.mu.all {
		s.Completed += w.completed.Load()
	}
	e.mu.Unlock()
	s.Cap = e.gate.capacity()
	s.Running = e.running()
	s.Waiting = e.waiting()
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
	case errors.Is(err, ErrPoolOverload):
		r.overload.Add(1)
	case errors.Is(err, ErrPoolClosed):
		r.closed.Add(1)
	default:
		r.context.Add(1)
	}
	return err
}
