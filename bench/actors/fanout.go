package actors

import (
	"runtime"
	"time"
)

// round is one round of fan-out messages: each actor counts per of them,
// then counts cd down once.
type round struct {
	per int
	cd  *countdown
}

// FanOut spawns actors actors, has each handle one message so that all
// have started, and measures them idle: goroutines per actor, and bytes
// per actor of heap (HeapInuse) and of goroutine stacks (StackInuse),
// after a GC. Then one goroutine tells them messages round-robin, the
// timed part. One op is one message handled.
func FanOut(c Contender, actors int) Workload {
	return func(b B, n int) {
		sys := start(b, c)
		refs := make([]Ref, actors)
		before, g0 := memNow()
		for i := range refs {
			var cur *round
			got := 0
			refs[i] = spawn(b, sys, func(_ Ctx, msg any) {
				r := msg.(*round)
				if r != cur {
					cur, got = r, 0
				}
				got++
				if got == r.per {
					r.cd.Do()
				}
			})
		}
		tellAll(b, sys, refs, 1)
		after, g1 := memNow()

		per := max(1, n/actors)
		b.ReportAllocs()
		b.ResetTimer() // which also forgets the metrics reported so far
		t0 := time.Now()
		tellAll(b, sys, refs, per)
		elapsed := time.Since(t0)
		b.StopTimer()
		reportRate(b, int64(per*actors), elapsed)
		b.ReportMetric(float64(g1-g0)/float64(actors), "goroutines/actor")
		b.ReportMetric((float64(after.HeapInuse)-float64(before.HeapInuse))/float64(actors), "heapB/actor")
		b.ReportMetric((float64(after.StackInuse)-float64(before.StackInuse))/float64(actors), "stackB/actor")
	}
}

// tellAll tells every actor per messages, round-robin from this
// goroutine, and waits until all are handled.
func tellAll(b B, sys System, refs []Ref, per int) {
	r := &round{per: per, cd: newCountdown(int64(len(refs)))}
	for range per {
		for _, ref := range refs {
			if err := sys.Tell(ref, r); err != nil {
				b.Fatal(err)
			}
		}
	}
	if !r.cd.wait(stuck) {
		b.Fatalf("%d of %d actors did not get all %d messages", r.cd.left.Load(), len(refs), per)
	}
}

// memNow returns the memory statistics and the number of goroutines once
// the actors that just handled their messages have gone idle: after the
// goroutines that run them have had time to exit, and after a GC.
func memNow() (runtime.MemStats, int) {
	g := runtime.NumGoroutine()
	for range 50 {
		time.Sleep(2 * time.Millisecond)
		g2 := runtime.NumGoroutine()
		if g2 == g {
			break
		}
		g = g2
	}
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m, g
}
