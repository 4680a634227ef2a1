package actors_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/poolkit/poolkit/bench/actors"
	"github.com/poolkit/poolkit/bench/actors/goakt"
	"github.com/poolkit/poolkit/bench/actors/protoactor"
)

// contenders is every library of this module, poolkit first: the ratios
// are to it. GoAkt runs from its own module (see package goakt).
var contenders = []actors.Contender{actors.Poolkit(), protoactor.Contender(), goakt.Contender()}

func BenchmarkPingPong(b *testing.B)   { actors.BenchPingPong(b, contenders) }
func BenchmarkAsk(b *testing.B)        { actors.BenchAsk(b, contenders) }
func BenchmarkFanIn(b *testing.B)      { actors.BenchFanIn(b, contenders) }
func BenchmarkFanOut(b *testing.B)     { actors.BenchFanOut(b, contenders) }
func BenchmarkRouter(b *testing.B)     { actors.BenchRouter(b, contenders) }
func BenchmarkBudget(b *testing.B)     { actors.BenchBudget(b) }
func BenchmarkSerializer(b *testing.B) { actors.BenchSerializer(b) }

// TestSmoke runs every workload once, tiny, over every contender.
func TestSmoke(t *testing.T) { actors.Smoke(t, contenders, true) }

// TestMain checks that no run leaves a goroutine behind: poolkit's and
// protoactor's systems both stop every actor they started. GoAkt v4.2.1
// leaves goroutines of its own behind, and those two, only those, are
// ignored: one per stopped system (drainCoalescedFailures, started by
// Start and never stopped by Stop), and, now and then, an actor's
// supervision loop (startSupervision's goroutine waits on a stop signal
// that stopSupervisionLoop drops when one is already queued: seen in CI
// after the router workload, 4 at once).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreCurrent(),
		goleak.IgnoreTopFunction("github.com/tochemey/goakt/v4/actor.(*actorSystem).drainCoalescedFailures"),
		goleak.IgnoreTopFunction("github.com/tochemey/goakt/v4/actor.(*PID).startSupervision.func1"))
}
