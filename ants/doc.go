// Package ants is a drop-in for github.com/panjf2000/ants/v2 (v2.12.1) on
// poolkit's engine: a service moves to it by changing the import path and
// nothing else.
//
//	import "github.com/poolkit/poolkit/ants" // was "github.com/panjf2000/ants/v2"
//
// It has every name ants exports, with the same signature: Pool,
// PoolWithFunc, PoolWithFuncGeneric, MultiPool, MultiPoolWithFunc,
// MultiPoolWithFuncGeneric and their constructors, Options and every With
// option, the load-balancing strategies, the error values, the constants,
// and the default pool's functions (Submit, Running, Cap, Free, Release,
// ReleaseTimeout, ReleaseContext, Reboot). Each pool is a thin wrapper
// around a pool.Pool or pool.FuncPool, so it keeps that engine's speed and
// its contract (SPEC.md at the root of the repository). ants' own test
// suite, unchanged but for its import path, runs against this package in
// CI (ants/upstream): 54 of its 68 tests, examples and benchmarks pass; the
// other 14 assert behaviours listed below, each named with its reason in
// ants/upstream/known-failures.txt.
//
// # Admission
//
// It admits work exactly as ants does: there is no queue, and a task is
// accepted only when a worker starts it. A non-blocking pool
// (WithNonblocking) returns ErrPoolOverload as soon as every worker is
// busy. A blocking Submit waits, unaccepted, for a worker (up to
// MaxBlockingTasks submitters, when set; the next gets ErrPoolOverload),
// so the tasks a service holds in memory stay bounded by the capacity;
// Waiting counts the blocked submitters. When a task ends, its worker runs
// the oldest blocked submitter's task itself, with no goroutine switch
// (the engine's rule W5). Release wakes the blocked submitters with
// ErrPoolClosed, and their tasks never run. For a pool with a queue, which
// runs tiny tasks about four times as fast as ants, use pool.New.
//
// # Where it differs from ants
//
// Each difference is deliberate: ants' behaviour there loses work, breaks
// the capacity bound, or reports a number nobody set. The SPEC.md clause
// that poolkit keeps instead is in brackets.
//
//   - A size below 1 is an error matching ErrInvalidPoolSize, never an
//     unlimited pool: a zero from an unset configuration should not remove
//     the bound. DefaultAntsPoolSize (math.MaxInt32) is the practically
//     unbounded size, as ants' own default pool uses. [NEW-1]
//   - Submit(nil) returns ErrNilTask (ErrPoolClosed on a released pool, as
//     in ants); ants accepts it and its worker exits on it. [SUB-1]
//   - PoolWithFunc takes nil as an argument like any other and calls the
//     function with it; ants' worker takes a nil argument as its signal to
//     exit, so the call is silently dropped. [SUB-7, ONCE-1]
//   - Running counts running tasks, not live workers: idle workers are not
//     counted, so Running falls to zero when the tasks return, and Free
//     (Cap minus Running) says how many tasks could start now, never less
//     than zero. ants counts idle workers, so its Free is 0 while they wait
//     for work, and negative after a shrink. [CNT-1]
//   - A shrink by Tune never lets a task start while the new capacity or
//     more run, idle workers or not, and a worker between two tasks does not
//     start the next above it; ants reuses idle workers above a shrunk
//     capacity. A grow's wake-up is never lost. [CAP-2, CAP-7, CAP-8]
//   - Tune on a released pool is ignored, as Resize reports with
//     ErrPoolClosed; ants stores it. Tune works on a pool built WithPreAlloc,
//     where ants ignores it. [RSZ-5]
//   - ReleaseTimeout and ReleaseContext on a pool already released wait for
//     its tasks like the first call (release now, wait later) and return nil
//     once they have finished; ants returns ErrPoolClosed at once, without
//     waiting. [CLS-6, API-9]
//   - ReleaseContext and ReleaseTimeout called from inside a task of the
//     same pool release it and return pool.ErrInsideTask at once, where
//     ants waits until ctx is done (for ever with a context that never is:
//     the task waits for the pool, the pool for the task) or the whole
//     timeout. From a task of another pool they wait as ants does.
//     [API-30, API-32]
//   - A blocking Submit or Invoke called from inside a task of the same
//     pool, with every worker busy, does not wait for ever for a worker its
//     own task holds (ants does: ants#197): after 10 ms it runs the oldest
//     blocked submitter's task in its own task's slot, and, with none
//     blocked, its own task, then returns. [API-32]
//   - ReleaseContext(nil) releases the pool without waiting, as in ants, but
//     returns ErrNilContext instead of nil: every context parameter of
//     poolkit refuses nil.
//   - Reboot called from inside a task returns at once, and the pool reopens
//     when the task has returned; in ants it blocks for ever. A close racing
//     Reboot neither hangs nor times out. [CLS-8, CLS-9, CLS-10]
//   - A MultiPool's Tune(n) and Resize(n) set the capacity of the whole
//     multi-pool, spread evenly over its sub-pools, and Cap returns n. ants
//     gives each sub-pool n, so its Cap then reports n times the number of
//     sub-pools: a size nobody set, which would mislead an autoscaler. n below
//     the number of sub-pools is an error (each keeps at least one slot).
//     Each sub-pool bounds its own share, as in ants, not the total: after a
//     shrink, more than Cap() tasks may run until the excess of the
//     sub-pools that ran above their new share drains. A single Pool keeps
//     the bound exactly. [RSZ-1; DROP-6]
//   - A MultiPool's ReleaseTimeout returns an error matching ErrTimeout, and
//     its ReleaseContext one matching ctx.Err(); ants flattens the sub-pools'
//     errors into a string that errors.Is cannot match.
//   - A panicking task does not end its worker goroutine; ants ends it and
//     starts another. Either way the capacity is kept and the handler is
//     called once with the panic value. [PAN-1, PAN-2]
//   - WithPreAlloc starts Cap() workers when the pool is built (ants
//     allocates their queue) and leaves the pool resizable.
//   - A negative MaxBlockingTasks is an error matching ErrInvalidOption;
//     ants takes it to mean that every blocked submission is refused.
//   - The error values that mean what poolkit's errors mean are those
//     errors (ErrPoolClosed is pool.ErrPoolClosed, and so on), so errors.Is
//     and == match either name; their messages are poolkit's.
//   - Loading the package starts no goroutine: the default pool, like every
//     pool, starts workers only for tasks, and idle expiry needs no
//     goroutine of its own (ants starts two per pool, the default one at
//     import).
//
// # Beyond ants
//
// Every pool also has Resize(n) error, so it implements resize.Resizer and
// the autoscaler can drive it, and the single pools have Stats. ErrNilTask,
// ErrNilContext, ErrInvalidPoolSize and ErrInvalidOption name the inputs it
// refuses.
//
// # Side by side with package pool
//
// A service that wants poolkit's own API (a queue, SubmitContext,
// ReleaseNow, groups, futures, FuncPool without boxing) moves on to package
// pool:
//
//	ants (this package)               package pool
//	NewPool(n, opts...)               pool.New(n, opts..., pool.WithQueueSize(0))
//	NewPoolWithFuncGeneric(n, fn)     pool.NewFunc(n, fn)
//	p.Submit(f), p.Invoke(x)          same; also SubmitContext, InvokeContext
//	p.Tune(n)                         same; Resize(n) error reports what Tune ignores
//	p.Running(), Free, Cap, Waiting   same (with a queue, Waiting counts queued tasks too)
//	p.Release()                       same, but queued tasks run; ReleaseNow hands them back
//	p.ReleaseTimeout(d)               same
//	p.Reboot(), p.IsClosed()          same
//	With... options                   same names; also WithQueueSize, WithMinWorkers,
//	                                  WithSlog, WithUnboundedQueue
//	ErrPoolClosed, ErrPoolOverload    pool.ErrPoolClosed, pool.ErrPoolOverload (the same values)
package ants
