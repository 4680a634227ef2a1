package actors

import (
	"context"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Ask asks one echo actor from one goroutine, one request at a time: the
// round trip through the mailbox, the dispatcher and the reply path,
// including parking and waking the asker. One op is one Ask; the p50 and
// p99 metrics are of single round trips.
func Ask(c Contender) Workload {
	return func(b B, n int) {
		sys := start(b, c)
		echo := spawn(b, sys, func(c Ctx, msg any) { c.Respond(msg) })
		ask := func(ctx context.Context) error {
			v, err := sys.Ask(ctx, echo, tok)
			if err == nil && v != tok {
				b.Errorf("answer %v, want the message back", v)
			}
			return err
		}
		// The first Ask pays for starting the actor.
		if err := ask(context.Background()); err != nil {
			b.Fatal(err)
		}
		h := askLoop(b, n, 1, ask)
		reportQuantiles(b, h, "")
	}
}

// askLoop makes n calls of ask, split over customers goroutines, timed
// (the timer is reset first and stopped after), and returns the latencies
// of every call.
func askLoop(b B, n, customers int, ask func(context.Context) error) *hdrhistogram.Histogram {
	hs := make([]*hdrhistogram.Histogram, customers)
	for i := range hs {
		hs[i] = newHistogram()
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	for i := range customers {
		calls := n / customers
		if i < n%customers {
			calls++
		}
		wg.Go(func() {
			h := hs[i]
			for range calls {
				t0 := time.Now()
				err := ask(ctx)
				record(h, time.Since(t0))
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	all := newHistogram()
	for _, h := range hs {
		all.Merge(h)
	}
	return all
}
