//go:build poolkit_hooks

package engine

import (
	"context"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkSharedWords counts, per unit, what every submitter and worker
// shares on the engine's hot paths (tally.go: read-modify-writes of the
// gate word, the queue's head and tail, the searchers' count and the
// waiters' counts; acquisitions of e.mu, and those that found it held;
// idle-stack operations, wake-ups, signals to blocked submitters and
// yields), in the shapes that decide how the engine scales with cores.
// The counts are a proxy a 2-core machine can measure: a design that
// scales drives them toward zero per unit in steady state. The timings
// of this build mean nothing (the hooks are compiled in); the counts do.
//
//	go test -tags poolkit_hooks -run '^$' -bench SharedWords -cpu 2,4 ./internal/engine
func BenchmarkSharedWords(b *testing.B) {
	// The run's interleaving (main_test.go) holds goroutines back at its
	// change points, which makes them meet where they otherwise would not:
	// the counts are of the engine's own schedule.
	defer suspendInterleaving()()
	procs := runtime.GOMAXPROCS(0)
	for _, s := range []struct {
		name     string
		workers  int // the engine's size
		perProc  int // submitting goroutines per GOMAXPROCS
		rounds   int // the unit's work, in spin rounds
		parallel bool
	}{
		// ManySubmitters: GOMAXPROCS x 8 goroutines, ~100 ns units (60 rounds), 8 workers.
		{"shape=ManySubmitters", 8, 8, 60, true},
		// SubmitParallel: GOMAXPROCS goroutines, ~100 ns units, 8 workers.
		{"shape=SubmitParallel", 8, 1, 60, true},
		// P by P: GOMAXPROCS goroutines, tiny units (8 rounds), GOMAXPROCS workers.
		{"shape=PbyP", procs, 1, 8, true},
		// One submitter, ~100 ns units, 8 workers.
		{"shape=OneSubmitter", 8, 0, 60, false},
	} {
		s := s
		b.Run(s.name, func(b *testing.B) {
			var e Engine[func()]
			e.Init(s.workers, func(f func()) { f() }, Config{QueueSize: 1024})
			var wg sync.WaitGroup
			var sink atomic.Uint64
			task := func() { sink.Add(xorshift(s.rounds) & 1); wg.Done() }
			ctx := context.Background()
			b.ReportAllocs()
			counts := CountShared(func() {
				b.ResetTimer()
				if s.parallel {
					b.SetParallelism(s.perProc)
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							wg.Add(1)
							if err := e.Submit(ctx, task); err != nil {
								wg.Done()
								b.Error(err)
								return
							}
						}
					})
				} else {
					for i := 0; i < b.N; i++ {
						wg.Add(1)
						if err := e.Submit(ctx, task); err != nil {
							b.Fatal(err)
						}
					}
				}
				wg.Wait()
				b.StopTimer()
			})
			<-e.Close()
			names := make([]string, 0, len(counts))
			for k := range counts {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				b.ReportMetric(float64(counts[k])/float64(b.N), k+"/op")
			}
		})
	}
}

func xorshift(n int) uint64 {
	x := uint64(0x9e3779b97f4a7c15)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}
