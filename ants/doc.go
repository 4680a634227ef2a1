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
// around poolkit's engine, the one package pool runs on.
//
// The rule: it does what ants does wherever ants' documentation, its
// examples or its own tests define the behaviour, and differs only where
// ants breaks its own contract (a task started above the capacity after a
// shrink, a lost wake-up, a call that waits for ever on itself, a task
// silently dropped); each such difference is listed below with its
// evidence. Package pool keeps poolkit's contract (SPEC.md at the root of
// the repository); this package keeps ants'. ants' own test suite,
// unchanged but for its import path, runs against it in CI
// (ants/upstream); the tests that fail, and why, are listed in
// ants/upstream/known-failures.txt.
//
// # What ants defines, kept
//
//   - Sizes: a size below 1 makes an unlimited pool, for every pool type
//     and for a multi-pool's sub-pools, and so does a size above
//     math.MaxInt32 (ants truncates sizes to 32 bits, so math.MaxInt is -1
//     to it); Cap and Free are -1 (a multi-pool sums its sub-pools'), and
//     no submission waits. WithPreAlloc needs a size
//     (ErrInvalidPreAllocSize).
//   - Gauges: Running counts live workers, idle ones included, until they
//     expire; Free is Cap minus Running (negative after a shrink below the
//     live workers); Waiting counts the submitters blocked in Submit.
//   - Tune is ignored on an unlimited pool, on one built WithPreAlloc and
//     for a size below 1; on a released pool it sets the capacity the pool
//     reopens with. A multi-pool's Tune(n) tunes each sub-pool to n, so its
//     Cap, the sum, is n times the number of sub-pools.
//   - Releases: ReleaseTimeout and ReleaseContext release the pool and wait
//     for its tasks; on a pool already released they return ErrPoolClosed
//     at once; ReleaseContext(nil) releases and returns nil.
//   - A negative MaxBlockingTasks lets no submitter wait, as ants' check
//     does.
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
// runs tiny tasks several times as fast as ants, use pool.New.
//
// # Where it differs from ants
//
// Each difference is where ants breaks its own contract. The SPEC.md
// clause that poolkit keeps instead is in brackets; MATRIX.md shows ants
// failing it.
//
//   - Submit(nil) returns ErrNilTask (ErrPoolClosed on a released pool, as
//     in ants); ants accepts it, and its worker then panics calling it, or,
//     in a PoolWithFunc, exits. [SUB-1]
//   - PoolWithFunc takes nil as an argument like any other and calls the
//     function with it; ants' worker takes a nil argument as its signal to
//     exit, so the call is silently dropped. [SUB-7, ONCE-1]
//   - A shrink by Tune never lets a task start while the new capacity or
//     more run, idle workers or not, and a worker between two tasks does not
//     start the next above it; ants reuses idle workers above a shrunk
//     capacity. A grow's wake-up is never lost (ants' Broadcast can miss a
//     submitter on its way to wait). [CAP-2, CAP-7, CAP-8]
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
//   - Reboot called from inside a task returns at once, and the pool reopens
//     when the task has returned; in ants it blocks for ever. A close racing
//     Reboot neither hangs nor times out. [CLS-8, CLS-9, CLS-10]
//   - A MultiPool's ReleaseTimeout returns an error matching ErrTimeout, and
//     its ReleaseContext one matching ctx.Err(); ants flattens the sub-pools'
//     errors into a string that errors.Is cannot match. [CLS-5]
//
// Beneath the contract, not observable through ants' API: a panicking task
// does not end its worker goroutine (ants ends it and starts another; the
// handler is called once with the panic value either way); loading the
// package starts no goroutine (ants starts two per pool, the default one at
// import); and the error values that mean what poolkit's errors mean are
// those errors (ErrPoolClosed is pool.ErrClosed, and so on), so
// errors.Is and == match either name, but their messages are poolkit's.
//
// # Beyond ants
//
// Every pool also has Resize(n) error, so it implements resize.Resizer and
// the autoscaler can drive it: it reports what Tune ignores, resizes a
// pre-allocated pool, gives an unlimited one a capacity, and on a
// multi-pool sets the total, spread over the sub-pools (each keeps at least
// one slot). The single pools have Stats. ErrNilTask and
// ErrInvalidPoolSize name the inputs it refuses.
//
// # Side by side with package pool
//
// A service that wants poolkit's own API (a queue, contexts, an
// abandoning close, groups, futures, FuncPool without boxing) moves on to
// package pool, whose vocabulary is context's and net/http.Server's:
//
//	ants (this package)               package pool
//	NewPool(n, opts...)               pool.New(n, pool.WithQueueSize(0), ...)
//	NewPoolWithFuncGeneric(n, fn)     pool.NewFunc(n, fn)
//	p.Submit(f), p.Invoke(x)          p.Submit(ctx, f), p.Invoke(ctx, x)
//	p.Tune(n)                         p.Resize(n) error
//	p.Running(), Free(), Waiting()    p.Stats(): Running counts tasks, not live workers
//	p.Cap()                           same
//	p.Release()                       p.Close(), but queued tasks run; ShutdownNow hands them back
//	p.ReleaseTimeout(d)               p.Shutdown(ctx), which also waits after a Close
//	p.Reboot(), p.IsClosed()          none (a closed pool stays closed), p.Stats().Closed
//	WithNonblocking, MaxBlockingTasks pool.WithMaxWaiting(n) (0: never wait)
//	WithExpiryDuration, DisablePurge  pool.WithIdleTimeout(d) (0: never expire)
//	WithPreAlloc                      pool.WithMinWorkers(n)
//	WithLogger(Printf logger)         pool.WithLogger(*slog.Logger)
//	ErrPoolClosed, ErrPoolOverload    pool.ErrClosed, pool.ErrOverload (the same values)
package ants
