package pool

import (
	"github.com/poolkit/poolkit/internal/engine"
	"github.com/poolkit/poolkit/internal/timing"
)

// Stats is a snapshot of a pool's gauges and counters, taken by one call to
// Stats. The fields are read one after another while the pool runs, so
// they need not add up exactly while tasks are moving; once the pool is
// quiescent (nothing running, nothing waiting) they do:
// Submitted == Completed + Returned, and Wait.Count == Service.Count.
type Stats struct {
	// Cap is the capacity: the most tasks that may run at once.
	Cap int
	// Workers is the number of worker goroutines alive, idle ones included.
	Workers int
	// Idle is the number of parked workers.
	Idle int
	// Running is the number of tasks executing now (never idle workers,
	// nor a worker whose task panicked while its panic handler runs).
	Running int
	// Waiting is the number of accepted tasks that have not started, plus
	// callers waiting in Submit for room.
	Waiting int
	// Keys is the number of keys of the pool's Keyed that have tasks
	// waiting or running. Each of them counts as one task of the pool
	// (its turn) in Running, Waiting and the counters below.
	Keys int
	// KeyedWaiting is the number of keyed tasks accepted that have not
	// started: the tasks in the keys' queues, which Waiting does not
	// count (a key's queue is served one task at a time, whatever the
	// pool's capacity).
	KeyedWaiting int
	// Closed reports whether Close, Shutdown or ShutdownNow was called.
	Closed bool
	// Timed reports whether the pool records Wait and Service
	// (WithTimings).
	Timed bool

	// Submitted counts accepted tasks: submissions that returned nil.
	Submitted uint64
	// Completed counts tasks that finished running, by returning, by
	// panicking or by calling runtime.Goexit.
	Completed uint64
	// Rejected counts submissions that returned an error other than
	// ErrNilTask and ErrNilContext: overload, closed pool or a done
	// context. The three counts below split it by reason and add up to it.
	Rejected         uint64
	RejectedOverload uint64 // ErrOverload: saturated, and it could not wait (WithMaxWaiting)
	RejectedClosed   uint64 // ErrClosed
	RejectedContext  uint64 // its context was done before the pool accepted it
	// Panicked counts tasks that panicked; they are counted in Completed too.
	Panicked uint64
	// Returned counts accepted tasks handed back, not run, by ShutdownNow.
	Returned uint64
	// Resizes counts the Resize calls that changed the capacity.
	Resizes uint64
	// Expired counts tasks of SubmitResult and of the pool's Schedulers
	// that never started because their context ended, or their wait
	// passed WithMaxWait, first; Shed counts those given up for a more
	// urgent task when the pool was full. Both are counted in Completed
	// too, as tasks that ended without running, once the pool's queue has
	// moved past the place they held in it (for a Scheduler, their
	// ticket), and are not counted in Waiting meanwhile. A task refused
	// with ErrShed was never accepted: it is counted in RejectedOverload.
	// ShutdownNow corrects Completed and Returned once, to count the
	// scheduled tasks it handed back rather than their tickets; it hands
	// back the place of an expired task of SubmitResult as a function
	// that does nothing, counted in Returned.
	Expired, Shed uint64

	// Wait and Service are the pool's timings, recorded only under
	// WithTimings (else they are empty). Wait is the time from the moment
	// the pool accepted a task to the moment a worker started it: a task
	// handed straight to an idle worker counts as not having waited (the
	// worker's wake-up counts in Service). Service is the time a task ran,
	// from its start to its return or panic (a task that calls
	// runtime.Goexit ends, best effort, when its worker's deferred calls
	// run). Histogram.Sub of two snapshots gives what happened between
	// them.
	Wait, Service Histogram
}

// Histogram counts durations in fixed buckets whose bounds double, the
// same for every histogram of every pool and actor router: Counts[i]
// counts the durations d with Bound(i-1) <= d < Bound(i), bucket 0 from 0
// to about 1µs, the last open. Histograms add and subtract bucket by
// bucket, and an exporter publishes them as they are.
type Histogram = timing.Histogram

func stats[E any](e *engine.Engine[E]) Stats { return Stats(e.Stats()) }
