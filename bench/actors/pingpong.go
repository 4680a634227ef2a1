package actors

import (
	"runtime"
	"time"
)

// ball is a ping-pong message; it carries its reply address, the way
// protoactor's own in-process benchmark does, so that no library's sender
// machinery is on the path.
type ball struct{ from Ref }

// PingPong runs GOMAXPROCS x 2 ping/pong pairs, each with inflight
// messages bouncing between its two actors. One op is one message handled
// (a round trip is two).
func PingPong(c Contender, inflight int) Workload {
	return func(b B, n int) {
		sys := start(b, c)
		pairs := 2 * runtime.GOMAXPROCS(0)
		trips := max(1, n/(2*pairs)) // round trips per pair
		k := min(inflight, trips)
		done := newCountdown(int64(pairs))
		type pair struct {
			pong  Ref
			balls []*ball
		}
		ps := make([]pair, pairs)
		for i := range ps {
			pong := spawn(b, sys, func(c Ctx, msg any) {
				bl := msg.(*ball)
				c.Tell(bl.from, bl)
			})
			sent, got := k, 0
			ping := spawn(b, sys, func(c Ctx, msg any) {
				got++
				if sent < trips {
					sent++
					c.Tell(pong, msg)
				}
				if got == trips {
					done.Do()
				}
			})
			ps[i] = pair{pong: pong}
			for range k {
				ps[i].balls = append(ps[i].balls, &ball{from: ping})
			}
		}
		b.ReportAllocs()
		b.ResetTimer()
		t0 := time.Now()
		for _, p := range ps {
			for _, bl := range p.balls {
				if err := sys.Tell(p.pong, bl); err != nil {
					b.Fatal(err)
				}
			}
		}
		if !done.wait(stuck) {
			b.Fatalf("%d of %d pairs did not finish", done.left.Load(), pairs)
		}
		elapsed := time.Since(t0)
		b.StopTimer()
		reportRate(b, int64(2*trips*pairs), elapsed)
	}
}
