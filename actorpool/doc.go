// Package actorpool runs actors on poolkit's engine: many actors on a
// fixed, resizable set of worker goroutines (M:N), a pool-router with
// Ergo's act.Pool semantics, and a serializer that makes a group of actors
// behave as one.
//
// # Actors and the dispatcher
//
// An actor is a Behavior and a mailbox, and owns no goroutine. A Tell adds
// the message and, if the actor was idle, hands the actor to the engine
// (pool.FuncPool with an unbounded queue, since an actor is queued at most
// once at a time); a worker then runs the actor's turn, which handles up
// to the budget of user messages (WithBudget, default 32), taking system
// messages (start, stop, restart) before any user message at every
// dequeue. With messages left at the end of the budget, the actor goes to
// the back of the engine's queue, so a hot actor cannot starve a cold one;
// with none, it goes idle at once (no extra turn). The running -> idle
// transition is the race that actor runtimes get wrong: the rule that
// closes it is written in actor.go (A3) and is exercised under the
// poolkit_hooks build tag with seeded yields at every step.
//
// The number of workers is the engine's capacity: max(GOMAXPROCS, 2) by
// default, read, never set. System.Resize changes it under the resize
// contract, so an autoscaler drives a System as it drives a pool.
// NumGoroutine stays at the workers plus a constant whatever the number of
// actors; an idle actor costs about 0.55 KB.
//
// Every accepted message is handled, or, when its actor stops first,
// reported as a dead letter (counted, passed to WithDeadLetters, and an
// Ask waiting on it answered with ErrStopped). Refused messages (a full
// bounded mailbox, a stopped actor, a nil message) return an error to the
// sender and are counted. A handler's panic goes to the actor's
// Supervisor: restart with a fresh behaviour (after a doubling backoff,
// within a restart budget, so a crash loop stops), resume, or stop.
//
// What is not here: the dispatcher has one shared ready queue (the
// engine's) and no per-worker rings, so it does no work stealing and has
// no local slot for sends made inside a turn. The engine's queue is a
// lock-free ring with a spinning worker, which is what the per-worker
// structures of GoAkt and Tokio buy on many cores. On the 2-core machines
// this was measured on it already handles ping-pong at 13-15M msg/s (100 in
// flight per pair), above protoactor-go and 8x GoAkt (the README's actor
// section has the table, go run ./cmd/poolkit actors measures it again);
// whether per-worker rings pay is to be measured on more cores.
//
// # Order
//
// Messages from one sender to one actor are handled in the order sent. A
// router gives that order per worker only; a serializer gives it per
// group.
package actorpool
