package pool

import (
	"context"
	"sync"
)

// Group runs a batch of tasks on a pool and waits for all of them,
// returning the first error, like errgroup.Group with the pool as its
// limit. Create one with Pool.Group. A Group must not be copied after
// first use, and is not reusable after Wait returns.
type Group struct {
	p      *Pool
	ctx    context.Context
	cancel context.CancelCauseFunc
	wg     sync.WaitGroup
	once   sync.Once
	err    error
}

// Group returns a new group of tasks that run on p, and a context derived
// from ctx that is canceled when a task of the group returns an error,
// when a submission fails, or when Wait returns, whichever happens first.
func (p *Pool) Group(ctx context.Context) (*Group, context.Context) {
	if ctx == nil {
		ctx = context.Background()
	}
	gctx, cancel := context.WithCancelCause(ctx)
	return &Group{p: p, ctx: gctx, cancel: cancel}, gctx
}

func (g *Group) fail(err error) {
	g.once.Do(func() {
		g.err = err
		g.cancel(err)
	})
}

// Go submits task to the pool, blocking while the pool is saturated. If
// the submission fails (the pool is closed or overloaded, or the group's
// context is done), the task does not run and the failure counts as the
// task's error. Once the group's context is done, Go submits nothing more.
// A task that panics fails the group with a *PanicError; the panic then
// goes on to the pool's panic handler.
func (g *Group) Go(task func() error) {
	if task == nil {
		g.fail(ErrNilTask)
		return
	}
	g.wg.Add(1)
	err := g.p.SubmitContext(g.ctx, func() {
		guarded(task, func(err error) {
			if err != nil {
				g.fail(err)
			}
			g.wg.Done()
		})
	})
	if err != nil {
		g.wg.Done()
		g.fail(err)
	}
}

// Wait blocks until every task whose Go call submitted it has returned,
// then returns the first error of the group, or nil.
func (g *Group) Wait() error {
	g.wg.Wait()
	g.cancel(nil)
	return g.err
}
