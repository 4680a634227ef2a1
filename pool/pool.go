package pool

import (
	"context"
	"fmt"

	"github.com/poolkit/poolkit/internal/engine"
	"github.com/poolkit/poolkit/resize"
)

// Pool runs func() tasks on a bounded, resizable set of worker goroutines.
// Create one with New. A Pool must not be copied after first use. All
// methods are safe for concurrent use, from any goroutine, a task of the
// pool included (see "Calls from inside a task" in the package doc).
//
// A task that panics does not take down its worker or the process: the
// panic is recovered, counted in Stats.Panicked, and passed to the
// WithPanicHandler function, and the worker goes on with the next task.
// Without a handler, the pool logs only the panics no one else reports: a
// panic that a Future (SubmitResult, Schedule) or a Group reports to its
// Wait as a *PanicError is counted but not logged; any other is logged
// with its stack (WithLogger). A task that calls runtime.Goexit ends its worker goroutine,
// and a new one takes its place. Either way the pool keeps its capacity.
type Pool struct {
	e       engine.Engine[unit]
	layers  layers  // its Keyed and Schedulers
	futures futures // SubmitResult's tasks
}

// New returns a pool that runs at most size tasks at once. A size below 1
// (or above resize.MaxSize) is an error matching ErrInvalidSize, whose
// text names the size and the valid range ("pool: resize: invalid size 0:
// want 1 to 2147483647"); an invalid option is an error matching
// ErrInvalidOption, whose text names the value and the valid range too.
func New(size int, opts ...Option) (*Pool, error) {
	cfg, err := prepare(size, opts)
	if err != nil {
		return nil, err
	}
	p := new(Pool)
	p.e.Init(size, callUnit, cfg)
	return p, nil
}

func prepare(size int, opts []Option) (engine.Config, error) {
	if err := resize.Validate(size); err != nil {
		return engine.Config{}, fmt.Errorf("pool: %w", err)
	}
	c, err := buildConfig(opts)
	if err == nil && c.MinWorkers > size {
		err = invalid("min workers %d: want 0 to %d, the pool's size", c.MinWorkers, size)
	}
	return c.Config, err
}

// Submit hands task to the pool. It returns nil once the task is accepted:
// started by a free worker, or queued for the next one. When the pool is
// saturated (every worker busy and the queue full), Submit waits for room
// as long as ctx allows, unless WithMaxWaiting callers wait already, in
// which case it returns ErrOverload. It returns ErrClosed once the pool is
// closed, including while it waits; ctx.Err() when ctx is done before the
// task is accepted (a ctx already done is refused even when the pool has
// room); ErrNilTask for a nil task and ErrNilContext for a nil ctx. A task
// for which Submit returned nil runs exactly once, or is handed back by
// ShutdownNow; one for which it returned an error never runs.
//
// Called from inside a task of this pool on a saturated pool, Submit does
// not wait for a slot that its own task holds: it runs the oldest waiting
// tasks in its slot until its own fits.
//
// Submit synchronizes before the task starts.
func (p *Pool) Submit(ctx context.Context, f func()) error {
	if f == nil {
		return ErrNilTask
	}
	return submit[unit](&p.e, ctx, task(f))
}

// submit is Submit's checks of ctx, shared with FuncPool.Invoke.
func submit[E any](e *engine.Engine[E], ctx context.Context, v E) error {
	if ctx == nil {
		return ErrNilContext
	}
	if err := ctx.Err(); err != nil {
		return e.Reject(err)
	}
	return e.Submit(ctx, v)
}

// Resize sets the capacity to n, the most tasks that may run at once. It
// implements resize.Resizer.
//
// The new capacity takes effect before Resize returns: from then on Cap
// returns n and no task starts while n or more are running, whether idle
// workers exist or not. A grow starts waiting tasks at once, up to the new
// capacity, and admits waiting submitters as room appears. A shrink never
// interrupts a running task: the tasks above the new capacity finish, and
// the workers that ran them exit; idle workers above it exit at once.
// Queued tasks and waiting submitters are kept. Resize never waits for
// tasks.
//
// Concurrent calls are serialised into one order. Resize(Cap()) changes
// nothing. A size below 1 (or above resize.MaxSize) returns an error
// matching ErrInvalidSize, and a closed pool returns ErrClosed; in both
// cases nothing changes.
//
// A successful Resize synchronizes before any task it lets start.
func (p *Pool) Resize(n int) error { return p.e.Resize(n) }

// Cap returns the capacity: the most tasks that may run at once, as set
// by the latest successful Resize, or by New.
func (p *Pool) Cap() int { return p.e.Cap() }

// Stats returns a snapshot of the pool's gauges, counters and, with
// WithTimings, its timings.
func (p *Pool) Stats() Stats {
	s := stats(&p.e)
	for _, l := range p.layers.all() {
		l.addStats(&s)
	}
	p.futures.addStats(&s)
	return s
}

// WaitRoom waits until a task submitted now would start at once, no task
// waiting before it, and returns how many could: Cap less the slots held
// (a worker between two tasks holds one) and the tasks waiting, at least
// 1. It returns ErrClosed once the pool is
// closed, ctx.Err() when ctx is done first (a ctx already done returns its
// error even when the pool has room, as Submit does), and ErrNilContext
// for a nil ctx. The room is a reading, not a reservation: another
// submitter may take it. It is for a feeder that must not take more work from its
// source than the pool can start (a message broker's pull, where a
// fetched message that waits in a queue has its redelivery timer running).
func (p *Pool) WaitRoom(ctx context.Context) (int, error) { return waitRoom(&p.e, ctx) }

// WaitBacklog waits until at least n tasks (at least one) wait with no
// free worker to start them (queued, or in a blocked Submit, while every
// slot is held), and returns how many wait; it returns at once when that
// is already so. It
// returns ErrClosed once the pool is closed, ctx.Err() when ctx is done
// first, and ErrNilContext for a nil ctx. It is for a controller that
// sizes the pool (package autoscale): it learns of a backlog the moment
// it forms instead of at its next tick, and with n it ignores a queue the
// pool absorbs. Like WaitRoom, it reports a
// reading: a worker may start the task a moment later.
func (p *Pool) WaitBacklog(ctx context.Context, n int) (int, error) { return waitBacklog(&p.e, ctx, n) }

func waitBacklog[E any](e *engine.Engine[E], ctx context.Context, n int) (int, error) {
	if ctx == nil {
		return 0, ErrNilContext
	}
	return e.WaitBacklog(ctx, n)
}

func waitRoom[E any](e *engine.Engine[E], ctx context.Context) (int, error) {
	if ctx == nil {
		return 0, ErrNilContext
	}
	return e.WaitRoom(ctx)
}

// Close stops intake without waiting: from then on Submit returns
// ErrClosed, and callers waiting in Submit wake with ErrClosed (their
// tasks were not accepted). Tasks that were accepted still run, queued
// ones included, and then the workers exit: Shutdown waits for that. Close
// is idempotent, and safe from any goroutine and from inside a task.
func (p *Pool) Close() { p.e.Close() }

// Shutdown closes the pool, as Close does, and waits until every accepted
// task has finished and every worker goroutine has exited, or until ctx is
// done (it returns ctx.Err()). Called from inside a task of this pool, it
// cannot see that task finish: it closes the pool and returns
// ErrInsideTask at once. A nil ctx is ErrNilContext, and the pool is
// still closed. It may be called any number of times.
//
// The return of every task synchronizes before a Shutdown that returns
// nil.
func (p *Pool) Shutdown(ctx context.Context) error { return shutdown(&p.e, ctx) }

func shutdown[E any](e *engine.Engine[E], ctx context.Context) error {
	done := e.Close()
	if ctx == nil {
		return ErrNilContext
	}
	if err := e.Await(done, ctx.Done()); err != engine.ErrStopped {
		return err
	}
	return ctx.Err()
}

// ShutdownNow closes the pool, as Close does, but instead of running the
// accepted tasks that have not started, it removes them and returns them,
// oldest first, to the caller, who now owns them; it does not wait for the
// running tasks, which finish. After it returns no task starts in this
// pool: every accepted task has either started or been returned. It may
// follow Close, to abandon the remaining queue, and precede Shutdown, to
// wait for the running tasks.
//
// The plain tasks come first. Then come the tasks of each Keyed on the
// pool, in the order they were made, and last those of each Scheduler. A
// Keyed's come back one function per key: calling it runs the key's
// waiting tasks in their order, once the key's running task, if any, has
// returned. If one of them panics, the panic reaches the caller, and
// calling the function again runs the rest. A Scheduler's come back one
// function per waiting task, in the order the scheduler would have
// started them; their contexts and WithMaxWait no longer apply.
func (p *Pool) ShutdownNow() []func() {
	_, units := p.e.CloseNow()
	return p.layers.handBack(units)
}
