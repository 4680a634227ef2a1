// Package enginehook holds what package pool's engine does that pool does
// not offer its users but poolkit's own packages need: package ants keeps
// ants' contract on the engine, and a few of ants' behaviours are not
// poolkit's; package actorpool asks the engine whether a call comes from
// one of its turns. Package pool fills the variables in when it is loaded;
// they are typed with any where a pool type would be, so that this package
// imports nothing.
package enginehook

// Inside reports whether the calling goroutine is running a task (or the
// panic handler of one) of p, a *pool.Pool or a *pool.FuncPool: the
// engine's one way to know it (pool's reentry.go). It costs a short
// traceback, about 2 µs, so it is for calls that would otherwise wait.
var Inside func(p any) bool

// CallerLocal reports whether the calling goroutine runs a task of p, as
// Inside does, and returns its worker's local value (RunLocal).
var CallerLocal func(p any) (local any, inside bool)

// RunLocal returns a pool.Option under which the pool calls run with each
// task's value and its worker's local value, in place of the pool's own
// function: a task that chains other work on its worker (an actor's turn,
// then the turns left in its local slot) records there what it runs, for
// CallerLocal. The local value of a worker that runs another's task in its
// place (HelpWait, a blocked Submit from inside a task) is restored after.
var RunLocal func(run func(v any, local *any)) any

// HelpWait, called from inside a task of p, runs p's oldest waiting tasks
// in the caller's slot until done or stop is closed, waiting only while
// nothing is left to run, as Group.Wait does from inside a task; it
// reports whether done was closed, and whether the caller was inside a
// task of p at all (if not, it returns at once).
var HelpWait func(p any, done, stop <-chan struct{}) (finished, inside bool)

// LeaveOnPanic is the pool.Option under which a worker whose task panicked
// leaves the pool, before the panic handler runs, as ants' worker does:
// the pool then counts one worker less, and the next task starts a fresh
// one.
var LeaveOnPanic any
