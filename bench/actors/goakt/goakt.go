// Package goakt adds GoAkt to the actor comparison.
package goakt

import (
	"context"
	"strconv"
	"sync/atomic"
	"time"

	goakt "github.com/tochemey/goakt/v4/actor"
	"github.com/tochemey/goakt/v4/log"

	"github.com/poolkit/poolkit/bench/actors"
)

// goaktSystem adapts GoAkt v4 with its dispatcher (a fixed set of worker
// goroutines running actors' turns, budget 32) and unbounded mailboxes.
// Actors are spawned long-lived, so that none is passivated mid-run.
type goaktSystem struct {
	sys   goakt.ActorSystem
	names atomic.Uint64
}

// Contender is GoAkt.
func Contender() actors.Contender { return actors.Contender{Name: "goakt", New: New} }

// New starts a local GoAkt system that logs nothing.
func New() (actors.System, error) {
	sys, err := goakt.NewActorSystem("bench", goakt.WithLogger(log.DiscardLogger))
	if err != nil {
		return nil, err
	}
	if err := sys.Start(context.Background()); err != nil {
		return nil, err
	}
	return &goaktSystem{sys: sys}, nil
}

type goaktActor struct {
	h   actors.Handler
	ctx goaktCtx
}

type goaktCtx struct{ c *goakt.ReceiveContext }

func (a *goaktActor) PreStart(*goakt.Context) error { return nil }
func (a *goaktActor) PostStop(*goakt.Context) error { return nil }

// Receive hides GoAkt's PostStart message from the handler.
func (a *goaktActor) Receive(c *goakt.ReceiveContext) {
	msg := c.Message()
	if _, ok := msg.(*goakt.PostStart); ok {
		return
	}
	a.ctx.c = c
	a.h(&a.ctx, msg)
}

func (c *goaktCtx) Self() actors.Ref            { return c.c.Self() }
func (c *goaktCtx) Tell(to actors.Ref, msg any) { c.c.Tell(to.(*goakt.PID), msg) }
func (c *goaktCtx) Respond(v any)               { c.c.Response(v) }

// name gives every actor the unique name GoAkt requires.
func (s *goaktSystem) name() string { return "a" + strconv.FormatUint(s.names.Add(1), 10) }

func (s *goaktSystem) Spawn(h actors.Handler) (actors.Ref, error) {
	pid, err := s.sys.Spawn(context.Background(), s.name(), &goaktActor{h: h}, goakt.WithLongLived())
	if err != nil {
		return nil, err
	}
	return pid, nil
}

func (s *goaktSystem) Tell(to actors.Ref, msg any) error {
	return goakt.Tell(context.Background(), to.(*goakt.PID), msg)
}

func (s *goaktSystem) Ask(ctx context.Context, to actors.Ref, msg any) (any, error) {
	return goakt.Ask(ctx, to.(*goakt.PID), msg, actors.AskTimeout)
}

// goaktRoutee is a router worker: GoAkt makes each one from this type's
// zero value.
type goaktRoutee struct{}

func (goaktRoutee) PreStart(*goakt.Context) error { return nil }
func (goaktRoutee) PostStop(*goakt.Context) error { return nil }
func (goaktRoutee) Receive(c *goakt.ReceiveContext) {
	if j, ok := c.Message().(actors.Job); ok {
		j.Do()
	}
}

// NewRouter is GoAkt's router with the round-robin strategy. The router is
// an actor: every message queues through its mailbox before a routee's.
func (s *goaktSystem) NewRouter(size int) (actors.Ref, error) {
	pid, err := s.sys.SpawnRouter(context.Background(), s.name(), size, &goaktRoutee{},
		goakt.WithRoutingStrategy(goakt.RoundRobinRouting))
	if err != nil {
		return nil, err
	}
	return pid, nil
}

// Route wraps the job in the Broadcast envelope GoAkt's router requires.
func (s *goaktSystem) Route(r actors.Ref, job actors.Job) error {
	return goakt.Tell(context.Background(), r.(*goakt.PID), goakt.NewBroadcast(job))
}

func (s *goaktSystem) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return s.sys.Stop(ctx)
}
