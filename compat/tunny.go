package compat

import (
	"context"
	"sync"
	"time"

	"github.com/Jeffail/tunny"

	"github.com/poolkit/poolkit/spectest"
)

// Tunny is tunny's callback Pool. tunny's Process blocks until the job has
// finished, so Submit runs it on a goroutine of its own and returns when a
// worker has started the task: tunny has no queue, and a task is accepted
// when it starts. tunny recovers no panics, and Process and SetSize panic
// on a closed pool; the adapter does not hide any of that.
type Tunny struct {
	p *tunny.Pool

	mu   sync.Mutex
	size int // the size last asked for; see Cap
}

// resizeWait bounds how long Resize waits for tunny's SetSize, which
// blocks until the workers it removes have finished their jobs.
const resizeWait = 100 * time.Millisecond

// NewTunny returns a tunny pool of the given size, passed through as it
// is. tunny starts that many workers at once.
func NewTunny(c spectest.Config) (*Tunny, error) {
	return &Tunny{p: tunny.NewCallback(c.Size), size: c.Size}, nil
}

// Supports reports which Config fields tunny honours: none.
func (*Tunny) Supports(spectest.Capability) bool { return false }

// Submit hands task to a worker and returns once it has started.
func (a *Tunny) Submit(task func()) error {
	started := make(chan struct{})
	go a.p.Process(func() { close(started); task() })
	<-started
	return nil
}

// SubmitContext is Submit bounded by ctx, through ProcessCtx: if ctx ends
// before a worker takes the task, it returns ctx.Err().
func (a *Tunny) SubmitContext(ctx context.Context, task func()) error {
	started := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		_, err := a.p.ProcessCtx(ctx, func() { close(started); task() })
		errc <- err
	}()
	select {
	case <-started:
		return nil
	case err := <-errc:
		select {
		case <-started: // the job ran and finished before we looked
			return nil
		default:
			return err
		}
	}
}

// Shutdown calls Close, which waits for running jobs, and waits for it,
// bounded by ctx. A second Close panics in tunny.
func (a *Tunny) Shutdown(ctx context.Context) error { return waitFor(ctx, a.p.Close) }

// Resize calls SetSize and waits up to 100ms for it: a shrink blocks in
// tunny until the removed workers finish their jobs, and the adapter must
// not block its caller indefinitely. Sizes below 1 are refused (SetSize(0)
// stops every worker; a negative size panics).
func (a *Tunny) Resize(n int) error {
	if err := invalidSize(n); err != nil {
		return err
	}
	a.mu.Lock()
	a.size = n
	a.mu.Unlock()
	done := make(chan struct{})
	go func() { a.p.SetSize(n); close(done) }()
	t := time.NewTimer(resizeWait)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
	return nil
}

// Cap returns the size last passed to Resize (or New). tunny's own GetSize
// blocks while a shrink is in progress, so it cannot serve here.
func (a *Tunny) Cap() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.size
}

// Waiting returns QueueLength: callers waiting for a worker, plus jobs
// running (tunny counts a job until it returns).
func (a *Tunny) Waiting() int { return int(a.p.QueueLength()) }
