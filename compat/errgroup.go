package compat

import (
	"context"
	"errors"

	"golang.org/x/sync/errgroup"

	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/spectest"
)

// Errgroup is golang.org/x/sync's errgroup.Group limited with SetLimit: Go
// blocks while the limit of tasks run, each on a goroutine of its own, and
// TryGo refuses instead. A Group recovers no panic, and has no close:
// Shutdown waits for the tasks (Wait), and the Group takes work again after.
type Errgroup struct {
	g           *errgroup.Group
	nonblocking bool
}

// errLimit is what Submit returns when TryGo refuses a task: errgroup
// reports that with false, not with an error.
var errLimit = &libError{lib: errors.New("errgroup: TryGo refused: the limit is reached"), vocab: pool.ErrOverload}

// NewErrgroup returns a Group limited to c.Size tasks, passed through as it
// is: errgroup takes a negative limit to mean none, and with a limit of 0
// every Go blocks for ever.
func NewErrgroup(c spectest.Config) (*Errgroup, error) {
	g := new(errgroup.Group)
	g.SetLimit(c.Size)
	return &Errgroup{g: g, nonblocking: c.Nonblocking}, nil
}

// Supports reports which Config fields the adapter honours: Nonblocking,
// with TryGo.
func (*Errgroup) Supports(c spectest.Capability) bool { return c == spectest.Nonblocking }

// Submit calls Go, or TryGo on a non-blocking adapter, with a function
// that calls task and returns nil.
func (a *Errgroup) Submit(task func()) error {
	f := func() error { task(); return nil }
	if !a.nonblocking {
		a.g.Go(f)
		return nil
	}
	if !a.g.TryGo(f) {
		return errLimit
	}
	return nil
}

// Shutdown runs Wait and waits for it, bounded by ctx; Wait goes on in the
// background if ctx ends first.
func (a *Errgroup) Shutdown(ctx context.Context) error {
	return waitFor(ctx, func() { _ = a.g.Wait() })
}
