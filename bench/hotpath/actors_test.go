package hotpath

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/poolkit/poolkit/actorpool"
)

// newSystem starts an actor system with its defaults, shut down (and
// waited for) when the benchmark run ends.
func newSystem(b *testing.B) *actorpool.System {
	sys, err := actorpool.New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		b.StopTimer()
		ctx, cancel := context.WithTimeout(context.Background(), stuck)
		defer cancel()
		if err := sys.Shutdown(ctx); err != nil {
			b.Errorf("shutdown: %v", err)
		}
	})
	return sys
}

// spawn starts an actor that runs f for each message.
func spawn(b *testing.B, sys *actorpool.System, f actorpool.BehaviorFunc) actorpool.Ref {
	ref, err := sys.Spawn(func() actorpool.Behavior { return f })
	if err != nil {
		b.Fatal(err)
	}
	return ref
}

// produce has producers goroutines call send per times each, and waits
// until cd reaches zero. The timer covers the sends and the wait.
func produce(b *testing.B, producers, per int, send func() error, cd *countdown, what string) {
	var wg sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	for range producers {
		wg.Go(func() {
			for range per {
				if err := send(); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	await(b, cd.done, what)
	b.StopTimer()
}

// BenchmarkRouter: producers goroutines tell jobs to a round-robin router
// of workers actors, each of which counts the jobs it handles. Routing
// runs on the sender's goroutine. One op is one job handled.
func BenchmarkRouter(b *testing.B) {
	for _, c := range []struct{ producers, workers int }{{1, 2}, {1, 4}, {1, 8}, {1, 16}, {2, 4}, {16, 16}} {
		b.Run(fmt.Sprintf("producers=%d/workers=%d", c.producers, c.workers), func(b *testing.B) {
			sys := newSystem(b)
			r, err := actorpool.NewRouter(sys, c.workers, func() actorpool.Behavior {
				return actorpool.BehaviorFunc(func(_ *actorpool.Context, msg any) { msg.(*countdown).Do() })
			})
			if err != nil {
				b.Fatal(err)
			}
			ref := r.Ref()
			// A round that reaches every worker, so that all have started.
			warm := newCountdown(c.workers)
			for range c.workers {
				if err := ref.Tell(warm); err != nil {
					b.Fatal(err)
				}
			}
			await(b, warm.done, "the router's workers did not start")
			per := max(1, b.N/c.producers)
			cd := newCountdown(per * c.producers)
			produce(b, c.producers, per, func() error { return ref.Tell(cd) }, cd,
				fmt.Sprintf("%d of %d jobs not handled", cd.left.Load(), per*c.producers))
		})
	}
}

// ball is the message two actors bounce: the number of hops left, and the
// actor the other one sends it back to.
type ball struct {
	left int
	back actorpool.Ref
	done chan struct{}
}

// BenchmarkPingPong: two actors bounce one message between them. One op
// is one message handled (a round trip is two).
func BenchmarkPingPong(b *testing.B) {
	sys := newSystem(b)
	// hit handles the ball: the last hop closes done, any other sends it
	// on. The ball is handled by one actor at a time, so it needs no lock.
	hit := func(c *actorpool.Context, bl *ball, to actorpool.Ref) {
		bl.left--
		if bl.left == 0 {
			close(bl.done)
			return
		}
		if err := c.Tell(to, bl); err != nil {
			b.Error(err)
		}
	}
	pong := spawn(b, sys, func(c *actorpool.Context, msg any) {
		bl := msg.(*ball)
		hit(c, bl, bl.back)
	})
	ping := spawn(b, sys, func(c *actorpool.Context, msg any) { hit(c, msg.(*ball), pong) })
	bl := &ball{left: b.N, back: ping, done: make(chan struct{})}
	b.ReportAllocs()
	b.ResetTimer()
	if err := ping.Tell(bl); err != nil {
		b.Fatal(err)
	}
	await(b, bl.done, "the ball stopped")
	b.StopTimer()
}

// token is the message of the fan-in: a pointer, so that telling it boxes
// nothing.
var token = new(struct{ _ byte })

// BenchmarkFanIn: GOMAXPROCS goroutines tell one actor as fast as they
// can: contention on one mailbox, and how fast one actor drains it. One
// op is one message handled.
func BenchmarkFanIn(b *testing.B) {
	sys := newSystem(b)
	producers := runtime.GOMAXPROCS(0)
	per := max(1, b.N/producers)
	cd := newCountdown(per * producers)
	sink := spawn(b, sys, func(*actorpool.Context, any) { cd.Do() })
	produce(b, producers, per, func() error { return sink.Tell(token) }, cd,
		fmt.Sprintf("the actor did not handle all %d messages", per*producers))
}

// BenchmarkAsk: one goroutine outside the system asks an echo actor, one
// request at a time: the round trip through the mailbox, the dispatcher
// and the reply, including parking and waking the asker. One op is one
// Ask.
func BenchmarkAsk(b *testing.B) {
	sys := newSystem(b)
	echo := spawn(b, sys, func(c *actorpool.Context, msg any) {
		if err := c.Respond(msg); err != nil {
			b.Error(err)
		}
	})
	ctx := context.Background()
	// The first Ask pays for starting the actor.
	if _, err := echo.Ask(ctx, token); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		v, err := echo.Ask(ctx, token)
		if err != nil {
			b.Fatal(err)
		}
		if v != any(token) {
			b.Fatalf("answer %v, want the message back", v)
		}
	}
	b.StopTimer()
}
