package compat

import (
	dropin "github.com/poolkit/poolkit/ants"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
	"github.com/poolkit/poolkit/spectest"
)

// This file holds the adapters of poolkit's drop-in replacement for ants
// v2 (package github.com/poolkit/poolkit/ants), one per pool type, built
// as the ants adapters in ants.go are, from the same parts. They differ
// from those where the drop-in does: Resize calls the drop-in's Resize,
// which reports the sizes and the closed pools that Tune ignores; the
// drop-in's errors are poolkit's own, so nothing is translated; and the
// single pools report Completed from their Stats, which ants lacks.

var dropinOpts = antsOptionSet[dropin.Option]{
	nonblocking:  dropin.WithNonblocking,
	maxBlocking:  dropin.WithMaxBlockingTasks,
	expiry:       dropin.WithExpiryDuration,
	panicHandler: dropin.WithPanicHandler,
}

// dropinCommon is the management surface of every drop-in pool type:
// ants', and Resize.
type dropinCommon interface {
	antsCommon
	Resize(n int) error
}

// dropinControl is antsControl with the drop-in's Resize.
type dropinControl struct {
	antsControl
	r dropinCommon
}

func newDropinControl(p dropinCommon) dropinControl { return dropinControl{antsControl{p}, p} }

// Resize calls the drop-in's Resize: a size below 1 (for a multi-pool,
// below its number of sub-pools) is an error matching
// resize.ErrInvalidSize, a released pool resize.ErrClosed, and either way
// nothing changes.
func (d dropinControl) Resize(n int) error { return d.r.Resize(n) }

var _ resize.Resizer = dropinControl{}

// dropinPoolCommon is what the drop-in's single pools (not the
// multi-pools) have beyond dropinCommon: Stats.
type dropinPoolCommon interface {
	dropinCommon
	Stats() pool.Stats
}

// dropinPoolControl is dropinControl with Completed.
type dropinPoolControl struct {
	dropinControl
	s dropinPoolCommon
}

func newDropinPoolControl(p dropinPoolCommon) dropinPoolControl {
	return dropinPoolControl{newDropinControl(p), p}
}

// Completed returns how many tasks have finished, from Stats.
func (d dropinPoolControl) Completed() uint64 { return d.s.Stats().Completed }

// PoolkitAnts is the drop-in's Pool.
type PoolkitAnts struct {
	dropinPoolControl
	p *dropin.Pool
}

// NewPoolkitAnts returns a drop-in Pool of the given size.
func NewPoolkitAnts(c spectest.Config) (*PoolkitAnts, error) {
	p, err := dropin.NewPool(c.Size, dropinOpts.of(c)...)
	if err != nil {
		return nil, err
	}
	return &PoolkitAnts{newDropinPoolControl(p), p}, nil
}

// Supports reports which Config fields the drop-in honours: all of them.
func (*PoolkitAnts) Supports(spectest.Capability) bool { return true }

// Submit calls Pool.Submit.
func (d *PoolkitAnts) Submit(task func()) error { return d.p.Submit(task) }

// PoolkitAntsFuncAny is the drop-in's PoolWithFunc, whose arguments are of
// type any.
type PoolkitAntsFuncAny struct {
	dropinPoolControl
	p *dropin.PoolWithFunc
}

// NewPoolkitAntsFuncAny returns a drop-in PoolWithFunc of the given size
// whose function calls its argument.
func NewPoolkitAntsFuncAny(c spectest.Config) (*PoolkitAntsFuncAny, error) {
	p, err := dropin.NewPoolWithFunc(c.Size, callArg, dropinOpts.of(c)...)
	if err != nil {
		return nil, err
	}
	return &PoolkitAntsFuncAny{newDropinPoolControl(p), p}, nil
}

// Supports reports which Config fields the drop-in honours: all of them.
func (*PoolkitAntsFuncAny) Supports(spectest.Capability) bool { return true }

// Submit calls Invoke with the task as argument, and a nil task as a nil
// argument.
func (d *PoolkitAntsFuncAny) Submit(task func()) error { return d.p.Invoke(taskArg(task)) }

// PoolkitAntsFunc is the drop-in's PoolWithFuncGeneric, invoked with func()
// arguments.
type PoolkitAntsFunc struct {
	dropinPoolControl
	p *dropin.PoolWithFuncGeneric[func()]
}

// NewPoolkitAntsFunc returns a drop-in PoolWithFuncGeneric of the given size
// whose function calls its argument.
func NewPoolkitAntsFunc(c spectest.Config) (*PoolkitAntsFunc, error) {
	p, err := dropin.NewPoolWithFuncGeneric(c.Size, func(f func()) { f() }, dropinOpts.of(c)...)
	if err != nil {
		return nil, err
	}
	return &PoolkitAntsFunc{newDropinPoolControl(p), p}, nil
}

// Supports reports which Config fields the drop-in honours: all of them.
func (*PoolkitAntsFunc) Supports(spectest.Capability) bool { return true }

// Submit calls Invoke with the task as argument; a nil task is passed on
// like any other argument.
func (d *PoolkitAntsFunc) Submit(task func()) error { return d.p.Invoke(task) }

// dropinMultiSplit splits a total size n over the sub-pools of a drop-in
// multi-pool: two sub-pools of n/2 when n is even, as antsMultiSplit does,
// else one sub-pool of n. A size below 1 makes one sub-pool of that size.
//
// The drop-in's Resize(n) sets the total capacity and refuses n below the
// number of sub-pools, since each keeps at least one slot. ants' split of
// an odd n into n sub-pools of 1 would make every shrink of such a pool an
// error; one sub-pool keeps every resize of an odd-sized pool valid, and
// even sizes still spread the capacity over two sub-pools, which a
// Resize(1) cannot do (the clauses that shrink a pool of 2 or 4 to 1 fail
// on that refusal, a known divergence).
func dropinMultiSplit(size int) (pools, per int) {
	if size >= 2 && size%2 == 0 {
		return 2, size / 2
	}
	return 1, size
}

// PoolkitAntsMulti is the drop-in's MultiPool with round-robin balancing.
// A pool of even size n has two sub-pools of n/2, one of odd size n one
// sub-pool of n (see dropinMultiSplit for why). Cap and Resize are the
// drop-in's: the total over the sub-pools, so Resize(1) on a pool of two
// sub-pools is refused with resize.ErrInvalidSize.
type PoolkitAntsMulti struct {
	dropinControl
	p *dropin.MultiPool
}

// NewPoolkitAntsMulti returns a drop-in MultiPool of total size c.Size.
func NewPoolkitAntsMulti(c spectest.Config) (*PoolkitAntsMulti, error) {
	pools, per := dropinMultiSplit(c.Size)
	p, err := dropin.NewMultiPool(pools, per, dropin.RoundRobin, dropinOpts.of(c)...)
	if err != nil {
		return nil, err
	}
	return &PoolkitAntsMulti{newDropinControl(p), p}, nil
}

// Supports reports which Config fields the drop-in honours: all of them.
func (*PoolkitAntsMulti) Supports(spectest.Capability) bool { return true }

// Submit calls MultiPool.Submit.
func (d *PoolkitAntsMulti) Submit(task func()) error { return d.p.Submit(task) }

// PoolkitAntsMultiFunc is the drop-in's MultiPoolWithFunc, whose
// arguments are of type any, split and resized as PoolkitAntsMulti is.
type PoolkitAntsMultiFunc struct {
	dropinControl
	p *dropin.MultiPoolWithFunc
}

// NewPoolkitAntsMultiFunc returns a drop-in MultiPoolWithFunc of total
// size c.Size whose function calls its argument.
func NewPoolkitAntsMultiFunc(c spectest.Config) (*PoolkitAntsMultiFunc, error) {
	pools, per := dropinMultiSplit(c.Size)
	p, err := dropin.NewMultiPoolWithFunc(pools, per, callArg, dropin.RoundRobin, dropinOpts.of(c)...)
	if err != nil {
		return nil, err
	}
	return &PoolkitAntsMultiFunc{newDropinControl(p), p}, nil
}

// Supports reports which Config fields the drop-in honours: all of them.
func (*PoolkitAntsMultiFunc) Supports(spectest.Capability) bool { return true }

// Submit calls Invoke with the task as argument, and a nil task as a nil
// argument.
func (d *PoolkitAntsMultiFunc) Submit(task func()) error { return d.p.Invoke(taskArg(task)) }
