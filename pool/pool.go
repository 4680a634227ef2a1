package pool

import (
	"context"
	"fmt"

	"github.com/poolkit/poolkit/resize"
)

// Pool runs func() tasks on a bounded, resizable set of worker goroutines.
// Create one with New; the zero value is not usable (its methods return
// errors). A Pool must not be copied after first use. All methods are safe
// for concurrent use.
//
// # Panics
//
// A task that panics does not take down its worker or the process: the
// panic is recovered, counted, and passed to the WithPanicHandler function
// (by default, logged with its stack), and the worker goes on with the next
// task. A task that calls runtime.Goexit ends its worker goroutine, and a
// new one takes its place. Either way the pool keeps its capacity.
type Pool struct {
	engine[func()]
}

func callTask(f func()) { f() }

// New returns a pool that runs at most size tasks at once. A size below 1
// is an error matching ErrInvalidSize (never "unlimited"); an invalid
// option is an error matching ErrInvalidOption.
func New(size int, opts ...Option) (*Pool, error) {
	cfg, err := prepare(size, opts)
	if err != nil {
		return nil, err
	}
	p := new(Pool)
	p.init(size, callTask, cfg)
	return p, nil
}

func prepare(size int, opts []Option) (config, error) {
	if err := validateSize(size); err != nil {
		return config{}, err
	}
	c, err := buildConfig(opts)
	if err == nil && c.minWorkers > size {
		err = invalid("min workers %d is above the size %d", c.minWorkers, size)
	}
	return c, err
}

func validateSize(size int) error {
	if err := resize.Validate(size); err != nil {
		return fmt.Errorf("pool: size %d: %w", size, ErrInvalidSize)
	}
	return nil
}

// Submit hands task to the pool. It returns nil once the task is accepted:
// started by a free worker, or queued for the next one. When the pool is
// saturated (every worker busy and the queue full), Submit blocks until
// there is room, unless the pool is non-blocking or WithMaxBlockingTasks
// callers are already blocked, in which case it returns ErrPoolOverload.
// It returns ErrPoolClosed when the pool is released, including while it
// is blocked, and ErrNilTask for a nil task. A task for which Submit
// returned nil runs exactly once; one for which it returned an error never
// runs.
//
// Submit synchronizes before the task starts.
func (p *Pool) Submit(task func()) error {
	if task == nil {
		return ErrNilTask
	}
	return p.submit(context.Background(), task)
}

// SubmitContext is Submit bounded by ctx: if ctx is done before the task is
// accepted, it returns ctx.Err() and the task will not run. A ctx that is
// already done is rejected even when the pool has room. A nil ctx is an
// error.
func (p *Pool) SubmitContext(ctx context.Context, task func()) error {
	if task == nil {
		return ErrNilTask
	}
	if ctx == nil {
		return ErrNilContext
	}
	if err := ctx.Err(); err != nil {
		return p.rejected.count(err)
	}
	return p.submit(ctx, task)
}

// ReleaseNow closes the pool as Release does, but instead of running the
// accepted tasks that have not started, it removes them and returns them,
// oldest first, to the caller, who now owns them. Tasks already running
// finish. After ReleaseNow returns, no task starts in this pool (until a
// Reboot); every accepted task has either started or been returned.
// It may follow Release, to abandon the remaining queue.
func (p *Pool) ReleaseNow() []func() {
	_, units := p.close(true)
	return units
}
