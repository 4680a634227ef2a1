package pool

import (
	"errors"

	"github.com/poolkit/poolkit/internal/callback"
	"github.com/poolkit/poolkit/internal/engine"
	"github.com/poolkit/poolkit/resize"
)

// The pool's errors, matched with errors.Is. ErrClosed, ErrOverload and
// ErrInvalidSize match the resize package's kinds, so that code driving
// several pools (an autoscaler, an adapter) matches one set.
var (
	// ErrClosed is returned by Submit, Invoke, Resize and WaitRoom once the
	// pool is closed, and to submitters that were waiting when it closed;
	// NewKeyed and NewScheduler return an error matching it for a closed
	// pool. It matches resize.ErrClosed.
	ErrClosed = engine.ErrClosed
	// ErrOverload is returned by Submit and Invoke when the pool is
	// saturated (every slot busy and the queue full) and the caller may
	// not wait (WithMaxWaiting). The task was not accepted. It matches
	// resize.ErrOverload.
	ErrOverload = engine.ErrOverload
	// ErrInvalidSize is returned by New, NewFunc and Resize for a size
	// below 1 or above resize.MaxSize. It is resize.ErrInvalidSize.
	ErrInvalidSize = resize.ErrInvalidSize
	// ErrInvalidOption is matched by the error New and NewFunc return for
	// a nil option or an option given an invalid value, and by the error
	// NewKeyed and NewScheduler return for a nil pool. It is
	// actorpool.ErrInvalidOption, the same value.
	ErrInvalidOption = engine.ErrInvalidOption
	// ErrNilTask is returned for a nil task or function.
	ErrNilTask = errors.New("pool: nil task")
	// ErrNilContext is returned for a nil context. A Shutdown given one
	// still closes the pool. It is actorpool.ErrNilContext, the same
	// value.
	ErrNilContext = engine.ErrNilContext
	// ErrInsideTask is returned by Shutdown called from inside a task of
	// the same pool: a pool cannot finish while one of its tasks waits
	// for it, so Shutdown closes the pool and returns at once. The pool
	// finishes once its tasks have returned.
	ErrInsideTask = engine.ErrInsideTask
	// ErrGoexit is reported by a Future or a Group for a task that called
	// runtime.Goexit instead of returning.
	ErrGoexit = callback.ErrGoexit
)

// errNilPool is returned by SubmitResult and Group.Go for a nil *Pool.
var errNilPool = errors.New("pool: nil *Pool")
