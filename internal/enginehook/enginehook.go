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

// LeaveOnPanic is the pool.Option under which a worker whose task panicked
// leaves the pool, before the panic handler runs, as ants' worker does:
// the pool then counts one worker less, and the next task starts a fresh
// one.
var LeaveOnPanic any
