package actorpool

import (
	"errors"

	"github.com/poolkit/poolkit/internal/callback"
	"github.com/poolkit/poolkit/internal/engine"
	"github.com/poolkit/poolkit/resize"
)

// The errors returned by this package. Match them with errors.Is.
var (
	// ErrMailboxFull: a bounded mailbox had no room; the message was not
	// accepted (and is counted in Stats.MailboxFull).
	ErrMailboxFull = errors.New("actorpool: mailbox full")
	// ErrStopped: the actor has stopped (or is stopping) and accepts no
	// more messages; also the answer to an Ask whose message the actor
	// never handled because it stopped first.
	ErrStopped = errors.New("actorpool: actor stopped")
	// ErrClosed: the system is shut down (or shutting down) and spawns
	// nothing, or a router has stopped and resizes no more. It is
	// pool.ErrClosed, the same value, and matches resize.ErrClosed: one
	// errors.Is finds a closed pool or a closed system.
	ErrClosed = engine.ErrClosed
	// ErrNilMessage: nil is not a message.
	ErrNilMessage = errors.New("actorpool: nil message")
	// ErrNilRef: the zero Ref refers to no actor.
	ErrNilRef = errors.New("actorpool: zero Ref")
	// ErrNilSystem: a nil *System was given (NewRouter, NewSerializer), or
	// a method was called on one.
	ErrNilSystem = errors.New("actorpool: nil system")
	// ErrNilContext: a nil context was given to a call that waits. It is
	// pool.ErrNilContext, the same value.
	ErrNilContext = engine.ErrNilContext
	// ErrNilBehavior: Spawn or NewRouter was given a nil producer. A
	// producer that returns nil fails the actor's start (reported with
	// this error as its cause).
	ErrNilBehavior = errors.New("actorpool: nil behavior")
	// ErrInvalidOption: an option was nil or given an invalid value. It is
	// pool.ErrInvalidOption, the same value.
	ErrInvalidOption = engine.ErrInvalidOption
	// ErrInvalidSize: a size below 1; it is resize.ErrInvalidSize.
	ErrInvalidSize = resize.ErrInvalidSize
	// ErrGoexit: the answer to an Ask whose handler called runtime.Goexit
	// before it responded. It is pool.ErrGoexit, the same value.
	ErrGoexit = callback.ErrGoexit
	// ErrNoWorker: every worker of a router refused the message (mailboxes
	// full, or no worker left); it was not accepted, and is counted in
	// RouterStats.Unhandled.
	ErrNoWorker = errors.New("actorpool: no router worker accepted the message")
	// ErrBusy: a serializer with a bounded buffer had no room for the
	// request.
	ErrBusy = errors.New("actorpool: serializer buffer full")
	// ErrInsideTask: a call made from inside a turn of a system would wait
	// for that same turn: Shutdown, which started its work and returned
	// without waiting, or an Ask to the actor whose turn it is. A handler,
	// producer, lifecycle hook or dead-letter function is a task of the
	// system, as a task is of a pool, and this is pool.ErrInsideTask, the
	// same value. From a turn of another system both wait, as from
	// outside.
	ErrInsideTask = engine.ErrInsideTask
)

// PanicError is the answer to an Ask whose handler panicked before it
// responded: Value is the value passed to panic, Stack the handler's
// goroutine's stack at the panic. It is pool.PanicError, the same type,
// so one errors.As matches a panic in a task or in a handler.
type PanicError = callback.PanicError
