package actors

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/poolkit/poolkit/actorpool"
)

// Budget workload shape: one hot actor that always has hotBacklog
// messages queued, and coldActors actors asked one request at a time by
// coldCustomers goroutines. Every handler does about handlerWork spin rounds of work.
const (
	hotBacklog    = 256
	coldActors    = 1000
	coldCustomers = 4
	handlerWork   = 50 // spin rounds, about 0.5 µs
)

// Budget measures what poolkit's turn budget trades: with one worker, a
// cold actor that gets a message waits in the engine's queue behind the
// hot actor's turn, which handles up to budget messages before it yields.
// A small budget keeps cold actors' latency low; a large one costs the hot
// actor fewer reschedules. One op is one cold request; the metrics are the
// cold requests' p50 and p99 latency and the hot actor's throughput.
func Budget(budget int) Workload {
	return func(b B, n int) {
		sys := startPoolkit(b, actorpool.WithBudget(budget), actorpool.WithWorkers(1))
		var stop atomic.Bool
		var hot atomic.Int64
		hotRef, err := sys.Spawn(func() actorpool.Behavior {
			return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) {
				runtime.KeepAlive(spin(handlerWork)) // the work must not be optimised away
				hot.Add(1)
				if !stop.Load() {
					_ = c.Tell(c.Self(), msg)
				}
			})
		})
		if err != nil {
			b.Fatal(err)
		}
		cold := make([]actorpool.Ref, coldActors)
		for i := range cold {
			cold[i], err = sys.Spawn(func() actorpool.Behavior {
				return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) {
					runtime.KeepAlive(spin(handlerWork)) // the work must not be optimised away
					_ = c.Respond(msg)
				})
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		for range hotBacklog {
			if err := hotRef.Tell(tok); err != nil {
				b.Fatal(err)
			}
		}
		var next atomic.Uint64
		h0, t0 := hot.Load(), time.Now()
		h := askLoop(b, n, coldCustomers, func(ctx context.Context) error {
			_, err := cold[next.Add(1)%coldActors].Ask(ctx, tok)
			return err
		})
		elapsed := time.Since(t0)
		stop.Store(true)
		reportQuantiles(b, h, "cold-")
		b.ReportMetric(float64(hot.Load()-h0)/elapsed.Seconds(), "hot-msg/s")
	}
}
