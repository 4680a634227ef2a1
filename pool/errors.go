package pool

import (
	"errors"

	"github.com/poolkit/poolkit/resize"
)

// ErrPoolClosed is returned by Submit, SubmitContext, Invoke and Resize on a
// pool that has been released, and to submitters that were blocked when it
// was released. It matches resize.ErrClosed.
var ErrPoolClosed error = &poolError{msg: "pool: closed", parent: resize.ErrClosed}

// ErrPoolOverload is returned by Submit, SubmitContext and Invoke when the
// pool is saturated (every slot busy and the queue full) and the pool is
// non-blocking (WithNonblocking), or WithMaxBlockingTasks callers are
// already blocked. The task was not accepted. It matches
// resize.ErrOverload.
var ErrPoolOverload error = &poolError{msg: "pool: overloaded", parent: resize.ErrOverload}

// ErrTimeout is returned by ReleaseTimeout when accepted tasks are still
// running, or workers have not exited, when the timeout expires.
var ErrTimeout = errors.New("pool: timed out waiting for tasks to finish")

// ErrInvalidSize is returned by New, NewFunc and Resize for a size below 1
// (or above resize.MaxSize). It is resize.ErrInvalidSize, so autoscalers
// and other resize clients can match it without importing this package.
var ErrInvalidSize = resize.ErrInvalidSize

// ErrNilTask is returned by Submit and SubmitContext for a nil task, and by
// NewFunc for a nil function.
var ErrNilTask = errors.New("pool: nil task")

// ErrInvalidOption is matched by the error New and NewFunc return for a nil
// option or an option given an invalid value.
var ErrInvalidOption = errors.New("pool: invalid option")

// ErrInsideTask is returned by ReleaseTimeout and ReleaseContext called
// from inside a task of the same pool: a pool cannot finish while one of
// its tasks waits for it, so they release the pool and return at once. The
// pool finishes closing once its tasks have returned.
var ErrInsideTask = errors.New("pool: cannot wait for a pool from inside a task")

// errNilPool is returned by SubmitResult and Group.Go for a nil *Pool.
var errNilPool = errors.New("pool: nil *Pool")

// ErrNilContext is returned by SubmitContext, InvokeContext and
// ReleaseContext for a nil context. ReleaseContext still releases the pool.
var ErrNilContext = errors.New("pool: nil context")

type poolError struct {
	msg    string
	parent error
}

func (e *poolError) Error() string { return e.msg }
func (e *poolError) Unwrap() error { return e.parent }
