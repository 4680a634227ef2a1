package actors

import (
	"runtime"
	"sync"
	"time"
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
		var wg sync.WaitGroup
		b.ReportAllocs()
		b.ResetTimer()
		t0 := time.Now()
		for range producers {
			wg.Go(func() {
				for range per {
					if err := sys.Tell(sink, tok); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if !done.wait(stuck) {
			b.Fatalf("the actor did not handle all %d messages", total)
		}
		elapsed := time.Since(t0)
		b.StopTimer()
		reportRate(b, int64(total), elapsed)
	}
}
