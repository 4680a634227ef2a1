// Package enginehook holds the engine's behaviours that package pool does
// not offer its users but poolkit's own packages need: package ants keeps
// ants' contract on pool's engine, and a few of ants' behaviours are not
// poolkit's. Package pool fills the variables in when it is loaded; each
// is a pool.Option, kept as any so that this package imports nothing.
package enginehook

// LeaveOnPanic is the pool.Option under which a worker whose task panicked
// leaves the pool, before the panic handler runs, as ants' worker does:
// the pool then counts one worker less, and the next task starts a fresh
// one.
var LeaveOnPanic any
