package actors

import (
	"fmt"
	"runtime"
	"sync"
	"time"
)

// RouterWorkers are the sizes of the routers measured: from one worker per
// core to eight.
func RouterWorkers() []int {
	n := runtime.GOMAXPROCS(0)
	return []int{n, 2 * n, 4 * n, 8 * n}
}

// Router has producers goroutines send jobs through a round-robin pool
// router of the given number of workers, each job a countdown tick. A
// router that is itself an actor puts one mailbox in front of all its
// workers; one that routes on the sender's goroutine does not. One op is
// one job handled.
func Router(c Contender, producers, workers int) Workload {
	return func(b B, n int) {
		sys := start(b, c)
		r, err := sys.NewRouter(workers)
		if err != nil {
			b.Fatal(err)
		}
		// A round that reaches every worker, so that all have started.
		warm := newCountdown(int64(workers))
		for range workers {
			if err := sys.Route(r, warm); err != nil {
				b.Fatal(err)
			}
		}
		if !warm.wait(stuck) {
			b.Fatal("the router's workers did not start")
		}
		per := max(1, n/producers)
		total := per * producers
		cd := newCountdown(int64(total))
		elapsed := produce(b, producers, per, func() error { return sys.Route(r, cd) }, cd,
			fmt.Sprintf("jobs were not handled (of %d)", total))
		reportRate(b, int64(total), elapsed)
	}
}

// produce has producers goroutines call send per times each, timed from
// the start until cd reaches zero; it fails with what when cd does not.
func produce(b B, producers, per int, send func() error, cd *countdown, what string) time.Duration {
	var wg sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	t0 := time.Now()
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
	if !cd.wait(stuck) {
		b.Fatalf("%d left: %s", cd.left.Load(), what)
	}
	elapsed := time.Since(t0)
	b.StopTimer()
	return elapsed
}
