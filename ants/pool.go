package ants

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/poolkit/poolkit/internal/engine"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
)

// lifecycle is what every engine.Engine offers whatever its unit type:
// the moves ants' management methods are built of.
type lifecycle interface {
	Running() int
	Waiting() int
	Workers() int
	Cap() int
	Resize(n int) error
	Closed() bool
	Close() <-chan struct{}
	Await(done, stop <-chan struct{}) error
	Reopen()
	Stats() engine.Stats
}

// poolCommon holds what Pool, PoolWithFunc and PoolWithFuncGeneric share:
// every method but Submit and Invoke. A zero value (a pool not built by
// its constructor) reports zero and ignores every call.
//
// Its gauges and its management calls are ants': Running counts live
// workers, Cap and Free are -1 on an unlimited pool, Tune ignores what
// ants' Tune ignores, and a release of a released pool is ErrPoolClosed.
type poolCommon struct {
	e        lifecycle
	preAlloc bool
	// unlimited: built with a size below 1 (or above math.MaxInt32), and
	// not resized since. The engine's capacity is then resize.MaxSize.
	unlimited atomic.Bool
	// tuned is a capacity Tune gave a released pool (0: none): as in
	// ants, Cap reports it and the pool reopens with it.
	tuned atomic.Int64
}

func (c *poolCommon) init(e lifecycle, cfg engineConfig) {
	c.e, c.preAlloc = e, cfg.preAlloc
	c.unlimited.Store(cfg.unlimited)
}

// Running returns the number of live workers, as ants counts them: those
// running a task and those idle, waiting for one, until they expire
// (WithExpiryDuration) or, with WithDisablePurge, for ever.
func (c *poolCommon) Running() int {
	if c.e == nil {
		return 0
	}
	return c.e.Workers()
}

// busy returns the number of tasks running now: what a multi-pool's
// LeastTasks compares, one atomic read per sub-pool, where Running takes
// the engine's lock.
func (c *poolCommon) busy() int {
	if c.e == nil {
		return 0
	}
	return c.e.Running()
}

// Free returns Cap() minus Running(): how many more workers may start. It
// is -1 on an unlimited pool, and negative after a shrink below the
// workers alive, as in ants.
func (c *poolCommon) Free() int {
	if c.e == nil {
		return 0
	}
	if c.unlimited.Load() {
		return -1
	}
	return c.e.Cap() - c.Running()
}

// Waiting returns the number of submitters blocked in Submit or Invoke,
// waiting for a free worker.
func (c *poolCommon) Waiting() int {
	if c.e == nil {
		return 0
	}
	return c.e.Waiting()
}

// Cap returns the capacity: the most tasks that may run at once, or -1 for
// an unlimited pool.
func (c *poolCommon) Cap() int {
	if c.e == nil {
		return 0
	}
	if c.unlimited.Load() {
		return -1
	}
	if n := c.tuned.Load(); n > 0 && c.e.Closed() {
		return int(n)
	}
	return c.e.Cap()
}

// Tune sets the capacity to size, at once, as ants' Tune does: it is
// ignored on an unlimited pool, on one built WithPreAlloc and for a size
// below 1; a size above math.MaxInt32 is taken as math.MaxInt32. On a
// released pool it sets the capacity the pool reopens with (Reboot), as in
// ants. A shrink interrupts no running task: no new task starts until
// fewer than size run. A grow starts blocked submitters' tasks at once.
func (c *poolCommon) Tune(size int) {
	if c.e == nil || c.unlimited.Load() || c.preAlloc || size < 1 {
		return
	}
	size = min(size, resize.MaxSize)
	if c.e.Closed() {
		c.tuned.Store(int64(size))
		return
	}
	_ = c.e.Resize(size)
}

// Resize is Tune with errors, and without Tune's exceptions: it implements
// resize.Resizer, so the autoscaler can drive the pool, and it resizes a
// pool built WithPreAlloc, and makes an unlimited pool one of capacity n.
// A size below 1 is an error matching ErrInvalidPoolSize, a released pool
// ErrPoolClosed; either way nothing changes.
func (c *poolCommon) Resize(n int) error {
	if c.e == nil {
		return ErrPoolClosed
	}
	if err := c.e.Resize(n); err != nil {
		return err
	}
	c.unlimited.Store(false)
	c.tuned.Store(0)
	return nil
}

// IsClosed reports whether the pool has been released (and not rebooted).
func (c *poolCommon) IsClosed() bool {
	return c.e == nil || c.e.Closed()
}

// Release closes the pool without waiting: Submit returns ErrPoolClosed
// from now on, blocked submitters wake with it, and the running tasks
// finish. It is idempotent.
func (c *poolCommon) Release() {
	if c.e != nil {
		c.e.Close()
	}
}

// ReleaseTimeout releases the pool and waits until every task has finished
// and every worker has exited, or returns ErrTimeout after timeout. On a
// pool already released it returns ErrPoolClosed at once, as in ants.
func (c *poolCommon) ReleaseTimeout(timeout time.Duration) error {
	if c.IsClosed() {
		return ErrPoolClosed
	}
	done := c.e.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := c.e.Await(done, ctx.Done()); err != engine.ErrStopped {
		return err
	}
	return ErrTimeout
}

// ReleaseContext is ReleaseTimeout bounded by ctx: it returns ctx.Err() if
// ctx is done first. A nil ctx releases the pool and returns nil at once,
// as in ants; a pool already released is ErrPoolClosed.
func (c *poolCommon) ReleaseContext(ctx context.Context) error {
	if c.IsClosed() {
		return ErrPoolClosed
	}
	if ctx == nil {
		c.e.Close()
		return nil
	}
	if err := c.e.Await(c.e.Close(), ctx.Done()); err != engine.ErrStopped {
		return err
	}
	return ctx.Err()
}

// Reboot reopens a released pool with the capacity it had (or the one a
// Tune gave it since), after waiting for the tasks and workers of its
// previous life. On an open pool it does
// nothing. Called from inside a task it cannot wait for that task: it
// returns at once and the pool reopens when the task has returned.
func (c *poolCommon) Reboot() {
	if c.e == nil {
		return
	}
	c.e.Reopen()
	if n := c.tuned.Swap(0); n > 0 {
		_ = c.e.Resize(int(n))
	}
}

// releaseDone releases the pool and returns the channel closed when the
// life it closed has ended; see pool.Pool.ReleaseDone.
func (c *poolCommon) releaseDone() <-chan struct{} {
	if c.e == nil {
		return nil
	}
	return c.e.Close()
}

// Stats returns a snapshot of the pool's gauges and counters: workers
// alive and idle, tasks running, submitted, completed, rejected and
// panicked. Its Cap is the engine's (resize.MaxSize on an unlimited pool)
// and its Running counts tasks, not workers (that is its Workers).
func (c *poolCommon) Stats() pool.Stats {
	if c.e == nil {
		return pool.Stats{}
	}
	return pool.Stats(c.e.Stats())
}

// Pool runs func() tasks on at most Cap() goroutines at once. Build one
// with NewPool; all its methods are safe for concurrent use.
type Pool struct {
	poolCommon
	p *engine.Engine[func()]
}

var _ resize.Resizer = (*Pool)(nil)

// NewPool returns a pool that runs at most size tasks at once. As in ants,
// a size below 1 makes an unlimited pool (and so does one above
// math.MaxInt32), which is ErrInvalidPreAllocSize with WithPreAlloc; a
// negative expiry is an error matching ErrInvalidPoolExpiry.
func NewPool(size int, options ...Option) (*Pool, error) {
	cfg, err := engineOptions(size, options)
	if err != nil {
		return nil, err
	}
	p := new(engine.Engine[func()])
	p.Init(cfg.size, func(task func()) { task() }, cfg.engine)
	d := &Pool{p: p}
	d.init(p, cfg)
	return d, nil
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
	if task == nil {
		if p.p.Closed() {
			return ErrPoolClosed
		}
		return ErrNilTask
	}
	return p.p.Submit(context.Background(), task)
}
