package ants

import (
	"context"
	"errors"
	"log"
	"math"
	"os"
	"time"

	"github.com/poolkit/poolkit/pool"
)

const (
	// DefaultAntsPoolSize is the capacity of the default pool.
	DefaultAntsPoolSize = math.MaxInt32

	// DefaultCleanIntervalTime is how long a worker stays idle before it
	// exits, unless WithExpiryDuration says otherwise.
	DefaultCleanIntervalTime = time.Second
)

const (
	// OPENED is ants' state value for an open pool.
	OPENED = iota

	// CLOSED is ants' state value for a released pool.
	CLOSED
)

// The error values below that ants also has keep ants' names. Those that
// mean what a poolkit error means are that error, so errors.Is matches
// either name, and so do comparisons with ==.
var (
	// ErrLackPoolFunc is returned by the pool-with-function constructors
	// for a nil function.
	ErrLackPoolFunc = errors.New("must provide function for pool")

	// ErrInvalidPoolExpiry is matched by the error of a constructor given a
	// negative expiry duration (unless purging is disabled).
	ErrInvalidPoolExpiry = errors.New("invalid expiry for pool")

	// ErrPoolClosed is returned by Submit and Invoke on a released pool,
	// and to submitters blocked when it was released. It is
	// pool.ErrClosed.
	ErrPoolClosed = pool.ErrClosed

	// ErrPoolOverload is returned by Submit and Invoke when every worker is
	// busy and the pool is non-blocking, or MaxBlockingTasks submitters are
	// already blocked. It is pool.ErrOverload.
	ErrPoolOverload = pool.ErrOverload

	// ErrInvalidPreAllocSize is matched, with ErrInvalidPoolSize, by the
	// error of a constructor given WithPreAlloc and a size below 1.
	ErrInvalidPreAllocSize = errors.New("can not set up a negative capacity under PreAlloc mode")

	// ErrTimeout is returned by ReleaseTimeout when tasks are still running
	// when the timeout expires.
	ErrTimeout = errors.New("operation timed out")

	// ErrInvalidPoolIndex is returned by the ByIndex methods of the
	// multi-pools for an index out of range.
	ErrInvalidPoolIndex = errors.New("invalid pool index")

	// ErrInvalidLoadBalancingStrategy is returned by the multi-pool
	// constructors for a strategy other than RoundRobin and LeastTasks.
	ErrInvalidLoadBalancingStrategy = errors.New("invalid load-balancing strategy")

	// ErrInvalidMultiPoolSize is returned by the multi-pool constructors
	// for a number of sub-pools below 1.
	ErrInvalidMultiPoolSize = errors.New("invalid size for multiple pool")
)

// Errors that ants does not have, for the inputs it accepts and poolkit
// refuses (see the package documentation).
var (
	// ErrInvalidPoolSize is returned by Resize for a size below 1 (for a
	// multi-pool, below its number of sub-pools), where Tune, as in ants,
	// ignores it. It is pool.ErrInvalidSize (and resize.ErrInvalidSize).
	ErrInvalidPoolSize = pool.ErrInvalidSize

	// ErrNilTask is returned by Submit for a nil task, on an open pool.
	// It is pool.ErrNilTask.
	ErrNilTask = pool.ErrNilTask
)

// Logger is used for logging formatted messages: the reports of panics
// that no panic handler takes.
type Logger interface {
	// Printf must have the same semantics as log.Printf.
	Printf(format string, args ...any)
}

var defaultLogger Logger = log.New(os.Stderr, "[ants]: ", log.LstdFlags|log.Lmsgprefix|log.Lmicroseconds)

// The default pool starts no goroutine until a task is submitted, so
// building it when the package is loaded costs nothing.
var defaultAntsPool = mustDefaultPool()

func mustDefaultPool() *Pool {
	p, err := NewPool(DefaultAntsPoolSize)
	if err != nil {
		panic("ants: default pool: " + err.Error()) // cannot happen: a valid size and no options
	}
	return p
}

// Submit submits a task to the default pool, a Pool of capacity
// DefaultAntsPoolSize; see Pool.Submit.
func Submit(task func()) error { return defaultAntsPool.Submit(task) }

// Running returns the number of tasks running in the default pool.
func Running() int { return defaultAntsPool.Running() }

// Cap returns the capacity of the default pool.
func Cap() int { return defaultAntsPool.Cap() }

// Free returns the default pool's capacity minus its running tasks.
func Free() int { return defaultAntsPool.Free() }

// Release closes the default pool; see Pool.Release.
func Release() { defaultAntsPool.Release() }

// ReleaseTimeout closes the default pool and waits for its tasks; see
// Pool.ReleaseTimeout.
func ReleaseTimeout(timeout time.Duration) error { return defaultAntsPool.ReleaseTimeout(timeout) }

// ReleaseContext closes the default pool and waits for its tasks until ctx
// is done; see Pool.ReleaseContext.
func ReleaseContext(ctx context.Context) error { return defaultAntsPool.ReleaseContext(ctx) }

// Reboot reopens the default pool after a release; see Pool.Reboot.
func Reboot() { defaultAntsPool.Reboot() }
