package autoscale

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// Meter records what the controller needs to know about each task: when
// it was submitted, when it started and how long it ran, and which
// submissions failed. Wrap every task you submit, and call Reject for each
// submission the pool refused or that timed out. All methods are safe for
// concurrent use; Wrap costs two clock reads and a few atomic adds per
// task, and no lock.
type Meter struct {
	arrivals   atomic.Uint64
	started    atomic.Uint64
	completed  atomic.Uint64
	rejected   atomic.Uint64
	busy       atomic.Int64
	serviceSum atomic.Int64 // nanoseconds of completed service
	wait       histogram
}

// Wrap returns task instrumented for the meter. Call it just before
// submitting: the time of the call is the task's arrival.
func (m *Meter) Wrap(task func()) func() {
	arrived := time.Now()
	m.arrivals.Add(1)
	return func() {
		start := time.Now()
		m.started.Add(1)
		m.wait.record(start.Sub(arrived))
		m.busy.Add(1)
		defer func() {
			m.serviceSum.Add(int64(time.Since(start)))
			m.busy.Add(-1)
			m.completed.Add(1)
		}()
		task()
	}
}

// Reject records a submission that was wrapped but not accepted (the pool
// returned an overload or closed error), or work that timed out. The
// controller treats rejections as the loss signal of AIMD.
func (m *Meter) Reject() {
	m.rejected.Add(1)
	m.started.Add(1) // it will never start: keep the queue length honest
}

// reading is a snapshot of a Meter's counters.
type reading struct {
	arrivals, started, completed, rejected uint64
	busy                                   int64
	serviceSum                             int64
	wait                                   [histBuckets]uint64
}

func (m *Meter) read() reading {
	r := reading{
		completed:  m.completed.Load(),
		serviceSum: m.serviceSum.Load(),
		rejected:   m.rejected.Load(),
		busy:       m.busy.Load(),
	}
	r.started = m.started.Load()
	r.arrivals = m.arrivals.Load()
	for i := range r.wait {
		r.wait[i] = m.wait.b[i].Load()
	}
	return r
}

// histBuckets log2 buckets of nanoseconds cover up to about 584 years.
const histBuckets = 64

// histogram counts durations in power-of-two buckets of nanoseconds:
// bucket i holds durations in [2^(i-1), 2^i).
type histogram struct{ b [histBuckets]atomic.Uint64 }

func (h *histogram) record(d time.Duration) {
	if d < 0 {
		d = 0
	}
	h.b[bits.Len64(uint64(d))].Add(1)
}

// quantile returns the q-quantile of the counts in delta, as the upper
// bound of the bucket it falls in (so it errs towards longer waits).
func quantile(delta *[histBuckets]uint64, q float64) time.Duration {
	var total uint64
	for _, c := range delta {
		total += c
	}
	if total == 0 {
		return 0
	}
	rank := uint64(q*float64(total-1)) + 1
	var seen uint64
	for i, c := range delta {
		seen += c
		if seen >= rank {
			if i == 0 {
				return 0
			}
			return time.Duration(uint64(1) << i)
		}
	}
	return time.Duration(1<<63 - 1)
}
