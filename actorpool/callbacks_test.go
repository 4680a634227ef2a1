//go:build go1.25

package actorpool_test

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/internal/misbehave"
)

// TestDeadLetterFunctionMisbehaves: a dead-letter function that panics or
// calls runtime.Goexit on every letter costs the stop nothing: every
// message left is counted a dead letter, the Ask among them is answered
// ErrStopped, PostStop runs once, each failure is counted, and Shutdown
// returns.
func TestDeadLetterFunctionMisbehaves(t *testing.T) {
	for _, m := range misbehave.Ways {
		t.Run(m.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), failBound)
			defer cancel()
			var letters atomic.Int32
			s := newSystem(t, actorpool.WithWorkers(1), actorpool.WithDeadLetters(func(actorpool.DeadLetter) {
				letters.Add(1)
				m.Do()
			}))
			inside, release := make(chan struct{}), make(chan struct{})
			var stops atomic.Int32
			r, err := s.Spawn(func() actorpool.Behavior {
				return &lifecycle{
					onStop: func() { stops.Add(1) },
					recv: func(_ *actorpool.Context, msg any) {
						if msg == "block" {
							close(inside)
							<-release
						}
					},
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			tell(t, r, "block")
			wait(t, inside, "the first message")
			const left = 5
			for i := range left - 1 {
				tell(t, r, i)
			}
			asked := make(chan error, 1)
			go func() { _, err := r.Ask(ctx, "asked"); asked <- err }()
			for s.Stats().Queued < left { // the Ask is in the mailbox
				runtime.Gosched()
			}
			if err := r.Stop(); err != nil {
				t.Fatal(err)
			}
			close(release)
			if err := <-asked; !errors.Is(err, actorpool.ErrStopped) {
				t.Errorf("Ask left in the mailbox = %v, want ErrStopped", err)
			}
			if err := s.Shutdown(ctx); err != nil {
				t.Fatalf("Shutdown = %v", err)
			}
			st := s.Stats()
			if st.DeadLetters != left || letters.Load() != left || stops.Load() != 1 || st.Panics != left {
				t.Errorf("DeadLetters %d, dead-letter calls %d, PostStop calls %d, Panics %d; want %d, %d, 1, %d",
					st.DeadLetters, letters.Load(), stops.Load(), st.Panics, left, left, left)
			}
		})
	}
}

// TestLoggerMisbehaves: a logger that panics or calls runtime.Goexit while
// the system reports a failed callback changes nothing else: the failure
// is counted, the actor is restarted as its supervisor says and handles
// its next message, and Shutdown returns.
func TestLoggerMisbehaves(t *testing.T) {
	for _, m := range misbehave.Ways {
		t.Run(m.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), failBound)
			defer cancel()
			var logged atomic.Int32
			s := newSystem(t, actorpool.WithWorkers(1), actorpool.WithLogger(slog.New(misbehave.Handler(func() {
				logged.Add(1)
				m.Do()
			}))))
			r := spawn(t, s, func(c *actorpool.Context, msg any) {
				if msg == "panic" {
					panic("handler panicked")
				}
				_ = c.Respond(msg)
			})
			var pe *actorpool.PanicError
			if _, err := r.Ask(ctx, "panic"); !errors.As(err, &pe) {
				t.Errorf("Ask on the panicking message = %v, want a *PanicError", err)
			}
			if v, err := r.Ask(ctx, "next"); v != "next" || err != nil {
				t.Errorf("Ask after the panic = %v, %v; want next, nil", v, err)
			}
			if err := s.Shutdown(ctx); err != nil {
				t.Fatalf("Shutdown = %v", err)
			}
			if st := s.Stats(); st.Panics != 1 || logged.Load() != 1 {
				t.Errorf("Panics %d, logger calls %d; want 1, 1", st.Panics, logged.Load())
			}
		})
	}
}

// TestProducerReturnsNil: a producer that returns nil fails the actor's
// start as a panic in it would: the failure is counted and reported,
// naming the producer, and the actor stops (an Ask to it is answered
// ErrStopped), never silently.
func TestProducerReturnsNil(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), failBound)
	defer cancel()
	var records []string
	recorded := make(chan string, 1)
	s := newSystem(t, actorpool.WithLogger(slog.New(recordingHandler{recorded})))
	r, err := s.Spawn(func() actorpool.Behavior { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Ask(ctx, "hello"); !errors.Is(err, actorpool.ErrStopped) {
		t.Errorf("Ask to an actor whose producer returned nil = %v, want ErrStopped", err)
	}
	records = append(records, <-recorded)
	if st := s.Stats(); st.Panics != 1 || records[0] != "actorpool: producer failed" {
		t.Errorf("Panics %d, logged %q; want 1, %q", st.Panics, records, "actorpool: producer failed")
	}
}

type recordingHandler struct{ ch chan<- string }

func (h recordingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h recordingHandler) Handle(_ context.Context, r slog.Record) error {
	h.ch <- r.Message
	return nil
}
func (h recordingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h recordingHandler) WithGroup(string) slog.Handler      { return h }
