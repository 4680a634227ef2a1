package actors

import (
	"fmt"
	"runtime"
)

// FanIn has GOMAXPROCS goroutines tell one actor as fast as they can:
// contention on one mailbox, and how fast one actor drains it. One op is
// one message handled.
func FanIn(c Contender) Workload {
	return func(b B, n int) {
		sys := start(b, c)
		producers := runtime.GOMAXPROCS(0)
		per := max(1, n/producers)
		total := per * producers
		done := newCountdown(1)
		got := 0
		sink := spawn(b, sys, func(Ctx, any) {
			got++
			if got == total {
				done.Do()
			}
		})
		elapsed := produce(b, producers, per, func() error { return sys.Tell(sink, tok) }, done,
			fmt.Sprintf("the actor did not handle all %d messages", total))
		reportRate(b, int64(total), elapsed)
	}
}
