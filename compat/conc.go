package compat

import (
	"context"

	concpool "github.com/sourcegraph/conc/pool"

	"github.com/poolkit/poolkit/spectest"
)

// Conc is sourcegraph/conc's pool.Pool limited with WithMaxGoroutines.
// Go blocks while the limit of tasks run, and starts a goroutine for a task
// while under the limit; there is no queue. conc catches a task's panic and
// Wait raises the first one again. conc has no closed state to report: Go
// after Wait, and a second Wait, panic (a send on, or a close of, a closed
// channel); the adapter hides none of that.
type Conc struct{ p *concpool.Pool }

// NewConc returns a conc pool limited to c.Size goroutines, passed through
// as it is: conc panics on a limit below 1.
func NewConc(c spectest.Config) (*Conc, error) {
	return &Conc{concpool.New().WithMaxGoroutines(c.Size)}, nil
}

// Supports reports which Config fields conc honours: none.
func (*Conc) Supports(spectest.Capability) bool { return false }

// Submit calls Go.
func (a *Conc) Submit(task func()) error {
	a.p.Go(task)
	return nil
}

// Shutdown runs Wait and waits for it, bounded by ctx; Wait goes on in the
// background if ctx ends first. Wait raises a task's panic again, on the
// goroutine that runs it, which ends the process.
func (a *Conc) Shutdown(ctx context.Context) error { return waitFor(ctx, a.p.Wait) }
