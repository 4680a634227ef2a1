package bench

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// submitters is the RunParallel parallelism of the contended workloads:
// 8 goroutines per P, 16 on two cores.
const submitters = 8

func manySubmitters() Workload {
	return Workload{
		Name:  "ManySubmitters",
		About: "GOMAXPROCS x 8 goroutines submit ~100 ns tasks to one pool of 8 workers; one op is one task",
		Quick: "50ms", Full: "300ms",
		Cases: each(true, func(c contender) func(*testing.B) {
			return contended(c, nil)
		}),
	}
}

func submitLatency() Workload {
	return Workload{
		Name: "SubmitLatency",
		About: "as ManySubmitters, timing every Submit call into an HDR histogram: " +
			"p50, p99 and p99.9 of how long a submitter is held; one op is one task",
		Quick: "50ms", Full: "300ms",
		Cases: each(false, func(c contender) func(*testing.B) {
			return func(b *testing.B) {
				hs := newHistograms(submitters * runtime.GOMAXPROCS(0))
				contended(c, hs)(b)
				all := hs.merged()
				for _, q := range []struct {
					unit string
					at   float64
				}{{"p50-ns", 50}, {"p99-ns", 99}, {"p99.9-ns", 99.9}} {
					b.ReportMetric(float64(all.ValueAtQuantile(q.at)), q.unit)
				}
			}
		}),
	}
}

// contended runs the many-submitters workload on c; with hs, every Submit
// call is timed into one of its histograms.
func contended(c contender, hs *histograms) func(b *testing.B) {
	return func(b *testing.B) {
		r := start(b, c, 8)
		var wg sync.WaitGroup
		var failed firstError
		b.ReportAllocs()
		b.SetParallelism(submitters)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			var h *hdrhistogram.Histogram
			if hs != nil {
				h = hs.take()
			}
			var i uint64
			for pb.Next() {
				i++
				wg.Add(1)
				var start time.Time
				if h != nil {
					start = time.Now()
				}
				err := r.Submit(func() { sink.Add(spin(i) & 1); wg.Done() })
				if h != nil {
					_ = h.RecordValue(min(int64(time.Since(start)), maxLatency))
				}
				if err != nil {
					failed.set(fmt.Errorf("Submit = %v", err))
					wg.Done()
					return
				}
			}
		})
		wg.Wait()
		b.StopTimer()
		release(b, c.name, r)
		if err := failed.get(); err != nil {
			problem(b, c.name, err.Error())
		}
	}
}

// firstError keeps the first of the errors goroutines report.
type firstError struct {
	once sync.Once
	err  error
}

func (f *firstError) set(err error) { f.once.Do(func() { f.err = err }) }

// get returns the first error set; call it once the goroutines that set
// errors are done.
func (f *firstError) get() error { return f.err }

// histograms hands one preallocated histogram to each RunParallel
// goroutine, so that recording allocates nothing while timed.
type histograms struct {
	mu sync.Mutex
	hs []*hdrhistogram.Histogram
	n  int
}

// maxLatency is the largest value recorded exactly; a longer wait counts
// as maxLatency.
const maxLatency = int64(10 * time.Second)

func newHistograms(n int) *histograms {
	hs := &histograms{hs: make([]*hdrhistogram.Histogram, n)}
	for i := range hs.hs {
		hs.hs[i] = hdrhistogram.New(1, maxLatency, 3)
	}
	return hs
}

// take returns a histogram no other goroutine records into.
func (hs *histograms) take() *hdrhistogram.Histogram {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.n == len(hs.hs) {
		hs.hs = append(hs.hs, hdrhistogram.New(1, maxLatency, 3))
	}
	hs.n++
	return hs.hs[hs.n-1]
}

func (hs *histograms) merged() *hdrhistogram.Histogram {
	all := hdrhistogram.New(1, maxLatency, 3)
	for _, h := range hs.hs {
		all.Merge(h)
	}
	return all
}
