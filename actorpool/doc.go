// Package actorpool runs actors on poolkit's engine: many actors on a
// fixed, resizable set of worker goroutines (M:N), a pool-router with
// Ergo's act.Pool semantics, and a serializer that makes a group of actors
// behave as one.
//
// # Actors and the dispatcher
//
// An actor is a Behavior and a mailbox, and owns no goroutine. A Tell adds
// the message and, if the actor was idle, hands the actor to the engine
// (poolkit's engine, the one package pool runs on, with an unbounded
// queue, since an actor is queued at most once at a time); a worker then
// runs the actor's turn, which handles up
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
// # What the scheduler kept, and what it bought
//
// A send made by a handler to an idle actor, when every worker is busy,
// puts that actor in the sending turn's local slot (like the runnext slot
// of Go's scheduler): the same worker runs it right after the current
// turn, without going through the engine's queue. With a worker free it
// goes through the queue, so that it never waits in a slot beside a free
// worker (TestSlotNeverBesideFreeWorker). At most 16 turns run in a row
// through slots; the next woken actor goes through the queue, so a pair
// of actors that keep waking each other cannot keep a worker from the
// rest (TestLocalSlotDoesNotStarve). Measured on 2 cores against the same
// code without it: ping-pong with one message in flight per pair 3.2M ->
// 10.6M msg/s, with 100 in flight 15.7M -> 25.6M; fan-in, routers, Ask and
// the serializer unchanged. (Filling the slot even beside a free worker
// would add 10-15% to ping-pong, at the price of a woken actor waiting for
// a slow handler while a worker idles.)
//
// Not built: per-worker rings, work stealing and a periodic look at the
// global queue. With one shared queue (a lock-free ring with a spinning
// worker) every worker already sees all the work, which is what stealing
// buys; whether per-worker rings pay is to be measured on more than the 2
// cores this was built on.
//
// # Order
//
// Messages from one sender to one actor are handled in the order sent. A
// router gives that order per worker only; a serializer gives it per
// group.
//
// # Names shared with pool
//
// Where an actor system and a pool share a concept they share its name
// and its value, so that code driving both matches them once: ErrClosed,
// ErrInsideTask and ErrGoexit are pool's errors, PanicError and Histogram
// pool's types, and WithTimings, Stats().Wait and Stats().Service and
// DefaultBudget mean what they mean for a pool (docs/vocabulary.md in the
// repository).
package actorpool
