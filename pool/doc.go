// Package pool runs tasks on a bounded set of worker goroutines whose
// capacity can change at run time under a written contract (SPEC.md). It
// imports only the standard library. Package
// github.com/poolkit/poolkit/ants is the drop-in for ants' API, on the same
// engine; this package speaks the vocabulary of context, net/http.Server and
// x/sync/errgroup instead.
//
// Pool runs func() tasks; FuncPool[T] runs one fixed function on argument
// values and allocates nothing per call. Group waits for a batch and
// returns its first error; SubmitResult returns a Future for a task with a
// typed result.
//
// # Terms
//
// A task is accepted when Submit (or Invoke) returns nil; from then on the
// pool owns it. It starts when a worker takes it, under the capacity
// bound, and it completes when it returns, panics or calls
// runtime.Goexit. Between acceptance and start it waits in the queue,
// which holds WithQueueSize tasks (1024 by default). A submitter waiting
// for room on a saturated pool has not been accepted yet.
//
// # Capacity
//
// A task starts only while fewer than Cap() tasks are running. Resize
// changes Cap at once and never waits: a grow starts waiting tasks
// immediately, and a shrink lets the running tasks above the new capacity
// finish, never interrupting them, while no new task starts until the
// running count is below the new capacity. Idle workers never let a task
// start above capacity. WaitRoom tells a feeder when a task would start at
// once, and how many would.
//
// # Lifecycle
//
// Close stops intake; accepted tasks still run. Shutdown also waits, as
// its context allows, until every accepted task has finished and every
// worker goroutine has exited. ShutdownNow stops intake and hands the
// tasks that have not started back to the caller instead of running them.
// Every accepted task therefore runs exactly once, or is handed back by
// ShutdownNow; none is silently dropped. A closed pool stays closed.
//
// # Keyed tasks
//
// A Keyed runs tasks by key on a pool: the tasks of one key run one at a
// time, in submission order, and different keys run in parallel, in
// turns of at most a budget of tasks each, so that no key waits behind
// another key's backlog or slow task. A key that has run its tasks costs
// nothing. See Keyed.
//
// # Calls from inside a task
//
// A task may call back into its own pool. A Submit that finds no room, a
// Group.Wait or a Future.Wait whose tasks are queued behind it run the
// oldest waiting tasks in the caller's own slot instead of waiting for a
// slot that only the caller holds; Shutdown returns ErrInsideTask at once,
// since it cannot wait for the task it runs in. SPEC.md (API-32) has the
// table of every call that can wait, by where it is called from.
//
// # Memory model
//
// A successful Submit (or Invoke) synchronizes before the start of its
// task. The return of a task synchronizes before the return of a Shutdown
// that returns nil, and before the return of Future.Wait and Group.Wait
// that observe it. A successful Resize synchronizes before the start of
// any task that its new capacity lets start.
package pool
