// Package pool runs tasks on a bounded set of worker goroutines whose
// capacity can change at run time under a written contract. It keeps the
// Submit/Tune surface of ants (github.com/panjf2000/ants) and adds a queue;
// package github.com/poolkit/poolkit/ants is the drop-in for the whole of
// ants' API, built on this package. It imports only the standard library.
//
// Pool runs func() tasks; FuncPool[T] runs one fixed function on argument
// values and allocates nothing per call. Group waits for a batch and
// returns its first error; SubmitResult returns a Future for a task with a
// typed result.
//
// # Terms
//
// A task is accepted when Submit (or Invoke, or SubmitContext) returns nil;
// from then on the pool owns it. It starts when a worker takes it, under
// the capacity bound, and it completes when it returns, panics or calls
// runtime.Goexit. Between acceptance and start it waits in the queue,
// which holds WithQueueSize tasks (DefaultQueueSize by default). A
// submitter blocked on a saturated pool has not been accepted yet.
//
// # Capacity
//
// A task starts only while fewer than Cap() tasks are running. Resize
// changes Cap at once and never waits: a grow starts waiting tasks
// immediately, and a shrink lets the running tasks above the new capacity
// finish, never interrupting them, while no new task starts until the
// running count is below the new capacity. Idle workers never let a task
// start above capacity.
//
// # Lifecycle
//
// Release stops intake; accepted tasks still run. ReleaseTimeout and
// ReleaseContext also wait until every accepted task has finished and
// every worker goroutine has exited. ReleaseNow stops intake and hands the
// tasks that have not started back to the caller instead of running them.
// Every accepted task therefore runs exactly once, or is handed back by
// ReleaseNow; none is silently dropped. Reboot reopens a released pool.
//
// # Memory model
//
// A successful Submit (or Invoke) synchronizes before the start of its
// task. The return of a task synchronizes before the return of a
// ReleaseTimeout or ReleaseContext that returns nil, and before the return
// of Future.Wait and Group.Wait that observe it. A successful Resize
// synchronizes before the start of any task that its new capacity lets
// start.
package pool
