package autoscale

import (
	"sync/atomic"
	"time"

	"github.com/poolkit/poolkit/internal/timing"
	"github.com/poolkit/poolkit/pool"
)

// Meter measures the tasks of a pool that does not measure itself (ants,
// pond, tunny and the like, through package compat): wrap every task you
// submit, and call Reject for each submission the pool refused. A
// controller whose target is a poolkit pool reads the pool's own
// measurements instead (see SelfMeasuring), and its Meter is not read.
//
// All methods are safe for concurrent use; Wrap costs two clock reads and
// a few atomic adds per task, and no lock.
type Meter struct {
	arrivals  atomic.Uint64
	started   atomic.Uint64
	completed atomic.Uint64
	rejected  atomic.Uint64
	busy      atomic.Int64
	wait      meterHistogram
	service   meterHistogram
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
			m.service.record(time.Since(start))
			m.busy.Add(-1)
			m.completed.Add(1)
		}()
		task()
	}
}

// Reject records a submission that was wrapped but not accepted: the pool
// returned an overload or closed error. The task will never start.
func (m *Meter) Reject() {
	m.rejected.Add(1)
	m.started.Add(1) // it will never start: keep the queue length honest
}

func (m *Meter) read() reading {
	r := reading{
		completed: m.completed.Load(),
		rejected:  m.rejected.Load(),
		busy:      m.busy.Load(),
		service:   m.service.snapshot(),
	}
	started := m.started.Load()
	r.arrivals = m.arrivals.Load()
	r.wait = m.wait.snapshot()
	if q := int64(r.arrivals) - int64(started); q > 0 {
		r.queue = int(q)
	}
	return r
}

// meterHistogram records durations in pool.Histogram's buckets, from any
// number of goroutines.
type meterHistogram struct{ r timing.Recorder }

func (h *meterHistogram) record(d time.Duration) { h.r.RecordShared(d) }

func (h *meterHistogram) snapshot() pool.Histogram { return h.r.Snapshot() }
