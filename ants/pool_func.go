package ants

import (
	"context"

	"github.com/poolkit/poolkit/internal/engine"
	"github.com/poolkit/poolkit/resize"
)

// PoolWithFunc calls one function, fixed when it is built, on each argument
// given to Invoke, at most Cap() at once. Every argument is valid, nil
// included. Build one with NewPoolWithFunc.
type PoolWithFunc struct {
	poolCommon
	p *engine.Engine[any]
}

var _ resize.Resizer = (*PoolWithFunc)(nil)

// NewPoolWithFunc returns a pool that calls pf on each invoked argument,
// at most size at once. A nil pf is ErrLackPoolFunc; a size or option
// error is as for NewPool.
func NewPoolWithFunc(size int, pf func(any), options ...Option) (*PoolWithFunc, error) {
	p, cfg, err := newFuncPool(size, pf, options)
	if err != nil {
		return nil, err
	}
	d := &PoolWithFunc{p: p}
	d.init(p, cfg)
	return d, nil
}

// newFuncPool builds the engine of both pools with a function.
func newFuncPool[T any](size int, pf func(T), options []Option) (*engine.Engine[T], engineConfig, error) {
	if pf == nil {
		return nil, engineConfig{}, ErrLackPoolFunc
	}
	cfg, err := engineOptions(size, options)
	if err != nil {
		return nil, cfg, err
	}
	p := new(engine.Engine[T])
	p.Init(cfg.size, pf, cfg.engine)
	return p, cfg, nil
}

// Invoke runs the pool's function on arg, as Pool.Submit runs a task: it
// waits for a free worker or returns ErrPoolOverload or ErrPoolClosed. A
// nil arg is an argument like any other: the function is called with it.
func (p *PoolWithFunc) Invoke(arg any) error {
	if p.p == nil {
		return ErrPoolClosed
	}
	return p.p.Submit(context.Background(), arg)
}

// PoolWithFuncGeneric is PoolWithFunc with arguments of type T, which wait
// for a worker unboxed. Build one with NewPoolWithFuncGeneric.
type PoolWithFuncGeneric[T any] struct {
	poolCommon
	p *engine.Engine[T]
}

// NewPoolWithFuncGeneric returns a pool that calls pf on each invoked
// argument, at most size at once. A nil pf is ErrLackPoolFunc; a size or
// option error is as for NewPool.
func NewPoolWithFuncGeneric[T any](size int, pf func(T), options ...Option) (*PoolWithFuncGeneric[T], error) {
	p, cfg, err := newFuncPool(size, pf, options)
	if err != nil {
		return nil, err
	}
	d := &PoolWithFuncGeneric[T]{p: p}
	d.init(p, cfg)
	return d, nil
}

// Invoke runs the pool's function on arg, as PoolWithFunc.Invoke does. It
// allocates nothing.
func (p *PoolWithFuncGeneric[T]) Invoke(arg T) error {
	if p.p == nil {
		return ErrPoolClosed
	}
	return p.p.Submit(context.Background(), arg)
}
