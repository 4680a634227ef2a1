package pool

import (
	"context"
	"runtime/debug"
	"sync/atomic"

	"github.com/poolkit/poolkit/internal/callback"
	"github.com/poolkit/poolkit/internal/engine"
)

// Future is the pending result of a task submitted with SubmitResult or
// Schedule.
type Future[T any] struct {
	p    *Pool
	done chan struct{}
	val  T
	err  error
	fn   func() (T, error)

	// A task of SubmitResult whose ctx can end (F1, F2). ctx is set
	// before the Future is published and never changes.
	ctx   context.Context
	state atomic.Uint32
	watch atomic.Pointer[func() bool] // the watch Done set on ctx, if any: it removes it
}

// PanicError is the error a Future or a Group reports for a task that
// panicked: Value is the value passed to panic, Stack the panicking
// goroutine's stack. The panic is still counted in Stats.Panicked and passed
// to the pool's panic handler, if WithPanicHandler set one; reported here,
// it is not logged. It is the type actorpool.PanicError is too.
type PanicError = callback.PanicError

// SubmitResult submits fn to p, as Submit does, and returns a Future
// for its result. When the submission fails, the error is returned, fn
// never runs and the Future is nil.
//
// A panic in fn is the Future's to report: its Wait returns a
// *PanicError. The pool counts the panic in Stats.Panicked and passes it to
// a panic handler set with WithPanicHandler, which sees every panic, but
// does not log it: the pool's logger gets only the panics no one else
// reports.
//
// ctx bounds the task's whole wait, for room and then for a worker: if it
// ends before a worker starts the task, the task never starts, and its
// Future reports ctx.Err(), from the moment ctx ends for a Wait in
// progress or a channel from Done. The task is then counted in
// Stats.Expired; the place it held in the queue is passed over by the
// next worker to reach it (and counted in Completed then, as a task that
// ended without running). Once the task has started, ctx no longer
// applies to it. A task that ShutdownNow hands back keeps its ctx: the
// function it hands back runs fn only if ctx has not ended.
//
// Watching ctx costs nothing at submission: the Future looks at ctx when
// it is waited for, and Done sets a watch on ctx (context.AfterFunc) for
// as long as the task waits. A Future nobody looks at expires when a
// worker reaches its task, and is counted then.
func SubmitResult[T any](ctx context.Context, p *Pool, fn func() (T, error)) (*Future[T], error) {
	if fn == nil {
		return nil, ErrNilTask
	}
	if p == nil {
		return nil, errNilPool
	}
	f := newFuture(p, fn)
	if ctx != nil && ctx.Done() != nil { // a ctx that never ends: nothing to look at
		f.ctx = ctx
	}
	// The Future is itself the unit the engine queues (units.go): it
	// costs no closure, and ShutdownNow hands it back in its place among
	// the plain tasks.
	if err := submit[unit](&p.e, ctx, f); err != nil {
		return nil, err
	}
	if f.ctx != nil && ctx.Err() != nil { // it ended while the pool accepted the task
		f.expire()
	}
	return f, nil
}

// futures is the layer of SubmitResult's tasks: their units are the
// Futures themselves, run in queue order with the plain tasks and handed
// back with them; what it keeps is their count for Stats.
type futures struct {
	// expired counts the tasks that expired (F1); stale those of them
	// whose place in the queue no worker has passed yet, which Stats
	// does not count as waiting.
	expired atomic.Uint64
	stale   atomic.Int64
}

func (fs *futures) addStats(s *Stats) {
	s.Waiting = max(0, s.Waiting-int(fs.stale.Load()))
	s.Expired += fs.expired.Load()
}

// run is the Future's unit: the task of a Future whose ctx can end first
// looks at ctx (F1); the others run fn.
func (f *Future[T]) run() {
	if f.ctx != nil {
		f.startWatched()
		return
	}
	f.call()
}

// F1. A task of SubmitResult whose ctx can end is futureQueued until
// exactly one of two moves, each a CAS, takes it out: to futureStarted,
// by its task when a worker starts it with ctx live, or to futureExpired,
// by whichever first sees ctx ended (the task itself, a Wait, Done's
// watch, or its submitter right after the pool accepted it). So the task
// runs at most once, the Future is finished once, and the expiry is
// counted once; the task's place in the queue, passed over later, is
// counted in Stats only as stale.
//
// F2. Done's watch is removed once the task has started or expired: the
// task (after its CAS) and expire load watch, Done stores it and then
// loads state. With both orders sequentially consistent, one of the two
// sees the other's write, and removes the watch (removing it twice does
// nothing).
const (
	futureQueued uint32 = iota
	futureStarted
	futureExpired
)

// startWatched is the task of a Future whose ctx can end: it runs fn
// unless ctx has ended first.
func (f *Future[T]) startWatched() {
	if f.ctx.Err() == nil && f.state.CompareAndSwap(futureQueued, futureStarted) {
		f.unwatch()
		f.call()
		return
	}
	f.expire() // nothing if it has expired already
	f.p.futures.stale.Add(-1)
}

// expire gives up the task, whose ctx has ended, unless it has started.
func (f *Future[T]) expire() {
	if f.state.CompareAndSwap(futureQueued, futureExpired) {
		f.p.futures.stale.Add(1)
		f.p.futures.expired.Add(1)
		f.fn = nil // the task never runs: nothing reads it again
		f.finish(f.ctx.Err())
		f.unwatch()
	}
}

// watchCtx makes the end of ctx expire the task at that moment (F2).
func (f *Future[T]) watchCtx() {
	stop := context.AfterFunc(f.ctx, f.expire)
	if !f.watch.CompareAndSwap(nil, &stop) {
		stop() // another Done set one first
		return
	}
	if f.state.Load() != futureQueued {
		stop()
	}
}

// unwatch removes Done's watch, if it set one (F2).
func (f *Future[T]) unwatch() {
	if stop := f.watch.Load(); stop != nil {
		(*stop)()
	}
}

// newFuture returns a Future for fn's result on p. Its task is f.call; a
// task that never runs fills it with finish.
func newFuture[T any](p *Pool, fn func() (T, error)) *Future[T] {
	return &Future[T]{p: p, done: make(chan struct{}), fn: fn}
}

// call runs fn and fills the Future with its outcome.
func (f *Future[T]) call() {
	fn := f.fn
	f.fn = nil // the Future may outlive the task by far: it does not keep fn's captures
	guarded(&f.p.e, func() (err error) {
		f.val, err = fn()
		return err
	}, f.finish)
}

// finish records the task's outcome and releases the waiters; it is
// called once.
func (f *Future[T]) finish(err error) {
	f.err = err
	close(f.done)
}

// Done returns a channel that is closed when the task has finished, or,
// for a task of SubmitResult, when its ctx ends before it starts. A
// Future not made by SubmitResult has no task: its channel is closed, and
// its Wait returns an error.
func (f *Future[T]) Done() <-chan struct{} {
	if f.done == nil {
		return closedChan
	}
	if f.ctx != nil && f.state.Load() == futureQueued && f.watch.Load() == nil {
		if f.ctx.Err() != nil {
			f.expire()
		} else {
			f.watchCtx()
		}
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
	if f.ctx != nil && f.ctx.Err() != nil {
		f.expire() // nothing if the task has started
	}
	select {
	case <-f.done:
		return f.val, f.err
	default:
	}
	f.p.e.HelpCaller(f.done, ctx.Done())
	var expiry <-chan struct{} // the end of the task's own ctx, while it waits
	if f.ctx != nil && f.state.Load() == futureQueued {
		expiry = f.ctx.Done()
	}
	for {
		select {
		case <-f.done:
			return f.val, f.err
		case <-ctx.Done():
			return zero, ctx.Err()
		case <-expiry:
			f.expire() // it finishes the Future, unless the task has started: then wait on
			expiry = nil
		}
	}
}

// guarded runs fn, a task of e, and passes its outcome to finish exactly
// once: fn's error, a *PanicError if it panicked, or ErrGoexit if it
// called runtime.Goexit. A panic then goes on, so that the pool counts it
// and its handler, if one is set, sees it; marked reported, so that the
// pool does not log what finish has reported to the task's caller.
func guarded(e *engine.Engine[unit], fn func() error, finish func(error)) {
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
		e.PanicReported()
		panic(r)
	}()
	err := fn()
	returned = true
	finish(err)
}
