//go:build go1.25

package pool_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/internal/testkit"
	"github.com/poolkit/poolkit/pool"
)

// The tests of this file run in synctest bubbles, whose clock moves only
// when every goroutine of the bubble is blocked: a task that sleeps d runs
// for exactly d, and a task that waits for it waits exactly that long, so
// the histograms can be checked bucket by bucket.

func sleeper(d time.Duration) func() { return func() { time.Sleep(d) } }

// submitSleepers submits a sleeper of each duration, in order.
func submitSleepers(t *testing.T, p *pool.Pool, ds ...time.Duration) {
	t.Helper()
	for _, d := range ds {
		if err := p.Submit(bg, sleeper(d)); err != nil {
			t.Fatal(err)
		}
	}
}

const ms = time.Millisecond

// TestTimingsSizeOne: on a pool of one worker, the first task is handed
// straight to a worker and waits 0; each task queued behind it waits
// exactly the service of the tasks ahead of it. Every task is counted once
// in Wait and once in Service, and the counts match Stats.
func TestTimingsSizeOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithTimings())
		submitSleepers(t, p, 10*ms, 20*ms, 40*ms)
		time.Sleep(time.Second)
		synctest.Wait()
		tm := p.Stats()
		testkit.CheckHist(t, "Wait", tm.Wait, testkit.Hist(0, 10*ms, 30*ms))
		testkit.CheckHist(t, "Service", tm.Service, testkit.Hist(10*ms, 20*ms, 40*ms))
		if s := p.Stats(); s.Completed != tm.Service.Count {
			t.Errorf("Completed %d, Service.Count %d", s.Completed, tm.Service.Count)
		}
		if tm.Wait.Mean() != 40*ms/3 || tm.Service.Mean() != 70*ms/3 {
			t.Errorf("means %v, %v", tm.Wait.Mean(), tm.Service.Mean())
		}
	})
}

// TestTimingsFuncPool: FuncPool records as Pool does, and ShutdownNow still
// hands back the bare arguments of the tasks that never started.
func TestTimingsFuncPool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, err := pool.NewFunc(1, func(d time.Duration) { time.Sleep(d) }, pool.WithTimings())
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []time.Duration{5 * ms, 7 * ms} {
			if err := p.Invoke(bg, d); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(time.Second)
		synctest.Wait()
		tm := p.Stats()
		testkit.CheckHist(t, "Wait", tm.Wait, testkit.Hist(0, 5*ms))
		testkit.CheckHist(t, "Service", tm.Service, testkit.Hist(5*ms, 7*ms))

		// A task holds the worker; two more wait in the queue and are
		// handed back.
		for _, d := range []time.Duration{time.Hour, 1, 2} {
			if err := p.Invoke(bg, d); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		if got := p.ShutdownNow(); len(got) != 2 || got[0] != 1 || got[1] != 2 {
			t.Errorf("ShutdownNow = %v, want [1ns 2ns]", got)
		}
		if err := shutdownWithin(p, 2*time.Hour); err != nil {
			t.Fatal(err)
		}
		tm = p.Stats()
		testkit.CheckHist(t, "Wait after release", tm.Wait, testkit.Hist(0, 5*ms, 0))
		testkit.CheckHist(t, "Service after release", tm.Service, testkit.Hist(5*ms, 7*ms, time.Hour))
	})
}

// TestTimingsOffRecordsNothing: a pool whose timings are off, as they are
// by default, records nothing, whatever its tasks do.
func TestTimingsOffRecordsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2, pool.WithPanicHandler(func(any) {}), pool.WithQueueSize(1))
		f, err := pool.NewFunc(1, func(d time.Duration) { time.Sleep(d) })
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for i := range 20 {
			task := sleeper(time.Duration(i) * ms)
			if i%5 == 0 {
				task = func() { panic("boom") }
			}
			go func() { _ = p.Submit(bg, task) }() // some block for room
			_ = f.Invoke(bg, time.Duration(i)*ms)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if s := p.Stats(); s.Completed != 20 {
			t.Fatalf("Completed %d, want 20", s.Completed)
		}
		if tm := timingsOf(p.Stats()); tm != (pool.Stats{}) {
			t.Errorf("Pool.Stats() = %+v with timings off", tm)
		}
		if tm := timingsOf(f.Stats()); tm != (pool.Stats{}) {
			t.Errorf("FuncPool.Stats() = %+v with timings off", tm)
		}
	})
}

// TestTimingsSlowPaths: the stamp travels with a task through every path a
// waiting task takes, and where a task becomes available to the workers
// after its stamp, its start is read rather than inferred.
func TestTimingsSlowPaths(t *testing.T) {
	t.Run("BlockedSubmitter", func(t *testing.T) {
		// A blocked submitter's task is accepted when admitted; it is
		// handed straight to a worker then, so it does not wait.
		synctest.Test(t, func(t *testing.T) {
			p := mustNew(t, 1, pool.WithQueueSize(0), pool.WithTimings())
			if err := p.Submit(bg, sleeper(10*ms)); err != nil {
				t.Fatal(err)
			}
			go func() {
				if err := p.Submit(bg, sleeper(20*ms)); err != nil {
					t.Error(err)
				}
			}()
			time.Sleep(time.Second)
			synctest.Wait()
			testkit.CheckHist(t, "Wait", p.Stats().Wait, testkit.Hist(0, 0))
			testkit.CheckHist(t, "Service", p.Stats().Service, testkit.Hist(10*ms, 20*ms))
		})
	})
	t.Run("BlockedSubmitterQueued", func(t *testing.T) {
		// With a queue of one: A runs, B is queued, C blocks until A's
		// worker takes B at 10 and is admitted to the queue then; it
		// starts when B ends, at 30.
		synctest.Test(t, func(t *testing.T) {
			p := mustNew(t, 1, pool.WithQueueSize(1), pool.WithTimings())
			submitSleepers(t, p, 10*ms, 20*ms)
			go func() {
				if err := p.Submit(bg, sleeper(40*ms)); err != nil {
					t.Error(err)
				}
			}()
			time.Sleep(time.Second)
			synctest.Wait()
			testkit.CheckHist(t, "Wait", p.Stats().Wait, testkit.Hist(0, 10*ms, 20*ms))
			testkit.CheckHist(t, "Service", p.Stats().Service, testkit.Hist(10*ms, 20*ms, 40*ms))
		})
	})
	t.Run("Overflow", func(t *testing.T) {
		// An unbounded queue of one: A runs, B is queued, C is an
		// overflow entry accepted at 0, admitted at 10, started at 30.
		synctest.Test(t, func(t *testing.T) {
			p := mustNew(t, 1, pool.WithQueueSize(1), pool.WithUnboundedQueue(), pool.WithTimings())
			submitSleepers(t, p, 10*ms, 20*ms, 40*ms, 80*ms)
			time.Sleep(time.Second)
			synctest.Wait()
			testkit.CheckHist(t, "Wait", p.Stats().Wait, testkit.Hist(0, 10*ms, 30*ms, 70*ms))
			testkit.CheckHist(t, "Service", p.Stats().Service, testkit.Hist(10*ms, 20*ms, 40*ms, 80*ms))
		})
	})
	t.Run("OverflowDrainedByRelease", func(t *testing.T) {
		// A Close moves overflow entries to the front; the drain
		// still measures them from their acceptance.
		synctest.Test(t, func(t *testing.T) {
			p := mustNew(t, 1, pool.WithQueueSize(1), pool.WithUnboundedQueue(), pool.WithTimings())
			submitSleepers(t, p, 10*ms, 20*ms, 40*ms)
			p.Close()
			if err := shutdownWithin(p, time.Second); err != nil {
				t.Fatal(err)
			}
			testkit.CheckHist(t, "Wait", p.Stats().Wait, testkit.Hist(0, 10*ms, 30*ms))
			testkit.CheckHist(t, "Service", p.Stats().Service, testkit.Hist(10*ms, 20*ms, 40*ms))
		})
	})
	t.Run("Grow", func(t *testing.T) {
		// A grow at 5 starts B and C, queued at 0, at once: they waited
		// 5, not 0 (the workers started for them were parked).
		synctest.Test(t, func(t *testing.T) {
			p := mustNew(t, 1, pool.WithTimings(), pool.WithMinWorkers(1))
			submitSleepers(t, p, 10*ms, 20*ms, 40*ms)
			time.Sleep(5 * ms)
			if err := p.Resize(3); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Second)
			synctest.Wait()
			testkit.CheckHist(t, "Wait", p.Stats().Wait, testkit.Hist(0, 5*ms, 5*ms))
			testkit.CheckHist(t, "Service", p.Stats().Service, testkit.Hist(10*ms, 20*ms, 40*ms))
		})
	})
	t.Run("PanicAndGoexit", func(t *testing.T) {
		// A panicking task and one that calls runtime.Goexit are
		// recorded like the others; the panic handler's time is the next
		// task's wait, not its service.
		synctest.Test(t, func(t *testing.T) {
			p := mustNew(t, 1, pool.WithTimings(), pool.WithPanicHandler(func(any) { time.Sleep(3 * ms) }))
			tasks := []func(){
				func() { time.Sleep(5 * ms); panic("boom") },
				sleeper(ms),
				func() { time.Sleep(7 * ms); runtime.Goexit() },
				sleeper(2 * ms),
			}
			for _, f := range tasks {
				if err := p.Submit(bg, f); err != nil {
					t.Fatal(err)
				}
			}
			time.Sleep(time.Second)
			synctest.Wait()
			// 0-5 boom, 5-8 handler, 8-9, 9-16 Goexit, 16-18.
			testkit.CheckHist(t, "Wait", p.Stats().Wait, testkit.Hist(0, 8*ms, 9*ms, 16*ms))
			testkit.CheckHist(t, "Service", p.Stats().Service, testkit.Hist(5*ms, ms, 7*ms, 2*ms))
			if s := p.Stats(); s.Completed != 4 || s.Panicked != 1 {
				t.Errorf("Stats = %+v", s)
			}
		})
	})
}

// BenchmarkSubmitTimings: one op is one Submit of a tiny task to a pool of
// 8 workers, from one submitter, with the timings off and on; the
// difference is the cost of timing a task. The task is built once, so
// that any allocation reported is the pool's.
func BenchmarkSubmitTimings(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts []pool.Option
	}{{"Off", nil}, {"On", []pool.Option{pool.WithTimings()}}} {
		b.Run(bc.name, func(b *testing.B) {
			p := mustNew(b, 8, bc.opts...)
			var wg sync.WaitGroup
			var sink atomic.Uint64
			task := func() { sink.Add(1); wg.Done() }
			b.ReportAllocs()
			for b.Loop() {
				wg.Add(1)
				if err := p.Submit(bg, task); err != nil {
					b.Fatal(err)
				}
			}
			wg.Wait()
			// Each task's wait is recorded before it runs.
			if n := p.Stats().Wait.Count; bc.name == "On" && n < uint64(b.N) {
				b.Errorf("Wait.Count %d < %d", n, b.N)
			}
		})
	}
}

// timingsOf keeps the timings of s: what these tests compare.
func timingsOf(s pool.Stats) pool.Stats { return pool.Stats{Wait: s.Wait, Service: s.Service} }
