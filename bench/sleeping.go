package bench

import (
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

func sleeping1M() Workload {
	return Workload{
		Name: "Sleeping1M",
		About: "1M tasks that each sleep 10 ms, 50k workers (ants' headline workload): " +
			"time, the peak number of goroutines and the peak memory held (heap objects and stacks) " +
			"above what the process held before; one op is the whole batch",
		Quick: "1x", Full: "1x",
		Heavy: true,
		Cases: each(false, func(c contender) func(*testing.B) {
			run := batch(c, 50_000, 1_000_000, func(int) { time.Sleep(10 * time.Millisecond) })
			return func(b *testing.B) {
				peak := watchPeaks()
				run(b)
				b.StopTimer()
				goroutines, bytes := peak()
				b.ReportMetric(float64(goroutines), "peak-goroutines")
				b.ReportMetric(float64(bytes)/(1<<20), "peak-MB")
			}
		}),
	}
}

// peakSamples are the runtime/metrics the sampler reads.
var peakSamples = []string{
	"/sched/goroutines:goroutines",
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/stacks:bytes",
}

// watchPeaks samples the goroutine count and the memory held by heap
// objects and stacks every millisecond until the returned function is
// called; that returns the peaks, the memory as growth over the first
// sample. A sampler misses peaks shorter than its period: the figures are
// lower bounds, alike for every contender.
func watchPeaks() func() (goroutines, bytes uint64) {
	read := func(s []metrics.Sample) (g, b uint64) {
		metrics.Read(s)
		return s[0].Value.Uint64(), s[1].Value.Uint64() + s[2].Value.Uint64()
	}
	samples := make([]metrics.Sample, len(peakSamples))
	for i, name := range peakSamples {
		samples[i].Name = name
	}
	_, base := read(samples)
	var (
		mu       sync.Mutex
		maxG     uint64
		maxB     uint64
		stop     = make(chan struct{})
		finished = make(chan struct{})
	)
	go func() {
		defer close(finished)
		s := make([]metrics.Sample, len(samples))
		copy(s, samples)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			g, b := read(s)
			mu.Lock()
			maxG, maxB = max(maxG, g), max(maxB, b)
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	return func() (uint64, uint64) {
		close(stop)
		<-finished
		mu.Lock()
		defer mu.Unlock()
		if maxB < base {
			return maxG, 0
		}
		return maxG, maxB - base
	}
}
