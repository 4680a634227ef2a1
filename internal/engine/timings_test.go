//go:build go1.25

package engine

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/internal/testkit"
)

// The timings switched at run time (SetTimings, which package pool does
// not offer: a Pool's timings are chosen at New) and kept across exited
// workers and a Reopen. The tests that need exact durations run in
// synctest bubbles, whose clock moves only when every goroutine of the
// bubble is blocked: a unit that sleeps d runs for exactly d, and a unit
// that waits for it waits exactly that long, so the histograms can be
// checked bucket by bucket.

func sleeper(d time.Duration) func() { return func() { time.Sleep(d) } }

// submitSleepers submits a sleeper of each duration, in order.
func submitSleepers(t *testing.T, e *Engine[func()], ds ...time.Duration) {
	t.Helper()
	for _, d := range ds {
		mustSubmit(t, e, sleeper(d))
	}
}

// timingsOf keeps the timings of s: what these tests compare.
func timingsOf(s Stats) Stats { return Stats{Wait: s.Wait, Service: s.Service} }

const ms = time.Millisecond

// TestSetTimingsAtRunTime: SetTimings takes effect for the units started
// after it. A unit started while the timings are off is not recorded; a
// unit accepted while they were off and started while they are on counts
// as not having waited; a unit started while they are on is recorded in
// full even if they go off while it runs; what was recorded stays when
// they go off.
func TestSetTimingsAtRunTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEngine(t, 1)
		// t0: A and B accepted while off; C accepted while on.
		submitSleepers(t, e, 10*ms, 20*ms) // A, B
		synctest.Wait()                    // A has started, untimed
		e.SetTimings(true)
		mustSubmit(t, e, sleeper(40*ms)) // C
		// A runs 0-10 (off when it started: not recorded), B 10-30 (not
		// stamped: waited 0), C 30-70 (waited 30).
		time.Sleep(time.Second)
		synctest.Wait()
		want := Stats{Wait: testkit.Hist(0, 30*ms), Service: testkit.Hist(20*ms, 40*ms)}
		testkit.CheckHist(t, "Wait", e.Stats().Wait, want.Wait)
		testkit.CheckHist(t, "Service", e.Stats().Service, want.Service)

		// Off: D is not recorded, and what was is kept.
		e.SetTimings(false)
		mustSubmit(t, e, sleeper(5*ms)) // D
		time.Sleep(time.Second)
		synctest.Wait()
		if got := timingsOf(e.Stats()); got != want {
			t.Errorf("after an untimed unit the timings changed: %+v", got)
		}

		// On again: E, handed to the parked worker, waits 0; F starts
		// while on and the timings go off while it runs: it is recorded.
		e.SetTimings(true)
		mustSubmit(t, e, sleeper(ms)) // E
		time.Sleep(time.Second)
		synctest.Wait()
		mustSubmit(t, e, sleeper(10*ms)) // F
		synctest.Wait()
		e.SetTimings(false)
		time.Sleep(time.Second)
		synctest.Wait()
		testkit.CheckHist(t, "Wait", e.Stats().Wait, testkit.Hist(0, 30*ms, 0, 0))
		testkit.CheckHist(t, "Service", e.Stats().Service, testkit.Hist(20*ms, 40*ms, ms, 10*ms))
	})
}

// TestTimingsExitedWorkers: what a worker recorded stays in the totals once
// it has exited, and across a Reopen.
func TestTimingsExitedWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEngine(t, 2, func(c *Config) { c.Timings, c.Expiry = true, 10*ms })
		submitSleepers(t, e, 3*ms, 4*ms)
		time.Sleep(time.Second) // the idle workers expire
		synctest.Wait()
		if w := e.Stats().Workers; w != 0 {
			t.Fatalf("%d workers left after the expiry", w)
		}
		want := Stats{Wait: testkit.Hist(0, 0), Service: testkit.Hist(3*ms, 4*ms)}
		if got := timingsOf(e.Stats()); got != want {
			t.Errorf("after the workers exited: %+v, want %+v", got, want)
		}
		if err := closeWithin(e, time.Second); err != nil {
			t.Fatal(err)
		}
		e.Reopen()
		mustSubmit(t, e, sleeper(ms))
		time.Sleep(time.Second)
		synctest.Wait()
		want = Stats{Wait: testkit.Hist(0, 0, 0), Service: testkit.Hist(3*ms, 4*ms, ms)}
		if got := timingsOf(e.Stats()); got != want {
			t.Errorf("after a Reopen: %+v, want %+v", got, want)
		}
	})
}

// TestTimingsRace: submitters, snapshots and switches at once, in real
// time, under -race. Snapshots only grow; once the engine is quiescent
// every timed unit is counted once in Wait and once in Service, and with
// the timings left on for a last batch, each of its units is.
func TestTimingsRace(t *testing.T) {
	e := newEngine(t, 4, queueSize(8), func(c *Config) { c.PanicHandler = func(any) {} })
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var ran atomic.Int64
	task := func() {
		if ran.Add(1)%97 == 0 {
			panic("boom")
		}
		runtime.Gosched()
	}
	for range 4 {
		wg.Go(func() {
			for i := range 1000 {
				if err := e.Submit(bg, task); err != nil {
					t.Error(err)
					return
				}
				if i%250 == 0 {
					_ = e.Resize(2 + i%3)
				}
			}
		})
	}
	var watchers sync.WaitGroup
	watchers.Go(func() {
		on := false
		for {
			select {
			case <-stop:
				return
			default:
			}
			on = !on
			e.SetTimings(on)
			time.Sleep(50 * time.Microsecond)
		}
	})
	watchers.Go(func() {
		var last Stats
		for {
			select {
			case <-stop:
				return
			default:
			}
			tm := e.Stats()
			if tm.Wait.Count < last.Wait.Count || tm.Service.Count < last.Service.Count {
				t.Errorf("a snapshot went back: %d/%d after %d/%d",
					tm.Wait.Count, tm.Service.Count, last.Wait.Count, last.Service.Count)
				return
			}
			last = tm
			time.Sleep(20 * time.Microsecond)
		}
	})
	wg.Wait()
	close(stop)
	watchers.Wait()
	waitQuiescent(t, e)

	before := e.Stats()
	if before.Wait.Count != before.Service.Count {
		t.Errorf("quiescent: Wait.Count %d, Service.Count %d", before.Wait.Count, before.Service.Count)
	}
	if c := e.Stats().Completed; before.Service.Count > c {
		t.Errorf("Service.Count %d > Completed %d", before.Service.Count, c)
	}
	e.SetTimings(true)
	for range 100 {
		mustSubmit(t, e, task)
	}
	waitQuiescent(t, e)
	d := e.Stats()
	if n := d.Wait.Sub(before.Wait).Count; n != 100 {
		t.Errorf("last batch: %d waits recorded, want 100", n)
	}
	if n := d.Service.Sub(before.Service).Count; n != 100 {
		t.Errorf("last batch: %d services recorded, want 100", n)
	}
}

// waitQuiescent waits until the engine has nothing running or waiting.
func waitQuiescent(t *testing.T, e *Engine[func()]) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		s := e.Stats()
		if s.Running == 0 && s.Waiting == 0 && s.Submitted == s.Completed {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not quiescent: %+v", s)
		}
		time.Sleep(time.Millisecond)
	}
}
