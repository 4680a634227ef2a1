package actorpool

import (
	"fmt"
	"log/slog"

	"github.com/poolkit/poolkit/resize"
)

// DefaultBudget is how many user messages an actor handles in one turn
// before it yields its worker, when WithBudget is not given.
const DefaultBudget = 32

// Option configures a System.
type Option func(*sysConfig) error

type sysConfig struct {
	workers int
	budget  int
	dead    func(DeadLetter)
	logger  *slog.Logger
}

// WithWorkers sets how many actors run at once (the engine's capacity).
// The default is max(GOMAXPROCS, 2), read when New is called; GOMAXPROCS
// is never set. A size below 1 or above resize.MaxSize is an error.
func WithWorkers(n int) Option {
	return func(c *sysConfig) error {
		if resize.Validate(n) != nil {
			return fmt.Errorf("%w: workers %d: want 1 to %d", ErrInvalidOption, n, resize.MaxSize)
		}
		c.workers = n
		return nil
	}
}

// WithBudget sets how many user messages an actor handles in one turn
// before it gives its worker to the next actor (default DefaultBudget).
// Small budgets are fairer to cold actors; large ones cost fewer
// reschedules for a hot one. A budget below 1 is an error.
func WithBudget(n int) Option {
	return func(c *sysConfig) error {
		if n < 1 {
			return fmt.Errorf("%w: budget %d: want at least 1", ErrInvalidOption, n)
		}
		c.budget = n
		return nil
	}
}

// WithDeadLetters sets a function called with every dead letter, on the
// goroutine that stopped the actor. It must not block. Dead letters are
// counted in Stats either way. A panic in f is counted in Stats.Panics and
// reported; a runtime.Goexit in f ends that goroutine, as it would anywhere,
// but the stop completes first: the letters after it are counted and
// reported in turn, and PostStop runs.
func WithDeadLetters(f func(DeadLetter)) Option {
	return func(c *sysConfig) error {
		if f == nil {
			return fmt.Errorf("%w: nil dead-letter function", ErrInvalidOption)
		}
		c.dead = f
		return nil
	}
}

// WithLogger sets where failed callbacks (a handler, producer, lifecycle
// hook or dead-letter function that panicked or called runtime.Goexit)
// are reported (default slog.Default()). The logger runs on a goroutine of
// its own, so that a logger that panics or calls runtime.Goexit loses its
// report and nothing else.
func WithLogger(l *slog.Logger) Option {
	return func(c *sysConfig) error {
		if l == nil {
			return fmt.Errorf("%w: nil logger", ErrInvalidOption)
		}
		c.logger = l
		return nil
	}
}

// SpawnOption configures one actor.
type SpawnOption func(*actor) error

// WithMailboxSize bounds the actor's user messages waiting to be handled:
// past n, Tell and Ask return ErrMailboxFull. The default is unbounded.
func WithMailboxSize(n int) SpawnOption {
	return func(a *actor) error {
		if n < 1 {
			return fmt.Errorf("%w: mailbox size %d: want at least 1", ErrInvalidOption, n)
		}
		a.mb.limit = n
		return nil
	}
}

// WithSupervisor sets what happens when the actor's handler panics
// (default DefaultSupervisor).
func WithSupervisor(sup Supervisor) SpawnOption {
	return func(a *actor) error {
		if !sup.valid() {
			return fmt.Errorf("%w: supervisor %+v", ErrInvalidOption, sup)
		}
		a.sup = sup
		return nil
	}
}
