package pool

import (
	"context"

	"github.com/poolkit/poolkit/internal/engine"
)

// FuncPool runs one function, fixed at construction, on each argument it is
// given, on a bounded, resizable set of workers. Invoke neither allocates
// nor boxes the argument: arguments wait in the queue as values of T.
// Every value of T is a valid argument, nil and zero values included.
//
// Create one with NewFunc. A FuncPool must not be copied after first use.
// Its capacity, lifecycle, panics and errors are those of Pool, method for
// method.
type FuncPool[T any] struct {
	e engine.Engine[T]
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
	p.e.Init(size, fn, cfg)
	return p, nil
}

// Invoke hands arg to the pool; fn(arg) will run once. Its outcomes are
// those of Pool.Submit.
func (p *FuncPool[T]) Invoke(ctx context.Context, arg T) error { return submit(&p.e, ctx, arg) }

// Resize is Pool.Resize.
func (p *FuncPool[T]) Resize(n int) error { return p.e.Resize(n) }

// Cap is Pool.Cap.
func (p *FuncPool[T]) Cap() int { return p.e.Cap() }

// Stats is Pool.Stats.
func (p *FuncPool[T]) Stats() Stats { return stats(&p.e) }

// WaitRoom is Pool.WaitRoom.
func (p *FuncPool[T]) WaitRoom(ctx context.Context) (int, error) { return waitRoom(&p.e, ctx) }

// WaitBacklog is Pool.WaitBacklog.
func (p *FuncPool[T]) WaitBacklog(ctx context.Context, n int) (int, error) {
	return waitBacklog(&p.e, ctx, n)
}

// Close is Pool.Close.
func (p *FuncPool[T]) Close() { p.e.Close() }

// Shutdown is Pool.Shutdown.
func (p *FuncPool[T]) Shutdown(ctx context.Context) error { return shutdown(&p.e, ctx) }

// ShutdownNow is Pool.ShutdownNow: it returns the arguments of the
// accepted tasks that have not started, oldest first.
func (p *FuncPool[T]) ShutdownNow() []T {
	_, units := p.e.CloseNow()
	return units
}
