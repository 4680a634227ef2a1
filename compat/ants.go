package compat

import (
	"context"
	"time"

	"github.com/panjf2000/ants/v2"

	"github.com/poolkit/poolkit/resize"
	"github.com/poolkit/poolkit/spectest"
)

// This file holds the adapters of ants v2 and what they share with those
// of poolkit's drop-in replacement for it (dropin.go): the two libraries
// have the same pool types, methods and options, of different types.

var (
	antsClosed   = []error{ants.ErrPoolClosed}
	antsOverload = []error{ants.ErrPoolOverload}
)

// antsOptionSet holds the option constructors of an ants-shaped library.
type antsOptionSet[O any] struct {
	nonblocking  func(bool) O
	maxBlocking  func(int) O
	expiry       func(time.Duration) O
	panicHandler func(func(any)) O
}

// of translates c into the library's options.
func (s antsOptionSet[O]) of(c spectest.Config) []O {
	opts := []O{s.nonblocking(c.Nonblocking), s.maxBlocking(c.MaxBlocking)}
	if c.Expiry > 0 {
		opts = append(opts, s.expiry(c.Expiry))
	}
	if c.PanicHandler != nil {
		opts = append(opts, s.panicHandler(c.PanicHandler))
	}
	return opts
}

var antsOpts = antsOptionSet[ants.Option]{
	nonblocking:  ants.WithNonblocking,
	maxBlocking:  ants.WithMaxBlockingTasks,
	expiry:       ants.WithExpiryDuration,
	panicHandler: ants.WithPanicHandler,
}

func antsOptions(c spectest.Config) []ants.Option { return antsOpts.of(c) }

// callArg is the function of the adapters' pools with func(any)
// arguments: it calls the task it is given as argument.
func callArg(arg any) { arg.(func())() }

// taskArg is the argument that carries task to such a pool: the task
// itself, or a nil argument (not a nil func in an interface) for a nil
// task, so that Submit(nil) exercises the library's handling of nil.
func taskArg(task func()) any {
	if task == nil {
		return nil
	}
	return task
}

// antsCommon is the management surface that every ants pool type has,
// and so every type of the drop-in replacement.
type antsCommon interface {
	Running() int
	Waiting() int
	Cap() int
	Tune(size int)
	IsClosed() bool
	ReleaseContext(ctx context.Context) error
	Reboot()
}

// antsControl adapts the management surface common to the ants pools; the
// drop-in's adapters share it (see dropinControl).
type antsControl struct{ p antsCommon }

// Resize calls Tune, which ants defines to ignore sizes below 1 and closed
// pools; the adapter reports that faithfully, as success.
func (a antsControl) Resize(n int) error { a.p.Tune(n); return nil }

// Cap returns the library's Cap.
func (a antsControl) Cap() int { return a.p.Cap() }

// Running returns the library's Running. ants' counts live workers, idle
// ones included, not running tasks; the drop-in's counts running tasks.
func (a antsControl) Running() int { return a.p.Running() }

// Waiting returns the library's Waiting: callers blocked in Submit.
func (a antsControl) Waiting() int { return a.p.Waiting() }

// Shutdown calls ReleaseContext. ants' returns ErrPoolClosed on a second
// call; that is mapped to the vocabulary, not hidden. The drop-in's errors
// are poolkit's already and pass through unchanged.
func (a antsControl) Shutdown(ctx context.Context) error {
	return translate(a.p.ReleaseContext(ctx), antsClosed, nil)
}

// Reboot calls the library's Reboot, which reopens a released pool after
// waiting for its workers to exit (a MultiPool reboots each sub-pool in
// turn).
func (a antsControl) Reboot() { a.p.Reboot() }

var _ resize.Resizer = antsControl{}

// Ants is ants' Pool.
type Ants struct {
	antsControl
	p *ants.Pool
}

// NewAnts returns an ants Pool of the given size (ants treats a size below
// 1 as unlimited).
func NewAnts(c spectest.Config) (*Ants, error) {
	p, err := ants.NewPool(c.Size, antsOptions(c)...)
	if err != nil {
		return nil, err
	}
	return &Ants{antsControl{p}, p}, nil
}

// Supports reports which Config fields ants honours: all of them.
func (*Ants) Supports(spectest.Capability) bool { return true }

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
func NewAntsFunc(c spectest.Config) (*AntsFunc, error) {
	p, err := ants.NewPoolWithFuncGeneric(c.Size, func(f func()) { f() }, antsOptions(c)...)
	if err != nil {
		return nil, err
	}
	return &AntsFunc{antsControl{p}, p}, nil
}

// Supports reports which Config fields ants honours: all of them.
func (*AntsFunc) Supports(spectest.Capability) bool { return true }

// Submit calls Invoke with the task as argument; a nil task is passed on
// like any other argument.
func (a *AntsFunc) Submit(task func()) error {
	return translate(a.p.Invoke(task), antsClosed, antsOverload)
}

// AntsFuncAny is ants' PoolWithFunc, whose arguments are of type any.
type AntsFuncAny struct {
	antsControl
	p *ants.PoolWithFunc
}

// NewAntsFuncAny returns an ants PoolWithFunc of the given size whose
// function calls its argument.
func NewAntsFuncAny(c spectest.Config) (*AntsFuncAny, error) {
	p, err := ants.NewPoolWithFunc(c.Size, callArg, antsOptions(c)...)
	if err != nil {
		return nil, err
	}
	return &AntsFuncAny{antsControl{p}, p}, nil
}

// Supports reports which Config fields ants honours: all of them.
func (*AntsFuncAny) Supports(spectest.Capability) bool { return true }

// Submit calls Invoke with the task as argument, and a nil task as a nil
// argument.
func (a *AntsFuncAny) Submit(task func()) error {
	return translate(a.p.Invoke(taskArg(task)), antsClosed, antsOverload)
}

// antsMultiSplit splits a total size n over the sub-pools of an ants
// MultiPool, which are all built with the same size: two sub-pools of n/2
// when n is even, else n sub-pools of 1, so that Cap starts at n. A size
// below 1 makes one sub-pool of that size.
func antsMultiSplit(size int) (pools, per int) {
	switch {
	case size < 1:
		return 1, size
	case size%2 == 0:
		return 2, size / 2
	default:
		return size, 1
	}
}

// AntsMulti is ants' MultiPool with round-robin balancing, its size split
// by antsMultiSplit. Resize passes n to MultiPool.Tune, which ants applies
// to every sub-pool.
type AntsMulti struct {
	antsControl
	p *ants.MultiPool
}

// NewAntsMulti returns an ants MultiPool of total size c.Size.
func NewAntsMulti(c spectest.Config) (*AntsMulti, error) {
	pools, per := antsMultiSplit(c.Size)
	p, err := ants.NewMultiPool(pools, per, ants.RoundRobin, antsOptions(c)...)
	if err != nil {
		return nil, err
	}
	return &AntsMulti{antsControl{p}, p}, nil
}

// Supports reports which Config fields ants honours: all of them.
func (*AntsMulti) Supports(spectest.Capability) bool { return true }

// Submit calls MultiPool.Submit.
func (a *AntsMulti) Submit(task func()) error {
	return translate(a.p.Submit(task), antsClosed, antsOverload)
}

// AntsMultiFunc is ants' MultiPoolWithFunc, whose arguments are of type
// any, with round-robin balancing, split and resized as AntsMulti is.
type AntsMultiFunc struct {
	antsControl
	p *ants.MultiPoolWithFunc
}

// NewAntsMultiFunc returns an ants MultiPoolWithFunc of total size c.Size whose
// function calls its argument.
func NewAntsMultiFunc(c spectest.Config) (*AntsMultiFunc, error) {
	pools, per := antsMultiSplit(c.Size)
	p, err := ants.NewMultiPoolWithFunc(pools, per, callArg, ants.RoundRobin, antsOptions(c)...)
	if err != nil {
		return nil, err
	}
	return &AntsMultiFunc{antsControl{p}, p}, nil
}

// Supports reports which Config fields ants honours: all of them.
func (*AntsMultiFunc) Supports(spectest.Capability) bool { return true }

// Submit calls Invoke with the task as argument, and a nil task as a nil
// argument.
func (a *AntsMultiFunc) Submit(task func()) error {
	return translate(a.p.Invoke(taskArg(task)), antsClosed, antsOverload)
}
