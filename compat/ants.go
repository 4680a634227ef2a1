package compat

import (
	"context"

	"github.com/panjf2000/ants/v2"

	"github.com/poolkit/poolkit/resize"
)

var (
	antsClosed   = []error{ants.ErrPoolClosed}
	antsOverload = []error{ants.ErrPoolOverload}
)

func antsOptions(o Options) []ants.Option {
	opts := []ants.Option{
		ants.WithNonblocking(o.Nonblocking),
		ants.WithMaxBlockingTasks(o.MaxBlocking),
	}
	if o.Expiry > 0 {
		opts = append(opts, ants.WithExpiryDuration(o.Expiry))
	}
	if o.PanicHandler != nil {
		opts = append(opts, ants.WithPanicHandler(o.PanicHandler))
	}
	return opts
}

// antsCommon is what ants' Pool, PoolWithFuncGeneric and MultiPool share.
type antsCommon interface {
	Running() int
	Waiting() int
	Cap() int
	Tune(size int)
	IsClosed() bool
	ReleaseContext(ctx context.Context) error
	Reboot()
}

// antsControl adapts the management surface common to the ants pools.
type antsControl struct{ p antsCommon }

// Resize calls Tune, which ants defines to ignore sizes below 1 and closed
// pools; the adapter reports that faithfully, as success.
func (a antsControl) Resize(n int) error { a.p.Tune(n); return nil }

// Cap returns ants' Cap.
func (a antsControl) Cap() int { return a.p.Cap() }

// Running returns ants' Running, which counts live workers, idle ones
// included, not running tasks.
func (a antsControl) Running() int { return a.p.Running() }

// Waiting returns ants' Waiting: callers blocked in Submit.
func (a antsControl) Waiting() int { return a.p.Waiting() }

// Release calls ReleaseContext, which returns ErrPoolClosed on a second
// call; that is mapped to the vocabulary, not hidden.
func (a antsControl) Release(ctx context.Context) error {
	return translate(a.p.ReleaseContext(ctx), antsClosed, nil)
}

// Reboot calls ants' Reboot, which reopens a released pool after waiting
// for its workers to exit (MultiPool reboots each sub-pool in turn).
func (a antsControl) Reboot() { a.p.Reboot() }

var _ resize.Resizer = antsControl{}

// Ants is ants' Pool.
type Ants struct {
	antsControl
	p *ants.Pool
}

// NewAnts returns an ants Pool of the given size (ants treats a size below
// 1 as unlimited).
func NewAnts(size int, o Options) (*Ants, error) {
	p, err := ants.NewPool(size, antsOptions(o)...)
	if err != nil {
		return nil, err
	}
	return &Ants{antsControl{p}, p}, nil
}

// Supports reports which Options ants honours: all of them.
func (*Ants) Supports(Feature) bool { return true }

// Submit calls Pool.Submit.
func (a *Ants) Submit(task func()) error {
	return translate(a.p.Submit(task), antsClosed, antsOverload)
}

// AntsFunc is ants' generic PoolWithFunc, invoked with func() arguments.
type AntsFunc struct {
	antsControl
	p *ants.PoolWithFuncGeneric[func()]
}

// NewAntsFunc returns an ants PoolWithFuncGeneric of the given size whose
// function calls its argument.
func NewAntsFunc(size int, o Options) (*AntsFunc, error) {
	p, err := ants.NewPoolWithFuncGeneric(size, func(f func()) { f() }, antsOptions(o)...)
	if err != nil {
		return nil, err
	}
	return &AntsFunc{antsControl{p}, p}, nil
}

// Supports reports which Options ants honours: all of them.
func (*AntsFunc) Supports(Feature) bool { return true }

// Submit calls Invoke with the task as argument; a nil task is passed on
// like any other argument.
func (a *AntsFunc) Submit(task func()) error {
	return translate(a.p.Invoke(task), antsClosed, antsOverload)
}

// AntsMulti is ants' MultiPool with round-robin balancing. A size n is
// split into two sub-pools of n/2 when n is even, else n sub-pools of 1,
// so that Cap starts at n. Resize passes n to MultiPool.Tune, which ants
// applies to every sub-pool.
type AntsMulti struct {
	antsControl
	p *ants.MultiPool
}

// NewAntsMulti returns an ants MultiPool of total size n.
func NewAntsMulti(size int, o Options) (*AntsMulti, error) {
	pools, per := size, 1
	if size%2 == 0 {
		pools, per = 2, size/2
	}
	if size < 1 {
		pools, per = 1, size
	}
	p, err := ants.NewMultiPool(pools, per, ants.RoundRobin, antsOptions(o)...)
	if err != nil {
		return nil, err
	}
	return &AntsMulti{antsControl{p}, p}, nil
}

// Supports reports which Options ants honours: all of them.
func (*AntsMulti) Supports(Feature) bool { return true }

// Submit calls MultiPool.Submit.
func (a *AntsMulti) Submit(task func()) error {
	return translate(a.p.Submit(task), antsClosed, antsOverload)
}
