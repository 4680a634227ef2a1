package compat

import (
	"context"

	"github.com/poolkit/poolkit/pool"
)

// Poolkit is poolkit's own Pool behind the adapter surface. Its optional
// capabilities (SubmitContext, Resize, Running and Waiting, ReleaseNow,
// Reboot) are the Pool's own methods.
type Poolkit struct{ *pool.Pool }

// NewPoolkit returns a poolkit pool of the given size.
func NewPoolkit(size int, o Options) (*Poolkit, error) {
	opts := []pool.Option{
		pool.WithNonblocking(o.Nonblocking),
		pool.WithMaxBlockingTasks(o.MaxBlocking),
		pool.WithExpiryDuration(o.Expiry),
	}
	if o.PanicHandler != nil {
		opts = append(opts, pool.WithPanicHandler(o.PanicHandler))
	}
	p, err := pool.New(size, opts...)
	if err != nil {
		return nil, err
	}
	return &Poolkit{p}, nil
}

// Supports reports which Options the adapter honours: all of them.
func (*Poolkit) Supports(f Feature) bool { return true }

// Release closes the pool and waits, bounded by ctx, for its tasks and
// workers.
func (p *Poolkit) Release(ctx context.Context) error { return p.ReleaseContext(ctx) }

// Completed returns how many tasks have finished.
func (p *Poolkit) Completed() uint64 { return p.Stats().Completed }
