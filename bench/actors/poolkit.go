package actors

import (
	"context"
	"time"

	"github.com/poolkit/poolkit/actorpool"
)

// poolkitSystem adapts actorpool: an actor owns no goroutine, its turns
// run on the system's fixed set of workers.
type poolkitSystem struct{ sys *actorpool.System }

// Poolkit is actorpool with its defaults.
func Poolkit() Contender {
	return Contender{Name: "poolkit", New: func() (System, error) { return NewPoolkit() }}
}

// NewPoolkit starts an actorpool system with the given options (the
// default: GOMAXPROCS workers, budget 32, unbounded mailboxes).
func NewPoolkit(opts ...actorpool.Option) (System, error) {
	sys, err := actorpool.New(opts...)
	if err != nil {
		return nil, err
	}
	return &poolkitSystem{sys}, nil
}

// poolkitActor carries the adapter's context, so that handing it to the
// handler allocates nothing per message.
type poolkitActor struct {
	h   Handler
	ctx poolkitCtx
}

type poolkitCtx struct{ c *actorpool.Context }

func (a *poolkitActor) Receive(c *actorpool.Context, msg any) {
	a.ctx.c = c
	a.h(&a.ctx, msg)
}

func (c *poolkitCtx) Self() Ref            { return c.c.Self() }
func (c *poolkitCtx) Tell(to Ref, msg any) { _ = c.c.Tell(to.(actorpool.Ref), msg) }
func (c *poolkitCtx) Respond(v any)        { _ = c.c.Respond(v) }

func (s *poolkitSystem) Spawn(h Handler) (Ref, error) {
	a := &poolkitActor{h: h}
	ref, err := s.sys.Spawn(func() actorpool.Behavior { return a })
	if err != nil {
		return nil, err
	}
	return ref, nil
}

func (s *poolkitSystem) Tell(to Ref, msg any) error { return to.(actorpool.Ref).Tell(msg) }

func (s *poolkitSystem) Ask(ctx context.Context, to Ref, msg any) (any, error) {
	return to.(actorpool.Ref).Ask(ctx, msg)
}

// NewRouter uses actorpool's Router, which routes on the sender's
// goroutine.
func (s *poolkitSystem) NewRouter(size int) (Ref, error) {
	r, err := actorpool.NewRouter(s.sys, size, func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(_ *actorpool.Context, msg any) { msg.(Job).Do() })
	})
	if err != nil {
		return nil, err
	}
	return r.Ref(), nil
}

func (s *poolkitSystem) Route(router Ref, job Job) error { return router.(actorpool.Ref).Tell(job) }

func (s *poolkitSystem) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return s.sys.Shutdown(ctx)
}

// startPoolkit starts an actorpool system for one run of a workload that
// is poolkit's alone, and shuts it down when the run ends.
func startPoolkit(b B, opts ...actorpool.Option) *actorpool.System {
	sys, err := actorpool.New(opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		b.StopTimer()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := sys.Shutdown(ctx); err != nil {
			b.Error(err)
		}
	})
	return sys
}
