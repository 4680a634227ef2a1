package actorpool_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"runtime"
	"testing"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
)

// TestVocabularyClosed: ACT-16. A closed system, a stopped router and a
// closed pool report one error, which every package's name for it
// matches.
func TestVocabularyClosed(t *testing.T) {
	s, err := actorpool.New(actorpool.WithWorkers(1))
	if err != nil {
		t.Fatal(err)
	}
	r, err := actorpool.NewRouter(s, 1, func() actorpool.Behavior { return actorpool.BehaviorFunc(func(*actorpool.Context, any) {}) })
	if err != nil {
		t.Fatal(err)
	}
	shutdown(t, s)
	_, spawnErr := s.Spawn(func() actorpool.Behavior { return actorpool.BehaviorFunc(nil) })

	p, err := pool.New(1)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	submitErr := p.Submit(context.Background(), func() {})

	for _, c := range []struct {
		name string
		err  error
	}{
		{"Spawn after Shutdown", spawnErr},
		{"System.Resize after Shutdown", s.Resize(2)},
		{"Router.Resize after Shutdown", r.Resize(2)},
		{"pool Submit after Close", submitErr},
	} {
		for _, kind := range []struct {
			name string
			err  error
		}{{"actorpool.ErrClosed", actorpool.ErrClosed}, {"pool.ErrClosed", pool.ErrClosed}, {"resize.ErrClosed", resize.ErrClosed}} {
			if !errors.Is(c.err, kind.err) {
				t.Errorf("%s = %v, does not match %s", c.name, c.err, kind.name)
			}
		}
	}
}

// TestVocabularyInsideTask: ACT-16. A system's handler and a pool's task
// that wait for their own runtime's end get one error, which both
// packages' names match.
func TestVocabularyInsideTask(t *testing.T) {
	s, err := actorpool.New(actorpool.WithWorkers(1))
	if err != nil {
		t.Fatal(err)
	}
	fromHandler := make(chan error, 1)
	r := spawn(t, s, func(*actorpool.Context, any) { fromHandler <- s.Shutdown(context.Background()) })
	tell(t, r, "shut down")
	handlerErr := <-fromHandler
	shutdown(t, s)

	p, err := pool.New(1)
	if err != nil {
		t.Fatal(err)
	}
	fromTask := make(chan error, 1)
	if err := p.Submit(context.Background(), func() { fromTask <- p.Shutdown(context.Background()) }); err != nil {
		t.Fatal(err)
	}
	taskErr := <-fromTask
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name string
		err  error
	}{{"Shutdown from a handler", handlerErr}, {"pool Shutdown from a task", taskErr}} {
		if !errors.Is(c.err, actorpool.ErrInsideTask) || !errors.Is(c.err, pool.ErrInsideTask) {
			t.Errorf("%s = %v, want an error matching actorpool.ErrInsideTask and pool.ErrInsideTask", c.name, c.err)
		}
	}
}

// panicsInHandler is a handler that panics, named so that its frame can be
// looked for in a recorded stack.
func panicsInHandler(*actorpool.Context, any) { panic("handler boom") }

// TestVocabularyPanic: ACT-16. An Ask whose handler panicked and a Future
// whose task panicked report one type, which both packages' names match,
// with the value and the panicking goroutine's stack.
func TestVocabularyPanic(t *testing.T) {
	s := newSystem(t, actorpool.WithWorkers(1), actorpool.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	r := spawn(t, s, panicsInHandler, actorpool.WithSupervisor(actorpool.Supervisor{Directive: actorpool.Resume}))
	ctx, cancel := context.WithTimeout(context.Background(), failBound)
	defer cancel()
	_, askErr := r.Ask(ctx, "boom")

	p, err := pool.New(1, pool.WithPanicHandler(func(any) {}))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := pool.SubmitResult(ctx, p, func() (int, error) { panic("task boom") })
	if err != nil {
		t.Fatal(err)
	}
	_, futureErr := f.Wait(ctx)

	var ape *actorpool.PanicError
	if !errors.As(askErr, &ape) || ape.Value != "handler boom" {
		t.Fatalf("Ask of a panicking handler = %v, want an *actorpool.PanicError of handler boom", askErr)
	}
	if !bytes.Contains(ape.Stack, []byte("panicsInHandler")) {
		t.Errorf("the Ask's PanicError.Stack does not show the handler:\n%s", ape.Stack)
	}
	var ppe *pool.PanicError
	if !errors.As(askErr, &ppe) || ppe != ape {
		t.Errorf("Ask of a panicking handler = %v, not a *pool.PanicError", askErr)
	}
	if !errors.As(futureErr, &ape) || ape.Value != "task boom" {
		t.Errorf("Future of a panicking task = %v, want an *actorpool.PanicError of task boom", futureErr)
	}
}

// TestVocabularyGoexit: ACT-16. A handler and a task that call
// runtime.Goexit are reported with one error, which both packages' names
// match.
func TestVocabularyGoexit(t *testing.T) {
	if actorpool.ErrGoexit != pool.ErrGoexit {
		t.Fatalf("actorpool.ErrGoexit (%v) and pool.ErrGoexit (%v) are two values", actorpool.ErrGoexit, pool.ErrGoexit)
	}
	p, err := pool.New(1)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), failBound)
	defer cancel()
	f, err := pool.SubmitResult(ctx, p, func() (int, error) { runtime.Goexit(); return 0, nil })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Wait(ctx); !errors.Is(err, actorpool.ErrGoexit) {
		t.Errorf("Future of a task that called runtime.Goexit = %v, want an error matching actorpool.ErrGoexit", err)
	}
}

// TestVocabularyBadInput: ACT-16. A nil option and a nil context are one
// error each in both packages: each package's name matches what the other
// returns.
func TestVocabularyBadInput(t *testing.T) {
	var nilCtx context.Context
	_, poolOpt := pool.New(1, nil)
	_, systemOpt := actorpool.New(nil)
	_, keyedOnNil := pool.NewKeyed[int](nil)

	p, err := pool.New(1)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	s := newSystem(t, actorpool.WithWorkers(1))
	r := spawn(t, s, func(c *actorpool.Context, msg any) { _ = c.Respond(msg) })
	_, askCtx := r.Ask(nilCtx, 1)

	for _, c := range []struct {
		name      string
		err       error
		pool, act error
	}{
		{"pool.New with a nil option", poolOpt, pool.ErrInvalidOption, actorpool.ErrInvalidOption},
		{"actorpool.New with a nil option", systemOpt, pool.ErrInvalidOption, actorpool.ErrInvalidOption},
		{"pool.NewKeyed on a nil pool", keyedOnNil, pool.ErrInvalidOption, actorpool.ErrInvalidOption},
		{"pool Submit with a nil context", p.Submit(nilCtx, func() {}), pool.ErrNilContext, actorpool.ErrNilContext},
		{"Ask with a nil context", askCtx, pool.ErrNilContext, actorpool.ErrNilContext},
	} {
		if !errors.Is(c.err, c.pool) || !errors.Is(c.err, c.act) {
			t.Errorf("%s = %v, want an error matching %v in both packages", c.name, c.err, c.pool)
		}
	}
}
