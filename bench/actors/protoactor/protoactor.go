// Package protoactor adds protoactor-go to the actor comparison.
package protoactor

import (
	"context"
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/router"

	"github.com/poolkit/poolkit/bench/actors"
)

// protoSystem adapts protoactor-go with its defaults: an unbounded
// mailbox per actor and the goroutine dispatcher, which starts a
// goroutine whenever an idle actor gets a message and lets it drain the
// mailbox (yielding to the Go scheduler every 300 messages).
type protoSystem struct {
	sys  *actor.ActorSystem
	root *actor.RootContext
}

// Contender is protoactor-go.
func Contender() actors.Contender { return actors.Contender{Name: "protoactor", New: New} }

// New starts a protoactor-go system that logs nothing.
func New() (actors.System, error) {
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	return &protoSystem{sys: sys, root: sys.Root}, nil
}

type protoActor struct {
	h   actors.Handler
	ctx protoCtx
}

type protoCtx struct{ c actor.Context }

// Receive hides protoactor's lifecycle messages from the handler.
func (a *protoActor) Receive(c actor.Context) {
	msg := c.Message()
	switch msg.(type) {
	case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
		return
	}
	a.ctx.c = c
	a.h(&a.ctx, msg)
}

func (c *protoCtx) Self() actors.Ref { return c.c.Self() }

// Tell uses Send, which carries no sender: the workloads put the reply
// address in the message, as protoactor's own in-process benchmark does.
func (c *protoCtx) Tell(to actors.Ref, msg any) { c.c.Send(to.(*actor.PID), msg) }
func (c *protoCtx) Respond(v any)               { c.c.Respond(v) }

func (s *protoSystem) Spawn(h actors.Handler) (actors.Ref, error) {
	a := &protoActor{h: h}
	return s.root.Spawn(actor.PropsFromProducer(func() actor.Actor { return a })), nil
}

func (s *protoSystem) Tell(to actors.Ref, msg any) error {
	s.root.Send(to.(*actor.PID), msg)
	return nil
}

// Ask is RequestFuture: protoactor bounds it by a timeout, not a context.
func (s *protoSystem) Ask(_ context.Context, to actors.Ref, msg any) (any, error) {
	return s.root.RequestFuture(to.(*actor.PID), msg, actors.AskTimeout).Result()
}

// NewRouter is a RoundRobinPool, which routes on the sender's goroutine.
func (s *protoSystem) NewRouter(size int) (actors.Ref, error) {
	return s.root.Spawn(router.NewRoundRobinPool(size, actor.WithFunc(func(c actor.Context) {
		if j, ok := c.Message().(actors.Job); ok {
			j.Do()
		}
	}))), nil
}

func (s *protoSystem) Route(r actors.Ref, job actors.Job) error {
	s.root.Send(r.(*actor.PID), job)
	return nil
}

// Close stops every actor in the registry (protoactor's Shutdown stops
// none) and then the system.
func (s *protoSystem) Close() error {
	for _, bucket := range s.sys.ProcessRegistry.LocalPIDs.LocalPIDs {
		for kv := range bucket.IterBuffered() {
			if _, ok := kv.Val.(*actor.ActorProcess); ok {
				s.root.Stop(s.sys.NewLocalPID(kv.Key))
			}
		}
	}
	s.sys.Shutdown()
	return nil
}
