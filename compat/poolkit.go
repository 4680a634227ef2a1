package compat

import (
	"context"

	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/spectest"
)

// Poolkit is poolkit's own Pool behind the adapter surface. Its optional
// capabilities (SubmitContext, Resize, Running and Waiting, ReleaseNow,
// Reboot) are the Pool's own methods.
type Poolkit struct{ *pool.Pool }

// NewPoolkit returns a poolkit pool of the given size.
func NewPoolkit(c spectest.Config) (*Poolkit, error) {
	opts := []pool.Option{
		pool.WithNonblocking(c.Nonblocking),
		pool.WithMaxBlockingTasks(c.MaxBlocking),
		pool.WithExpiryDuration(c.Expiry),
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

// Release closes the pool and waits, bounded by ctx, for its tasks and
// workers.
func (p *Poolkit) Release(ctx context.Context) error { return p.ReleaseContext(ctx) }

// Completed returns how many tasks have finished.
func (p *Poolkit) Completed() uint64 { return p.Stats().Completed }
