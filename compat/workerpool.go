package compat

import (
	"context"

	"github.com/gammazero/workerpool"

	"github.com/poolkit/poolkit/spectest"
)

// Workerpool is gammazero/workerpool's WorkerPool: a dispatcher goroutine
// hands tasks to at most size workers and queues the rest without bound,
// so Submit never blocks; an idle worker exits after 2s (not configurable).
// workerpool ignores a nil task, recovers no panic, and panics on Submit
// after a stop (a send on a closed channel); the adapter hides none of
// that.
type Workerpool struct{ p *workerpool.WorkerPool }

// NewWorkerpool returns a WorkerPool of c.Size workers, passed through as
// it is: workerpool takes a size below 1 to mean 1.
func NewWorkerpool(c spectest.Config) (*Workerpool, error) {
	return &Workerpool{workerpool.New(c.Size)}, nil
}

// Supports reports which Config fields workerpool honours: none.
func (*Workerpool) Supports(spectest.Capability) bool { return false }

// Submit calls Submit.
func (a *Workerpool) Submit(task func()) error {
	a.p.Submit(task)
	return nil
}

// Shutdown runs StopWait, which runs the queued tasks and waits for them,
// and waits for it, bounded by ctx; StopWait goes on in the background if
// ctx ends first.
func (a *Workerpool) Shutdown(ctx context.Context) error { return waitFor(ctx, a.p.StopWait) }
