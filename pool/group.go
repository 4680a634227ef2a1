package pool

import (
	"context"
	"sync"
	"sync/atomic"
)

// Group runs a batch of tasks on a pool and waits for all of them,
// returning the first error, like errgroup.Group with the pool as its
// limit. Create one with Pool.Group; a zero Group has no pool: its Go
// fails the group, and its Wait returns that error. A Group must not be
// copied after first use, and is not reusable after Wait returns.
//
// A panic in a task of the group is the group's to report: it fails the
// group with a *PanicError, which Wait returns. The pool counts the panic
// in Stats.Panicked and passes it to a panic handler set with
// WithPanicHandler, which sees every panic, but does not log it: the
// pool's logger gets only the panics no one else reports.
type Group struct {
	p       *Pool
	ctx     context.Context
	cancel  context.CancelCauseFunc
	wg      sync.WaitGroup
	pending atomic.Int64 // tasks submitted and not finished: whether Wait from a task has anything to help with
	once    sync.Once
	err     error
}

// Group returns a new group of tasks that run on p, and a context derived
// from ctx that is canceled when a task of the group returns an error,
// when a submission fails, or when Wait returns, whichever happens first.
//
// A nil ctx, as everywhere in this package, is an error: the group's
// context is canceled at once with ErrNilContext as its cause, Go submits
// nothing, and Wait returns ErrNilContext.
func (p *Pool) Group(ctx context.Context) (*Group, context.Context) {
	if ctx == nil {
		gctx, cancel := context.WithCancelCause(context.Background())
		g := &Group{p: p, ctx: gctx, cancel: cancel}
		g.fail(ErrNilContext)
		return g, gctx
	}
	gctx, cancel := context.WithCancelCause(ctx)
	return &Group{p: p, ctx: gctx, cancel: cancel}, gctx
}

func (g *Group) fail(err error) {
	g.once.Do(func() {
		g.err = err
		if g.cancel != nil { // a zero Group has no context of its own
			g.cancel(err)
		}
	})
}

// Go submits task to the pool, blocking while the pool is saturated. If
// the submission fails (the pool is closed or overloaded, or the group's
// context is done), the task does not run and the failure counts as the
// task's error. Once the group's context is done, Go submits nothing more.
// A task that panics fails the group with a *PanicError; the panic is
// then counted, and goes on to the pool's panic handler if one is set,
// but is not logged (see Group).
func (g *Group) Go(task func() error) {
	if task == nil {
		g.fail(ErrNilTask)
		return
	}
	if g.p == nil {
		g.fail(errNilPool)
		return
	}
	if err := g.ctx.Err(); err != nil {
		g.fail(err) // kept only if the group had no error yet
		return
	}
	g.wg.Add(1)
	g.pending.Add(1)
	err := g.p.Submit(g.ctx, func() {
		guarded(&g.p.e, task, func(err error) {
			if err != nil {
				g.fail(err)
			}
			g.pending.Add(-1)
			g.wg.Done()
		})
	})
	if err != nil {
		g.pending.Add(-1)
		g.wg.Done()
		g.fail(err)
	}
}

// Wait blocks until every task whose Go call submitted it has returned,
// then returns the first error of the group, or nil. A task that
// ShutdownNow handed back has not returned: the function ShutdownNow gave
// for it runs it, and Wait waits until then.
//
// Called from inside a task of the group's pool, it does not wait for
// tasks queued behind its own, which might need its slot to run: it runs
// the oldest waiting tasks of the pool in its own slot while the group has
// unfinished tasks, and waits only while nothing is left to run.
func (g *Group) Wait() error {
	if g.p != nil && g.pending.Load() > 0 {
		if g.p.e.Inside() {
			done := make(chan struct{})
			go func() { g.wg.Wait(); close(done) }()
			g.p.e.HelpCaller(done, nil)
		}
	}
	g.wg.Wait()
	if g.cancel != nil {
		g.cancel(nil)
	}
	return g.err
}
