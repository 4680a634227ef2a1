package pool

import (
	"context"
	"fmt"
	"runtime/debug"
)

// Future is the pending result of a task submitted with SubmitResult or
// Schedule.
type Future[T any] struct {
	p    *Pool
	done chan struct{}
	val  T
	err  error
}

// PanicError is the error a Future or a Group reports for a task that
// panicked. The panic still reaches the pool's panic handler.
type PanicError struct {
	Value any    // the value passed to panic
	Stack []byte // the panicking goroutine's stack
}

func (e *PanicError) Error() string { return fmt.Sprintf("pool: task panicked: %v", e.Value) }

// SubmitResult submits fn to p, as Submit does, and returns a Future
// for its result. When the submission fails, the error is returned, fn
// never runs and the Future is nil.
func SubmitResult[T any](ctx context.Context, p *Pool, fn func() (T, error)) (*Future[T], error) {
	if fn == nil {
		return nil, ErrNilTask
	}
	if p == nil {
		return nil, errNilPool
	}
	f, run := newFuture(p, fn)
	if err := p.Submit(ctx, run); err != nil {
		return nil, err
	}
	return f, nil
}

// newFuture returns a Future for fn's result on p, and the task that runs
// fn and fills the Future; a task that never runs fills it with finish.
func newFuture[T any](p *Pool, fn func() (T, error)) (*Future[T], func()) {
	f := &Future[T]{p: p, done: make(chan struct{})}
	return f, func() {
		guarded(func() (err error) {
			f.val, err = fn()
			return err
		}, f.finish)
	}
}

// finish records the task's outcome and releases the waiters; it is
// called once.
func (f *Future[T]) finish(err error) {
	f.err = err
	close(f.done)
}

// Done returns a channel that is closed when the task has finished. A
// Future not made by SubmitResult has no task: its channel is closed, and
// its Wait returns an error.
func (f *Future[T]) Done() <-chan struct{} {
	if f.done == nil {
		return closedChan
	}
	return f.done
}

var closedChan = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// Wait blocks until the task has finished or ctx is done, and returns the
// task's result, or the zero value and ctx.Err(). A task that ShutdownNow
// handed back finishes when the function ShutdownNow gave for it runs. A
// task that panicked yields a *PanicError. The task's return synchronizes before Wait returns
// its result. A nil ctx is an error (ErrNilContext).
//
// Called from inside a task of the future's pool while the future's task is
// still waiting, it runs the oldest waiting tasks of the pool in its own
// slot, the future's among them, until the future's task has finished, and
// waits only while nothing is left to run.
func (f *Future[T]) Wait(ctx context.Context) (T, error) {
	var zero T
	if ctx == nil {
		return zero, ErrNilContext
	}
	if f.p == nil {
		return zero, errNilPool
	}
	select {
	case <-f.done:
		return f.val, f.err
	default:
	}
	f.p.e.HelpCaller(f.done, ctx.Done())
	select {
	case <-f.done:
		return f.val, f.err
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// guarded runs fn and passes its outcome to finish exactly once: fn's
// error, a *PanicError if it panicked, or ErrGoexit if it called
// runtime.Goexit. A panic then goes on, so that the pool counts it and its
// handler sees it.
func guarded(fn func() error, finish func(error)) {
	returned := false
	defer func() {
		if returned {
			return
		}
		r := recover()
		if r == nil {
			finish(ErrGoexit)
			return
		}
		finish(&PanicError{Value: r, Stack: debug.Stack()})
		panic(r)
	}()
	err := fn()
	returned = true
	finish(err)
}
