package compat

import (
	"context"

	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/spectest"
)

// Poolkit is poolkit's own Pool behind the adapter surface. Its optional
// capabilities (SubmitContext, Resize, Running and Waiting, ShutdownNow)
// are the Pool's own methods and Stats; it has no Reboot (a closed pool
// stays closed; the drop-in for ants has one).
type Poolkit struct{ p *pool.Pool }

// NewPoolkit returns a poolkit pool of the given size.
func NewPoolkit(c spectest.Config) (*Poolkit, error) {
	var opts []pool.Option
	switch {
	case c.Nonblocking:
		opts = append(opts, pool.WithMaxWaiting(0))
	case c.MaxBlocking > 0:
		opts = append(opts, pool.WithMaxWaiting(c.MaxBlocking))
	}
	if c.Expiry > 0 {
		opts = append(opts, pool.WithIdleTimeout(c.Expiry))
	}
	if c.PanicHandler != nil {
		opts = append(opts, pool.WithPanicHandler(c.PanicHandler))
	}
	p, err := pool.New(c.Size, opts...)
	if err != nil {
		return nil, err
	}
	return &Poolkit{p}, nil
}

// Supports reports which Config fields the adapter honours: all of them.
func (*Poolkit) Supports(spectest.Capability) bool { return true }

// Submit calls Submit with a context that is never done.
func (p *Poolkit) Submit(task func()) error { return p.p.Submit(context.Background(), task) }

// SubmitContext calls Submit.
func (p *Poolkit) SubmitContext(ctx context.Context, task func()) error { return p.p.Submit(ctx, task) }

// Resize calls Resize.
func (p *Poolkit) Resize(n int) error { return p.p.Resize(n) }

// Cap calls Cap.
func (p *Poolkit) Cap() int { return p.p.Cap() }

// Running returns Stats().Running.
func (p *Poolkit) Running() int { return p.p.Stats().Running }

// Waiting returns Stats().Waiting.
func (p *Poolkit) Waiting() int { return p.p.Stats().Waiting }

// Completed returns how many tasks have finished.
func (p *Poolkit) Completed() uint64 { return p.p.Stats().Completed }

// ShutdownNow calls ShutdownNow.
func (p *Poolkit) ShutdownNow() []func() { return p.p.ShutdownNow() }

// Shutdown calls Shutdown.
func (p *Poolkit) Shutdown(ctx context.Context) error { return p.p.Shutdown(ctx) }

// Pool returns the pool the adapter wraps.
func (p *Poolkit) Pool() *pool.Pool { return p.p }
