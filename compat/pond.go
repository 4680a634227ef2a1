package compat

import (
	"context"

	"github.com/alitto/pond/v2"

	"github.com/poolkit/poolkit/spectest"
)

var (
	pondClosed   = []error{pond.ErrPoolStopped}
	pondOverload = []error{pond.ErrQueueFull}
)

// Pond is pond v2's Pool, submitting with Go. pond has no panic handler
// (a panic in a Go task is recovered and counted) and no idle expiry
// setting (workers exit as soon as the queue is empty); its queue is
// unbounded unless configured.
type Pond struct{ p pond.Pool }

// NewPond returns a pond pool of the given size, passed through as it is:
// pond takes 0 to mean unbounded and panics on a negative size.
func NewPond(c spectest.Config) (*Pond, error) {
	return &Pond{pond.NewPool(c.Size, pond.WithNonBlocking(c.Nonblocking))}, nil
}

// Supports reports which Config fields pond honours: only Nonblocking.
func (*Pond) Supports(c spectest.Capability) bool { return c == spectest.Nonblocking }

// Submit calls Go.
func (a *Pond) Submit(task func()) error {
	return translate(a.p.Go(task), pondClosed, pondOverload)
}

// Shutdown runs StopAndWait and waits for it, bounded by ctx; StopAndWait
// goes on in the background if ctx ends first.
func (a *Pond) Shutdown(ctx context.Context) error { return waitFor(ctx, a.p.StopAndWait) }

// Resize calls pond's Resize. pond takes 0 to mean unbounded and panics
// on a negative size, so the adapter refuses sizes below 1.
func (a *Pond) Resize(n int) error {
	if err := invalidSize(n); err != nil {
		return err
	}
	a.p.Resize(n)
	return nil
}

// Cap returns MaxConcurrency.
func (a *Pond) Cap() int { return a.p.MaxConcurrency() }

// Running returns RunningWorkers: pond's workers, each running a task or
// about to look for the next.
func (a *Pond) Running() int { return int(a.p.RunningWorkers()) }

// Waiting returns WaitingTasks: queued tasks.
func (a *Pond) Waiting() int { return int(a.p.WaitingTasks()) }

// Completed returns CompletedTasks.
func (a *Pond) Completed() uint64 { return a.p.CompletedTasks() }

// PondSubmit is Pond submitting with pond's Submit instead of Go: Submit
// returns a Task to wait on, which is what a caller that wants each task's
// outcome pays for. pond reports a rejection (a stopped pool, a full
// queue) only through that Task, which the adapter drops, so its Submit
// returns nil. Everything else is Pond's.
type PondSubmit struct{ *Pond }

// NewPondSubmit returns a pond pool as NewPond does.
func NewPondSubmit(c spectest.Config) (*PondSubmit, error) {
	p, err := NewPond(c)
	if err != nil {
		return nil, err
	}
	return &PondSubmit{p}, nil
}

// Submit calls Submit and drops the Task.
func (a *PondSubmit) Submit(task func()) error {
	a.p.Submit(task)
	return nil
}
