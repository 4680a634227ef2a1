package compat

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
	"github.com/poolkit/poolkit/spectest"
)

// ActorRouter is poolkit's actor pool-router (actorpool.Router) as a task
// pool: a task is a message, handled by the worker the router forwards it
// to, and the capacity is the number of workers. Its system's engine has
// room for any number of workers, so the router alone bounds how many
// tasks run. A router never blocks a sender: its worker mailboxes are
// unbounded, so Submit always accepts while open. A panicking task is
// recovered by the worker and passed to the panic handler.
type ActorRouter struct {
	sys     *actorpool.System
	r       *actorpool.Router
	handler func(any)

	mu       sync.Mutex
	closed   bool
	drained  chan struct{} // closed once closed and every accepted task has finished
	accepted uint64        // guarded by mu

	running   atomic.Int64
	completed atomic.Uint64
}

// NewActorRouter returns a router with c.Size workers.
func NewActorRouter(c spectest.Config) (*ActorRouter, error) {
	if err := resize.Validate(c.Size); err != nil {
		return nil, err
	}
	sys, err := actorpool.New(actorpool.WithWorkers(resize.MaxSize))
	if err != nil {
		return nil, err
	}
	a := &ActorRouter{sys: sys, handler: c.PanicHandler, drained: make(chan struct{})}
	r, err := actorpool.NewRouter(sys, c.Size, func() actorpool.Behavior { return actorpool.BehaviorFunc(a.run) })
	if err != nil {
		_ = sys.Shutdown(context.Background())
		return nil, err
	}
	a.r = r
	return a, nil
}

// Supports reports which Config fields the adapter honours: the panic handler.
func (*ActorRouter) Supports(c spectest.Capability) bool { return c == spectest.PanicHandler }

func (a *ActorRouter) run(_ *actorpool.Context, msg any) {
	a.running.Add(1)
	defer func() {
		a.running.Add(-1)
		if a.completed.Add(1) == a.acceptedIfClosed() {
			close(a.drained)
		}
	}()
	defer func() {
		if r := recover(); r != nil && a.handler != nil {
			a.handler(r)
		}
	}()
	msg.(func())()
}

// acceptedIfClosed returns the number of accepted tasks once the adapter is
// closed, and 0 before.
func (a *ActorRouter) acceptedIfClosed() uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.closed {
		return 0
	}
	return a.accepted
}

// Submit tells task to the router.
func (a *ActorRouter) Submit(task func()) error {
	if task == nil {
		return pool.ErrNilTask
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return pool.ErrClosed
	}
	if err := a.r.Ref().Tell(task); err != nil {
		return err
	}
	a.accepted++
	return nil
}

// Shutdown stops intake, waits, bounded by ctx, for every accepted task to
// finish, and shuts the system down.
func (a *ActorRouter) Shutdown(ctx context.Context) error {
	a.mu.Lock()
	if !a.closed {
		a.closed = true
		if a.completed.Load() == a.accepted {
			close(a.drained)
		}
	}
	a.mu.Unlock()
	select {
	case <-a.drained:
	case <-ctx.Done():
		return ctx.Err()
	}
	return a.sys.Shutdown(ctx)
}

// Resize sets the number of workers.
func (a *ActorRouter) Resize(n int) error {
	a.mu.Lock()
	closed := a.closed
	a.mu.Unlock()
	if closed {
		if err := resize.Validate(n); err != nil {
			return err
		}
		return pool.ErrClosed
	}
	err := a.r.Resize(n)
	if errors.Is(err, resize.ErrClosed) {
		return pool.ErrClosed
	}
	return err
}

// Cap returns the number of workers.
func (a *ActorRouter) Cap() int { return a.r.Cap() }

// Running returns the tasks being handled.
func (a *ActorRouter) Running() int { return int(a.running.Load()) }

// Waiting returns the tasks accepted and not yet started.
func (a *ActorRouter) Waiting() int {
	a.mu.Lock()
	acc := a.accepted
	a.mu.Unlock()
	return max(0, int(acc-a.completed.Load())-a.Running())
}

// Completed returns how many tasks have finished.
func (a *ActorRouter) Completed() uint64 { return a.completed.Load() }
