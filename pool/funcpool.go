package pool

import "context"

// FuncPool runs one function, fixed at construction, on each argument it is
// given, on a bounded, resizable set of workers; it is ants' generic
// PoolWithFunc. Invoke neither allocates nor boxes the argument: arguments
// wait in the queue as values of T. Every value of T is a valid argument,
// nil and zero values included.
//
// Create one with NewFunc; the zero value is not usable. A FuncPool must
// not be copied after first use. Its management methods, capacity,
// lifecycle, panics and errors are those of Pool.
type FuncPool[T any] struct {
	engine[T]
}

// NewFunc returns a pool that calls fn with each invoked argument, at most
// size at once. A size below 1 is an error matching ErrInvalidSize; a nil
// fn is ErrNilTask; an invalid option is an error matching
// ErrInvalidOption.
func NewFunc[T any](size int, fn func(T), opts ...Option) (*FuncPool[T], error) {
	if fn == nil {
		return nil, ErrNilTask
	}
	cfg, err := prepare(size, opts)
	if err != nil {
		return nil, err
	}
	p := new(FuncPool[T])
	p.init(size, fn, cfg)
	return p, nil
}

// Invoke hands arg to the pool; fn(arg) will run once. Its outcomes are
// those of Pool.Submit.
func (p *FuncPool[T]) Invoke(arg T) error { return p.submit(context.Background(), arg) }

// InvokeContext is Invoke bounded by ctx, as Pool.SubmitContext is.
func (p *FuncPool[T]) InvokeContext(ctx context.Context, arg T) error {
	if ctx == nil {
		return ErrNilContext
	}
	if err := ctx.Err(); err != nil {
		return p.rejected.count(err)
	}
	return p.submit(ctx, arg)
}

// ReleaseNow closes the pool as Release does, but instead of running the
// accepted tasks that have not started, it removes them and returns their
// arguments, oldest first, to the caller, who now owns them. Tasks already running
// finish. After ReleaseNow returns, no task starts in this pool (until a
// Reboot); every accepted task has either started or been returned.
// It may follow Release, to abandon the remaining queue.
func (p *FuncPool[T]) ReleaseNow() []T {
	_, units := p.close(true)
	return units
}
