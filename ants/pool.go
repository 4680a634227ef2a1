package ants

import (
	"context"
	"time"

	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
)

// engine is the management surface that pool.Pool and pool.FuncPool share.
type engine interface {
	Running() int
	Free() int
	Waiting() int
	Cap() int
	Tune(size int)
	Resize(n int) error
	IsClosed() bool
	Release()
	ReleaseTimeout(timeout time.Duration) error
	ReleaseContext(ctx context.Context) error
	Reboot()
	ReleaseDone() <-chan struct{}
	Stats() pool.Stats
}

// poolCommon holds what Pool, PoolWithFunc and PoolWithFuncGeneric share:
// every method but Submit and Invoke. A zero value (a pool not built by
// its constructor) reports zero and ignores every call.
type poolCommon struct{ e engine }

// Running returns the number of tasks running now. Unlike ants, idle
// workers are not counted: Running falls to zero as soon as the tasks have
// returned, not when the idle workers expire.
func (c poolCommon) Running() int {
	if c.e == nil {
		return 0
	}
	return c.e.Running()
}

// Free returns the capacity minus the running tasks: how many more tasks
// could start now. It is never negative, even after a shrink below the
// number running.
func (c poolCommon) Free() int {
	if c.e == nil {
		return 0
	}
	return c.e.Free()
}

// Waiting returns the number of submitters blocked in Submit or Invoke,
// waiting for a free worker.
func (c poolCommon) Waiting() int {
	if c.e == nil {
		return 0
	}
	return c.e.Waiting()
}

// Cap returns the capacity: the most tasks that may run at once.
func (c poolCommon) Cap() int {
	if c.e == nil {
		return 0
	}
	return c.e.Cap()
}

// Tune sets the capacity to size, at once. A size below 1, and a released
// pool, are ignored, as in ants; Resize reports them. A shrink interrupts no
// running task: no new task starts until fewer than size run. A grow starts
// blocked submitters' tasks at once. Unlike ants, it works on a pool built
// WithPreAlloc too.
func (c poolCommon) Tune(size int) {
	if c.e != nil {
		c.e.Tune(size)
	}
}

// Resize is Tune with errors: it implements resize.Resizer, so the
// autoscaler can drive the pool. A size below 1 is an error matching
// ErrInvalidPoolSize, a released pool ErrPoolClosed; either way nothing
// changes.
func (c poolCommon) Resize(n int) error {
	if c.e == nil {
		return ErrPoolClosed
	}
	return c.e.Resize(n)
}

// IsClosed reports whether the pool has been released (and not rebooted).
func (c poolCommon) IsClosed() bool {
	return c.e == nil || c.e.IsClosed()
}

// Release closes the pool without waiting: Submit returns ErrPoolClosed
// from now on, blocked submitters wake with it, and the running tasks
// finish. It is idempotent.
func (c poolCommon) Release() {
	if c.e != nil {
		c.e.Release()
	}
}

// ReleaseTimeout releases the pool and waits until every task has finished
// and every worker has exited, or returns ErrTimeout after timeout. Unlike
// ants it also waits when the pool was already released (release now, wait
// later), instead of returning ErrPoolClosed at once.
func (c poolCommon) ReleaseTimeout(timeout time.Duration) error {
	if c.e == nil {
		return ErrPoolClosed
	}
	return c.e.ReleaseTimeout(timeout)
}

// ReleaseContext is ReleaseTimeout bounded by ctx: it returns ctx.Err() if
// ctx is done first. A nil ctx releases the pool without waiting, as in
// ants, but returns ErrNilContext.
func (c poolCommon) ReleaseContext(ctx context.Context) error {
	if c.e == nil {
		return ErrPoolClosed
	}
	return c.e.ReleaseContext(ctx)
}

// Reboot reopens a released pool with the capacity it had, after waiting
// for the tasks and workers of its previous life. On an open pool it does
// nothing. Called from inside a task it cannot wait for that task: it
// returns at once and the pool reopens when the task has returned.
func (c poolCommon) Reboot() {
	if c.e != nil {
		c.e.Reboot()
	}
}

// releaseDone releases the pool and returns the channel closed when the
// life it closed has ended; see pool.Pool.ReleaseDone.
func (c poolCommon) releaseDone() <-chan struct{} {
	if c.e == nil {
		return nil
	}
	return c.e.ReleaseDone()
}

// Stats returns a snapshot of the pool's gauges and counters: workers
// alive and idle, tasks submitted, completed, rejected and panicked.
func (c poolCommon) Stats() pool.Stats {
	if c.e == nil {
		return pool.Stats{}
	}
	return c.e.Stats()
}

// Pool runs func() tasks on at most Cap() goroutines at once. Build one
// with NewPool; all its methods are safe for concurrent use.
type Pool struct {
	poolCommon
	p *pool.Pool
}

var _ resize.Resizer = (*Pool)(nil)

// NewPool returns a pool that runs at most size tasks at once. A size below
// 1 is an error matching ErrInvalidPoolSize (and, with WithPreAlloc,
// ErrInvalidPreAllocSize); an invalid option is an error matching
// ErrInvalidPoolExpiry or ErrInvalidOption.
func NewPool(size int, options ...Option) (*Pool, error) {
	opts, err := engineOptions(size, options)
	if err != nil {
		return nil, err
	}
	p, err := pool.New(size, opts...)
	if err != nil {
		return nil, err
	}
	return &Pool{poolCommon{p}, p}, nil
}

// Submit runs task on a free worker. When every worker is busy it waits
// for one, unless the pool is non-blocking or MaxBlockingTasks submitters
// already wait, in which case it returns ErrPoolOverload. It returns
// ErrPoolClosed on a released pool, including to a submitter blocked when
// the release came, and ErrNilTask for a nil task on an open pool. A task
// for which Submit returned nil runs exactly once; any other never runs.
func (p *Pool) Submit(task func()) error {
	if p.p == nil {
		return ErrPoolClosed
	}
	if task == nil && p.p.IsClosed() {
		return ErrPoolClosed
	}
	return p.p.Submit(task)
}
