package actorpool_test

import (
	"context"
	"errors"
	"testing"

	"github.com/poolkit/poolkit/actorpool"
)

// TestAskFromInsideATurn: ACT-15. An Ask made from inside a turn of its
// own system never waits on the worker its turn holds: to the caller's own
// actor it fails with ErrInsideTask (the message is handled after the turn);
// to another actor of a system with no free worker it runs the queued
// turns in the caller's slot until its answer comes, through routers,
// serializers and nested Asks alike.
func TestAskFromInsideATurn(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), failBound)
	defer cancel()
	s := newSystem(t, actorpool.WithWorkers(1))
	echo := spawn(t, s, func(c *actorpool.Context, msg any) { _ = c.Respond(msg) })
	router, err := actorpool.NewRouter(s, 2, func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) { _ = c.Respond(msg) })
	})
	if err != nil {
		t.Fatal(err)
	}
	ser, err := actorpool.NewSerializer(s, echo)
	if err != nil {
		t.Fatal(err)
	}
	// middle asks echo from its own handler: a nested Ask.
	middle := spawn(t, s, func(c *actorpool.Context, msg any) {
		v, err := echo.Ask(ctx, msg)
		if err != nil {
			v = err
		}
		_ = c.Respond(v)
	})
	handled := make(chan any, 1)
	var self actorpool.Ref
	self = spawn(t, s, func(c *actorpool.Context, msg any) {
		if msg == "again" {
			handled <- msg
			return
		}
		_, err := self.Ask(ctx, "again")
		_ = c.Respond(err)
	})
	for name, c := range map[string]struct {
		to   actorpool.Ref
		want any
	}{
		"another actor":     {echo, "hello"},
		"a router":          {router.Ref(), "hello"},
		"a serializer":      {ser.Ref(), "hello"},
		"a nested Ask":      {middle, "hello"},
		"the caller itself": {self, actorpool.ErrInsideTask},
	} {
		c := c
		asker := spawn(t, s, func(cx *actorpool.Context, msg any) {
			if c.to == self {
				v, err := c.to.Ask(ctx, "start")
				_ = cx.Respond([2]any{v, err})
				return
			}
			v, err := c.to.Ask(ctx, msg)
			_ = cx.Respond([2]any{v, err})
		})
		got, err := asker.Ask(ctx, "hello")
		if err != nil {
			t.Fatalf("%s: the outer Ask: %v", name, err)
		}
		pair := got.([2]any)
		if c.to == self {
			// The asker asked self, whose handler asked itself.
			if inner, _ := pair[0].(error); !errors.Is(inner, actorpool.ErrInsideTask) {
				t.Errorf("an Ask to the caller's own actor from its handler: %v, want ErrInsideTask", pair)
			}
			wait(t, chanOf(handled), "the message the self-Ask sent")
			continue
		}
		if pair[0] != c.want || pair[1] != nil {
			t.Errorf("an Ask from a handler to %s on a system of one worker: %v, %v; want %v, nil", name, pair[0], pair[1], c.want)
		}
	}
}

// chanOf turns a channel of values into one that closes when a value comes.
func chanOf(ch <-chan any) <-chan struct{} {
	done := make(chan struct{})
	go func() { <-ch; close(done) }()
	return done
}

// TestSelfAskWithFreeWorkers: ACT-15. An actor that asks itself from its
// handler fails with ErrInsideTask even while the system has free workers
// (none of them can run the actor's next turn while this one runs), from
// its handler and from its lifecycle hooks' turn alike.
func TestSelfAskWithFreeWorkers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), failBound)
	defer cancel()
	s := newSystem(t, actorpool.WithWorkers(4))
	var self actorpool.Ref
	handled := make(chan any, 1)
	self = spawn(t, s, func(c *actorpool.Context, msg any) {
		if msg == "again" {
			handled <- msg
			return
		}
		_, err := self.Ask(ctx, "again")
		_ = c.Respond(err)
	})
	got, err := self.Ask(ctx, "start")
	if err != nil {
		t.Fatalf("the outer Ask: %v", err)
	}
	if inner, _ := got.(error); !errors.Is(inner, actorpool.ErrInsideTask) {
		t.Errorf("an actor's Ask to itself from its handler, 3 workers free: %v, want ErrInsideTask", got)
	}
	wait(t, chanOf(handled), "the message the self-Ask sent")
}
