package actors

import (
	"context"
	"time"
)

// Ref names one actor of a System. Its dynamic type is the library's own
// handle (actorpool.Ref, a protoactor or GoAkt *PID): the adapters pass it
// through unchanged, so a workload pays no wrapping per message.
type Ref any

// Ctx is what a handler may do with the message it handles: the subset
// every library offers, each in its own natural way.
type Ctx interface {
	// Self is the handling actor.
	Self() Ref
	// Tell sends msg to another actor from inside this one, the way the
	// library sends between actors (never blocking).
	Tell(to Ref, msg any)
	// Respond answers the message being handled when it came by Ask.
	Respond(v any)
}

// Handler handles one message. The adapters never pass their own
// lifecycle messages (started, stopping) to it.
type Handler func(c Ctx, msg any)

// Job is what every router worker does with each message: the worker is
// created by the library (GoAkt makes its routees from a type), so the
// work travels with the message.
type Job interface{ Do() }

// System is one actor runtime under test.
type System interface {
	// Spawn starts an actor that runs h for each message. h is called by
	// one goroutine at a time, so its captured state needs no lock.
	Spawn(h Handler) (Ref, error)
	// Tell sends msg from outside any actor.
	Tell(to Ref, msg any) error
	// Ask sends msg from outside any actor and waits for the answer.
	Ask(ctx context.Context, to Ref, msg any) (any, error)
	// NewRouter starts a round-robin pool of size workers, each running
	// the Job it is sent.
	NewRouter(size int) (Ref, error)
	// Route sends a Job to a router from outside any actor, wrapped as the
	// library requires.
	Route(router Ref, job Job) error
	// Close stops every actor and the system.
	Close() error
}

// Contender is a library under test.
type Contender struct {
	Name string
	New  func() (System, error)
}

// AskTimeout bounds every Ask: the libraries that require a timeout get
// this one, far beyond any healthy round trip.
const AskTimeout = 10 * time.Second
