//go:build go1.25

package actorpool_test

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/internal/misbehave"
)

// The edge table of SPEC.md's actor part (ACT-14): every call that can
// wait, made from every place user code runs, against a system in every
// state. A cell's outcome is what the call returned: ok, a named error, or
// "ctx" when it waited until its own context ended. No cell may hang past
// its context or panic.

// edgeWait is the context a call of the table gets: a cell that waits
// until it ends shows as "ctx". A cell that works takes microseconds; the
// margin is for a loaded machine under -race.
const edgeWait = 200 * time.Millisecond

// edgeSys is the system under test, with what its calls act on: one
// worker, so that a handler of it holds the whole capacity.
type edgeSys struct {
	s      *actorpool.System
	echo   actorpool.Ref // answers every Ask with its message
	victim actorpool.Ref // stopped by the Stop call
	router *actorpool.Router
	ser    *actorpool.Serializer
	// in runs a function from inside the dead-letter function or the
	// logger: set, then a dead letter or a failure is caused.
	inDead, inLog atomic.Pointer[func()]
}

func newEdgeSys(t *testing.T) *edgeSys {
	t.Helper()
	e := &edgeSys{}
	run := func(p *atomic.Pointer[func()]) {
		if f := p.Swap(nil); f != nil {
			(*f)()
		}
	}
	s, err := actorpool.New(actorpool.WithWorkers(1),
		actorpool.WithDeadLetters(func(actorpool.DeadLetter) { run(&e.inDead) }),
		actorpool.WithLogger(slog.New(misbehave.Handler(func() { run(&e.inLog) }))))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), failBound)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown at cleanup = %v", err)
		}
	})
	e.s = s
	e.echo = spawn(t, s, func(c *actorpool.Context, msg any) { _ = c.Respond(msg) })
	e.victim = spawn(t, s, func(*actorpool.Context, any) {})
	if e.router, err = actorpool.NewRouter(s, 2, func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) { _ = c.Respond(msg) })
	}); err != nil {
		t.Fatal(err)
	}
	if e.ser, err = actorpool.NewSerializer(s, e.echo); err != nil {
		t.Fatal(err)
	}
	return e
}

// edgeCalls are the calls of the table.
var edgeCalls = []struct {
	name string
	call func(ctx context.Context, e *edgeSys) error
}{
	{"Ask", func(ctx context.Context, e *edgeSys) error { _, err := e.echo.Ask(ctx, 1); return err }},
	{"Tell", func(_ context.Context, e *edgeSys) error { return e.echo.Tell(1) }},
	{"Stop", func(_ context.Context, e *edgeSys) error { return e.victim.Stop() }},
	{"Spawn", func(_ context.Context, e *edgeSys) error {
		_, err := e.s.Spawn(func() actorpool.Behavior { return actorpool.BehaviorFunc(func(*actorpool.Context, any) {}) })
		return err
	}},
	{"Resize", func(_ context.Context, e *edgeSys) error { return e.s.Resize(2) }},
	{"router Ask", func(ctx context.Context, e *edgeSys) error { _, err := e.router.Ref().Ask(ctx, 1); return err }},
	{"router Resize", func(_ context.Context, e *edgeSys) error { return e.router.Resize(3) }},
	{"serializer Ask", func(ctx context.Context, e *edgeSys) error { _, err := e.ser.Ref().Ask(ctx, 1); return err }},
	{"Shutdown", func(ctx context.Context, e *edgeSys) error { return e.s.Shutdown(ctx) }},
}

// edgeState is a state the system under test is put in before the call.
type edgeState string

const (
	stateOpen      edgeState = "open"
	stateSaturated edgeState = "saturated" // its one worker is held by another handler
	stateClosing   edgeState = "closing"   // Shutdown has begun and waits for a handler
	stateClosed    edgeState = "closed"
)

// edgePlaces run f from a place user code runs, with the system in a
// state; they report false when the place cannot exist in that state (no
// handler of a closed system runs).
var edgePlaces = []struct {
	name string
	run  func(t *testing.T, e *edgeSys, st edgeState, f func()) bool
}{
	{"outside", func(t *testing.T, e *edgeSys, st edgeState, f func()) bool {
		release := e.enter(t, st)
		defer release()
		f()
		return true
	}},
	{"handler", func(t *testing.T, e *edgeSys, st edgeState, f func()) bool {
		return e.fromTurn(t, st, func(body func()) actorpool.Behavior {
			return actorpool.BehaviorFunc(func(*actorpool.Context, any) { body() })
		}, f)
	}},
	{"PreStart", func(t *testing.T, e *edgeSys, st edgeState, f func()) bool {
		return e.fromTurn(t, st, func(body func()) actorpool.Behavior {
			return &lifecycle{onStart: func() error { body(); return nil }}
		}, f)
	}},
	{"PostStop", func(t *testing.T, e *edgeSys, st edgeState, f func()) bool {
		return e.fromTurn(t, st, func(body func()) actorpool.Behavior {
			return &lifecycle{onStop: body, recv: func(c *actorpool.Context, _ any) { _ = c.Self().Stop() }}
		}, f)
	}},
	{"dead-letter function", func(t *testing.T, e *edgeSys, st edgeState, f func()) bool {
		return e.fromTurn(t, st, func(body func()) actorpool.Behavior {
			e.inDead.Store(&body)
			return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) {
				if msg == "first" {
					_ = c.Self().Tell("left")
					_ = c.Self().Stop() // "left" becomes a dead letter
				}
			})
		}, f)
	}},
	{"logger", func(t *testing.T, e *edgeSys, st edgeState, f func()) bool {
		return e.fromTurn(t, st, func(body func()) actorpool.Behavior {
			e.inLog.Store(&body)
			return actorpool.BehaviorFunc(func(*actorpool.Context, any) { panic("reported") })
		}, f)
	}},
	{"handler of another system", func(t *testing.T, e *edgeSys, st edgeState, f func()) bool {
		release := e.enter(t, st)
		defer release()
		other := newSystem(t, actorpool.WithWorkers(1))
		done := make(chan struct{})
		r := spawn(t, other, func(*actorpool.Context, any) { f(); close(done) })
		tell(t, r, "go")
		wait(t, done, "the other system's handler")
		return true
	}},
}

// enter puts e's system in st for a call from outside its turns, and
// returns what ends it.
func (e *edgeSys) enter(t *testing.T, st edgeState) (release func()) {
	t.Helper()
	switch st {
	case stateOpen:
		return func() {}
	case stateClosed:
		if err := e.s.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		return func() {}
	}
	inside, unblock := make(chan struct{}), make(chan struct{})
	blocker := spawn(t, e.s, func(*actorpool.Context, any) { close(inside); <-unblock })
	tell(t, blocker, "block")
	wait(t, inside, "the blocking handler")
	var shut chan error
	if st == stateClosing {
		shut = make(chan error, 1)
		go func() { shut <- e.s.Shutdown(context.Background()) }()
		for !actorpool.ShuttingDown(e.s) {
			time.Sleep(time.Millisecond)
		}
	}
	return func() {
		close(unblock)
		if shut != nil {
			if err := <-shut; err != nil {
				t.Errorf("Shutdown = %v", err)
			}
		}
	}
}

// fromTurn runs f inside a turn of e's system: in the callback of the
// behaviour behave returns, with the system in st (the turn holds its one
// worker, so it is saturated by the caller itself; closing: Shutdown has
// begun while the callback runs).
func (e *edgeSys) fromTurn(t *testing.T, st edgeState, behave func(body func()) actorpool.Behavior, f func()) bool {
	t.Helper()
	if st == stateClosed || st == stateSaturated {
		return false // no callback of a closed system runs; in one of its turns, the caller is what saturates it
	}
	done := make(chan struct{})
	var shut chan error
	body := func() {
		if st == stateClosing {
			shut = make(chan error, 1)
			go func() { shut <- e.s.Shutdown(context.Background()) }()
			for !actorpool.ShuttingDown(e.s) {
				time.Sleep(time.Millisecond)
			}
		}
		f()
		close(done)
	}
	r, err := e.s.Spawn(func() actorpool.Behavior { return behave(body) })
	if err != nil {
		t.Fatal(err)
	}
	// PreStart runs at spawn and may run before "first" is sent; one that
	// shuts the system down stops the actor, and "first" is then refused.
	// A callback that never runs still fails the wait below.
	if err := r.Tell("first"); err != nil && !errors.Is(err, actorpool.ErrStopped) {
		t.Fatalf("Tell(first) = %v", err)
	}
	wait(t, done, "the callback")
	if shut != nil {
		if err := <-shut; err != nil {
			t.Errorf("Shutdown = %v", err)
		}
	}
	return true
}

// outcome names what a call returned.
func outcome(err error, ctxErr error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, context.DeadlineExceeded) && ctxErr != nil:
		return "ctx"
	}
	for _, named := range []struct {
		err  error
		name string
	}{
		{actorpool.ErrStopped, "stopped"},
		{actorpool.ErrClosed, "closed"},
		{actorpool.ErrInsideTask, "inside"},
		{actorpool.ErrNoWorker, "no worker"},
	} {
		if errors.Is(err, named.err) {
			return named.name
		}
	}
	return "other: " + err.Error()
}

// expectedEdge is the table of SPEC.md's ACT-14, cell by cell: what call
// returns from place with the system in st.
func expectedEdge(call, place string, st edgeState) string {
	const (
		ok       = "ok"
		waits    = "ctx"
		stopped  = "stopped"
		shut     = "closed"
		inHandle = "inside"
	)
	// inTurn: the caller runs in a turn of the system, which holds its one
	// worker; the logger runs on a goroutine of its own that such a turn
	// waits for.
	inTurn := place != "outside" && place != "handler of another system"
	switch call {
	case "Ask", "router Ask", "serializer Ask":
		switch {
		case place == "logger":
			return waits // the turn that reports waits for the logger, and the answer needs its worker
		case inTurn && st == stateClosing:
			return stopped // it runs the asked actor's turn in its own slot (ACT-15): the actor stops first
		case inTurn:
			return ok // it runs the asked actor's turn in its own slot (ACT-15)
		case st == stateOpen:
			return ok
		case st == stateClosed:
			return stopped
		}
		return waits // saturated, or closing behind a running handler
	case "Tell", "Stop":
		if st == stateClosed {
			return stopped
		}
		return ok
	case "Spawn":
		if st == stateClosing || st == stateClosed {
			return shut
		}
		return ok
	case "Resize":
		if st == stateClosed {
			return shut
		}
		return ok // a closing system drains at the new size
	case "router Resize":
		if st == stateClosing || st == stateClosed {
			return shut // a grow needs new workers, which a closing system refuses
		}
		return ok
	case "Shutdown":
		switch {
		case place == "logger":
			return waits // the turn that reports waits for the logger
		case inTurn:
			return inHandle // a turn of this system: it would wait for itself
		case st == stateOpen || st == stateClosed:
			return ok
		}
		return waits // a handler still runs
	}
	panic("no expectation for " + call)
}

// TestEdgeTable: ACT-14. Every call that can wait, from every place user
// code runs, against a system open, saturated, closing and closed, returns
// what the table says: it works, returns a named error at once, or waits
// until its own context ends; none hangs past it or panics.
func TestEdgeTable(t *testing.T) {
	for _, c := range edgeCalls {
		for _, p := range edgePlaces {
			for _, st := range []edgeState{stateOpen, stateSaturated, stateClosing, stateClosed} {
				t.Run(c.name+"/"+p.name+"/"+string(st), func(t *testing.T) {
					t.Parallel()
					e := newEdgeSys(t)
					var got string
					ran := p.run(t, e, st, func() {
						ctx, cancel := context.WithTimeout(context.Background(), edgeWait)
						defer cancel()
						got = outcome(c.call(ctx, e), ctx.Err())
					})
					if want := expectedEdge(c.name, p.name, st); ran && got != want {
						t.Errorf("%s from %s, system %s: %s, want %s", c.name, p.name, st, got, want)
					}
				})
			}
		}
	}
}
