package actorpool

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/poolkit/poolkit/internal/callback"
	"github.com/poolkit/poolkit/internal/engine"
)

// System runs actors on a fixed, resizable set of worker goroutines: the
// poolkit engine, whose capacity is the number of actors that run at once.
// An actor owns no goroutine; when it has messages it is a unit in the
// engine's queue, and a worker runs its turn. Create one with New; the
// zero value is not usable. All methods are safe for concurrent use.
type System struct {
	eng    *engine.Engine[*actor]
	budget int
	dead   func(DeadLetter)
	logf   func(msg string, args ...any)
	stall  askStall // Asks waiting, poked after stallCheck (stall.go)

	mu struct {
		sync.Mutex
		live     map[*actor]struct{}
		shutting bool
		allGone  chan struct{} // closed when shutting and no actor is live
	}

	spawned, stopCount, deadLetters, mailboxFull, refused, panics, restarts atomic.Uint64
}

// DeadLetter is a message that was accepted but never handled: its actor
// stopped first. Reason says why (ErrStopped).
type DeadLetter struct {
	To      Ref
	Sender  Ref // the zero Ref when sent from outside any actor
	Message any
	Reason  error
}

// New returns a running system.
func New(opts ...Option) (*System, error) {
	c := sysConfig{workers: max(runtime.GOMAXPROCS(0), 2), budget: DefaultBudget}
	for i, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("%w: option %d is nil", ErrInvalidOption, i)
		}
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	s := &System{budget: c.budget, dead: c.dead}
	l := c.logger
	if l == nil {
		l = slog.Default()
	}
	s.logf = l.Error
	s.mu.live = make(map[*actor]struct{})
	// Each actor is in the engine's queue at most once (A1), so the queue
	// needs room for every live actor: it overflows instead of blocking.
	s.eng = new(engine.Engine[*actor])
	s.eng.Init(c.workers, runTurns, engine.Config{
		QueueSize: 4096, Unbounded: true, Expiry: time.Second, Logf: s.logf,
		PanicHandler: func(r any) { s.failed(inTurn, r) },
		RunLocal:     func(v any, local *any) { runTurnsIn(v.(*actor), local) },
	})
	s.stall.init(s.stall.tick)
	return s, nil
}

// Spawn starts an actor whose behaviour produce returns, and returns its
// reference. produce is called in the actor's first turn, and again for
// each restart. Spawn does not wait for PreStart: messages told to the
// new actor are handled after it. It returns ErrNilBehavior for a nil
// produce, ErrClosed once Shutdown has begun, or an error matching
// ErrInvalidOption. A produce that returns nil, panics or calls
// runtime.Goexit fails the start, as a PreStart that does: the failure is
// counted in Stats.Panics and reported, naming the callback, and the actor
// stops (its messages are dead letters; an Ask gets ErrStopped).
func (s *System) Spawn(produce func() Behavior, opts ...SpawnOption) (Ref, error) {
	if s == nil {
		return Ref{}, ErrNilSystem
	}
	a, err := s.newActor(produce, opts)
	if err != nil {
		return Ref{}, err
	}
	if err := s.start(a); err != nil {
		return Ref{}, err
	}
	return Ref{a}, nil
}

func (s *System) newActor(produce func() Behavior, opts []SpawnOption) (*actor, error) {
	if produce == nil {
		return nil, ErrNilBehavior
	}
	a := &actor{sys: s, produce: produce, sup: DefaultSupervisor}
	a.ctx.a = a
	for i, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("%w: spawn option %d is nil", ErrInvalidOption, i)
		}
		if err := o(a); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// shuttingDown reports whether Shutdown has begun.
func (s *System) shuttingDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mu.shutting
}

// start registers a and hands it its first message, sysStart.
func (s *System) start(a *actor) error {
	s.mu.Lock()
	if s.mu.shutting {
		s.mu.Unlock()
		return ErrClosed
	}
	s.mu.live[a] = struct{}{}
	s.mu.Unlock()
	s.spawned.Add(1)
	_ = a.mb.putSys(sysStart) // a new mailbox is open
	a.wake()
	return nil
}

// schedule hands an actor that won the idle -> scheduled transition to
// the engine. The engine's queue overflows rather than refuse, and it is
// closed only once no actor is live (Shutdown), while a dead actor is never
// scheduled: so Invoke cannot fail here.
func (s *System) schedule(a *actor) {
	if err := s.eng.Submit(context.Background(), a); err != nil {
		callback.Isolated(func() { s.logf("actorpool: an actor could not be scheduled", "err", err) })
	}
}

// stopped takes a stopped actor out of the books.
func (s *System) stopped(a *actor) {
	s.stopCount.Add(1)
	s.mu.Lock()
	delete(s.mu.live, a)
	if s.mu.shutting && len(s.mu.live) == 0 && s.mu.allGone != nil {
		close(s.mu.allGone)
		s.mu.allGone = nil
	}
	s.mu.Unlock()
}

func (s *System) deadLetter(a *actor, e envelope, reason error) {
	s.deadLetters.Add(1)
	if e.reply != nil {
		e.reply.answer(nil, reason)
	}
	if s.dead != nil {
		if r := callDead(s.dead, DeadLetter{To: Ref{a}, Sender: Ref{e.sender}, Message: e.msg, Reason: reason}); r != nil {
			s.failed(inDeadLetters, r)
		}
	}
}

// callDead calls the dead-letter function f with d, and returns what f
// panicked with, if it did. A runtime.Goexit in f unwinds the caller,
// which completes its stop as it does (actor.dispose).
func callDead(f func(DeadLetter), d DeadLetter) (r any) {
	defer func() { r = recover() }()
	f(d)
	return nil
}

// callbackName names a user callback in a failure report.
type callbackName string

const (
	inProducer    callbackName = "producer"
	inPreStart    callbackName = "PreStart"
	inReceive     callbackName = "Receive"
	inPostStop    callbackName = "PostStop"
	inDeadLetters callbackName = "dead-letter function"
	inTurn        callbackName = "turn" // a panic that escaped a turn: a bug of this package
)

// failed counts and reports a user callback that panicked with r, called
// runtime.Goexit (r is ErrGoexit), or, a producer, returned nil (r is
// ErrNilBehavior). The logger is user code too, and failed is called
// while a turn restores its books: it runs isolated, so that its own
// panic or Goexit is lost rather than cutting that short.
func (s *System) failed(where callbackName, r any) {
	buf := make([]byte, 4<<10)
	s.failedWith(where, r, buf[:runtime.Stack(buf, false)])
}

// failedWith is failed with the stack already read, by a caller that
// hands the same stack to an Ask.
func (s *System) failedWith(where callbackName, r any, stack []byte) {
	s.panics.Add(1)
	callback.Isolated(func() {
		s.logf("actorpool: "+string(where)+" failed", "callback", string(where), "panic", r, "stack", string(stack))
	})
}

// Resize sets how many actors run at once, under the resize contract (a
// running turn is never interrupted; a shrink takes effect as turns end).
// It implements resize.Resizer.
func (s *System) Resize(n int) error {
	if s == nil {
		return ErrNilSystem
	}
	return s.eng.Resize(n)
}

// Cap returns how many actors may run at once.
func (s *System) Cap() int {
	if s == nil {
		return 0
	}
	return s.eng.Cap()
}

// Shutdown stops every actor and then the workers. Each actor handles at
// most the message it is handling, then stops (PostStop runs); the
// messages still queued become dead letters, so every accepted message is
// either handled or reported. Spawn fails with ErrClosed from the start.
// Shutdown waits until every actor has stopped and every worker has
// exited, or until ctx is done (it then returns ctx.Err(), and the
// shutdown goes on). Called from inside a turn of this system (a handler,
// a lifecycle hook, a dead-letter function) it cannot wait for that turn:
// it starts the shutdown and returns ErrInsideTask; from a turn of another
// system it waits as from outside. It returns
// nil once the system is down, also when called again.
func (s *System) Shutdown(ctx context.Context) error {
	if s == nil {
		return ErrNilSystem
	}
	if ctx == nil {
		return ErrNilContext
	}
	s.mu.Lock()
	if !s.mu.shutting {
		s.mu.shutting = true
		s.mu.allGone = make(chan struct{})
		for a := range s.mu.live {
			if a.mb.putSys(sysStop) == nil {
				a.wake()
			}
		}
		if len(s.mu.live) == 0 {
			close(s.mu.allGone)
			s.mu.allGone = nil
		}
	}
	gone := s.mu.allGone
	s.mu.Unlock()
	if s.eng.Inside() {
		return ErrInsideTask // a turn of this system: it would wait for itself
	}
	if gone != nil {
		select {
		case <-gone:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if err := s.eng.Await(s.eng.Close(), ctx.Done()); err != nil {
		if err == engine.ErrStopped {
			return ctx.Err()
		}
		return err
	}
	s.stall.timer.Stop() // no actor is left to answer an Ask
	return nil
}

// Stats is a snapshot of a system's counters.
type Stats struct {
	Workers     int    // Cap: actors that may run at once
	Actors      int    // live actors
	Queued      int    // user messages in the live actors' mailboxes, not yet handled
	Spawned     uint64 // actors ever spawned
	Stopped     uint64 // actors that have stopped
	DeadLetters uint64 // accepted messages never handled (their actor stopped)
	MailboxFull uint64 // messages refused by a full mailbox
	Refused     uint64 // messages refused otherwise (stopped actor, nil message or Ref)
	Panics      uint64 // failed callbacks: a producer, PreStart, Receive, PostStop or dead-letter function that panicked or called runtime.Goexit, or a producer that returned nil
	Restarts    uint64 // restarts by supervision
}

// Stats returns the system's counters. Each is read atomically; together
// they are not one snapshot.
func (s *System) Stats() Stats {
	if s == nil {
		return Stats{}
	}
	s.mu.Lock()
	actors := make([]*actor, 0, len(s.mu.live))
	for a := range s.mu.live {
		actors = append(actors, a)
	}
	s.mu.Unlock()
	queued := 0
	for _, a := range actors { // each mailbox under its own lock, never under s.mu
		queued += a.mb.depth()
	}
	return Stats{
		Workers:     s.Cap(),
		Actors:      len(actors),
		Queued:      queued,
		Spawned:     s.spawned.Load(),
		Stopped:     s.stopCount.Load(),
		DeadLetters: s.deadLetters.Load(),
		MailboxFull: s.mailboxFull.Load(),
		Refused:     s.refused.Load(),
		Panics:      s.panics.Load(),
		Restarts:    s.restarts.Load(),
	}
}
