//go:build go1.25

package actorpool_test

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/actorpool"
)

// histOf is the histogram of ds.
func histOf(ds ...time.Duration) actorpool.Histogram {
	var h actorpool.Histogram
	for _, d := range ds {
		i := 0
		for d >= h.Bound(i) {
			i++
		}
		h.Counts[i]++
		h.Count++
		h.Sum += d
	}
	return h
}

// timings is a router's Wait and Service, as its Stats reports them.
type timings struct{ Wait, Service actorpool.Histogram }

func timingsOf(r *actorpool.Router) timings {
	st := r.Stats()
	return timings{st.Wait, st.Service}
}

// settle lets every handler of a bubble run to its end: fake time passes
// (handlers that sleep finish) and then every goroutine is blocked.
func settle() {
	time.Sleep(time.Hour)
	synctest.Wait()
}

// quietLogger drops the reports of the panics a test provokes.
func quietLogger() actorpool.Option {
	return actorpool.WithLogger(slog.New(slog.DiscardHandler))
}

// sleeper is a worker behaviour that sleeps for the duration it is told,
// and counts what it handles.
func sleeper(handled *atomic.Int64) func() actorpool.Behavior {
	return func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) {
			handled.Add(1)
			switch m := msg.(type) {
			case time.Duration:
				time.Sleep(m)
			case string:
				switch m {
				case "die":
					_ = c.Self().Stop()
				case "panic":
					time.Sleep(4 * time.Millisecond)
					panic("provoked")
				case "goexit":
					time.Sleep(2 * time.Millisecond)
					runtime.Goexit()
				}
			}
			_ = c.Respond(nil)
		})
	}
}

// TestRouterTimingsFakeTime: RTR-7. One worker, messages told at once
// whose handlers sleep 1, 2, 4 and 8 ms of fake time: each waits for the
// ones before it, so the waits are 0, 1, 3 and 7 ms and the services 1, 2,
// 4 and 8 ms, exactly, bucket by bucket; with a budget of 1 (every message
// in a turn of its own, after a yield) as with the default budget. A
// message told to the worker once it is idle has not waited.
func TestRouterTimingsFakeTime(t *testing.T) {
	const ms = time.Millisecond
	for _, budget := range []int{1, actorpool.DefaultBudget} {
		t.Run("budget="+strconv.Itoa(budget), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newSystem(t, actorpool.WithWorkers(2), actorpool.WithBudget(budget))
				var handled atomic.Int64
				r, err := actorpool.NewRouter(s, 1, sleeper(&handled), actorpool.WithTimings())
				if err != nil {
					t.Fatal(err)
				}
				settle() // the worker has started
				for _, d := range []time.Duration{1 * ms, 2 * ms, 4 * ms, 8 * ms} {
					tell(t, r.Ref(), d)
				}
				settle()
				got := timingsOf(r)
				want := timings{Wait: histOf(0, 1*ms, 3*ms, 7*ms), Service: histOf(1*ms, 2*ms, 4*ms, 8*ms)}
				if got != want {
					t.Errorf("timings = %+v,\nwant %+v", got, want)
				}

				tell(t, r.Ref(), 16*ms) // to an idle worker
				settle()
				idle := timingsOf(r)
				if d := (timings{Wait: idle.Wait.Sub(got.Wait), Service: idle.Service.Sub(got.Service)}); d != (timings{Wait: histOf(0), Service: histOf(16 * ms)}) {
					t.Errorf("a message to an idle worker: %+v, want no wait and 16ms of service", d)
				}
				if handled.Load() != 5 {
					t.Errorf("handled %d of 5", handled.Load())
				}
			})
		})
	}
}

// TestRouterTimingsWhereStartIsRead: RTR-7. Where a worker does not go
// straight from one timed message to the next, the start of the next is
// read, not inferred: after a turn that yielded (budget 1, and another
// actor holds the only engine worker for 5 ms meanwhile), and after a
// message told to the worker's own Ref (not timed; it sleeps 5 ms). In
// both cases the second routed message waited 6 ms and ran 1 ms.
func TestRouterTimingsWhereStartIsRead(t *testing.T) {
	const ms = time.Millisecond
	want := timings{Wait: histOf(0, 6*ms), Service: histOf(1*ms, 1*ms)}
	t.Run("yield", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newSystem(t, actorpool.WithWorkers(1), actorpool.WithBudget(1))
			var handled atomic.Int64
			r, err := actorpool.NewRouter(s, 1, sleeper(&handled), actorpool.WithTimings())
			if err != nil {
				t.Fatal(err)
			}
			other := spawn(t, s, func(_ *actorpool.Context, msg any) { time.Sleep(msg.(time.Duration)) })
			settle()
			tell(t, r.Ref(), 1*ms)
			tell(t, r.Ref(), 1*ms)
			tell(t, other, 5*ms) // runs between the worker's two turns
			settle()
			if got := timingsOf(r); got != want {
				t.Errorf("timings = %+v,\nwant %+v", got, want)
			}
		})
	})
	t.Run("untimed", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newSystem(t, actorpool.WithWorkers(2))
			var handled atomic.Int64
			r, err := actorpool.NewRouter(s, 1, sleeper(&handled), actorpool.WithTimings())
			if err != nil {
				t.Fatal(err)
			}
			settle()
			tell(t, r.Ref(), 1*ms)
			tell(t, r.Workers()[0], 5*ms)
			tell(t, r.Ref(), 1*ms)
			settle()
			if got := timingsOf(r); got != want {
				t.Errorf("timings = %+v,\nwant %+v", got, want)
			}
			if handled.Load() != 3 {
				t.Errorf("handled %d of 3", handled.Load())
			}
		})
	})
}

// TestRouterTimingsCounts: RTR-7. With timings on, every message routed is
// counted once in Wait and once in Service, whatever way it came (Tell
// from many goroutines, Ask, from an actor's handler); a Priority message
// and a message told to a worker's own Ref are not; nor is a message a
// timed router's worker forwards to an untimed router (its stamp is
// dropped on Forward).
func TestRouterTimingsCounts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSystem(t, actorpool.WithWorkers(2))
		var handled, handledB atomic.Int64
		r, err := actorpool.NewRouter(s, 3, sleeper(&handled), actorpool.WithTimings(),
			actorpool.WithRouterBehavior(func() actorpool.Behavior {
				return actorpool.BehaviorFunc(func(*actorpool.Context, any) {})
			}))
		if err != nil {
			t.Fatal(err)
		}
		const senders, each, asks = 4, 250, 20
		var wg sync.WaitGroup
		for range senders {
			wg.Go(func() {
				for i := range each {
					tell(t, r.Ref(), i)
				}
			})
		}
		wg.Wait()
		for range asks {
			if _, err := r.Ref().Ask(context.Background(), "q"); err != nil {
				t.Fatal(err)
			}
		}
		client := spawn(t, s, func(c *actorpool.Context, msg any) { _ = c.Tell(r.Ref(), msg) })
		for i := range 10 {
			tell(t, client, i)
		}
		for range 5 {
			tell(t, r.Ref(), actorpool.Priority{Msg: "own"})
		}
		for _, w := range r.Workers() {
			tell(t, w, "direct")
		}
		// Router b forwards every message to r, whose timings are off.
		b, err := actorpool.NewRouter(s, 2, func() actorpool.Behavior {
			return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) {
				handledB.Add(1)
				_ = c.Forward(r.Ref())
			})
		}, actorpool.WithTimings())
		if err != nil {
			t.Fatal(err)
		}
		settle()
		const routed = senders*each + asks + 10
		if got := timingsOf(r); got.Wait.Count != routed || got.Service.Count != routed {
			t.Errorf("Wait.Count %d, Service.Count %d; want the %d messages routed", got.Wait.Count, got.Service.Count, routed)
		}
		if st := r.Stats(); st.Forwarded != routed {
			t.Errorf("Forwarded = %d, want %d", st.Forwarded, routed)
		}

		actorpool.SetTimings(r, false)
		for i := range 8 {
			tell(t, b.Ref(), i)
		}
		settle()
		if handledB.Load() != 8 {
			t.Fatalf("b handled %d of 8", handledB.Load())
		}
		if got := timingsOf(b); got.Wait.Count != 8 || got.Service.Count != 8 {
			t.Errorf("b's Timings count %d/%d, want 8", got.Wait.Count, got.Service.Count)
		}
		if got := timingsOf(r); got.Wait.Count != routed || got.Service.Count != routed {
			t.Errorf("after forwards from a timed router to an untimed one, %d/%d timed, want still %d",
				got.Wait.Count, got.Service.Count, routed)
		}
		if want := int64(routed + 3 + 8); handled.Load() != want {
			t.Errorf("handled %d, want %d", handled.Load(), want)
		}
	})
}

// TestRouterTimingsOff: RTR-7. A router without WithTimings, or switched
// off, records nothing, and its workers allocate no timings; Stats.Timed
// says which.
func TestRouterTimingsOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSystem(t, actorpool.WithWorkers(2))
		var handled atomic.Int64
		off, err := actorpool.NewRouter(s, 2, sleeper(&handled))
		if err != nil {
			t.Fatal(err)
		}
		switched, err := actorpool.NewRouter(s, 2, sleeper(&handled), actorpool.WithTimings())
		if err != nil {
			t.Fatal(err)
		}
		actorpool.SetTimings(switched, false)
		for range 10 {
			tell(t, off.Ref(), time.Millisecond)
			tell(t, switched.Ref(), time.Millisecond)
		}
		settle()
		if handled.Load() != 20 {
			t.Fatalf("handled %d of 20", handled.Load())
		}
		for _, r := range []*actorpool.Router{off, switched} {
			if got := timingsOf(r); got != (timings{}) {
				t.Errorf("timings = %+v, want nothing", got)
			}
			if n := actorpool.TimedWorkers(r); n != 0 {
				t.Errorf("%d workers hold timings", n)
			}
			if r.Stats().Timed {
				t.Error("Stats.Timed of a router whose timings are off")
			}
		}
		actorpool.SetTimings(switched, true)
		if !switched.Stats().Timed {
			t.Error("Stats.Timed of a router whose timings are on")
		}
	})
}

// TestRouterTimingsSwitch: RTR-7. The flag switched at run time: a
// message is timed if the timings were on when the router accepted it,
// even if they are off when it is handled; off keeps what was recorded, on
// again adds to it.
func TestRouterTimingsSwitch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSystem(t, actorpool.WithWorkers(2))
		var handled atomic.Int64
		release := make(chan struct{})
		r, err := actorpool.NewRouter(s, 2, func() actorpool.Behavior {
			return actorpool.BehaviorFunc(func(_ *actorpool.Context, msg any) {
				if msg == "hold" {
					<-release
				}
				handled.Add(1)
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		count := func(want uint64) {
			t.Helper()
			settle()
			if got := timingsOf(r); got.Wait.Count != want || got.Service.Count != want {
				t.Errorf("timed %d/%d, want %d", got.Wait.Count, got.Service.Count, want)
			}
		}
		for i := range 5 {
			tell(t, r.Ref(), i)
		}
		count(0)
		actorpool.SetTimings(r, true)
		for i := range 7 {
			tell(t, r.Ref(), i)
		}
		count(7)
		// Accepted while on, handled once off: timed. "hold" holds one
		// worker, and the third message queues behind it (round robin).
		tell(t, r.Ref(), "hold")
		tell(t, r.Ref(), 0)
		tell(t, r.Ref(), 1)
		synctest.Wait()
		actorpool.SetTimings(r, false)
		for i := range 4 {
			tell(t, r.Ref(), i)
		}
		close(release)
		count(10)
		actorpool.SetTimings(r, true)
		for i := range 3 {
			tell(t, r.Ref(), i)
		}
		count(13)
		if handled.Load() != 22 {
			t.Errorf("handled %d of 22", handled.Load())
		}
	})
}

// TestRouterTimingsSurviveResizeAndReplacement: RTR-7. What removed and
// replaced workers recorded stays in the totals: a shrink with queues
// (the removed workers' messages are handled by the one left, with their
// first stamps), a worker that stops itself, one stopped by its
// supervisor after a panic (its panicking message counted, 4 ms), a
// handler that calls runtime.Goexit (counted, 2 ms; the worker lives on),
// and the router's stop at Shutdown. The services are exact in fake time.
func TestRouterTimingsSurviveResizeAndReplacement(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const ms = time.Millisecond
		s := newSystem(t, actorpool.WithWorkers(2), quietLogger())
		var handled atomic.Int64
		r, err := actorpool.NewRouter(s, 4, sleeper(&handled), actorpool.WithTimings(),
			actorpool.WithWorkerOptions(actorpool.WithSupervisor(actorpool.Supervisor{Directive: actorpool.Stop})))
		if err != nil {
			t.Fatal(err)
		}
		settle()
		for range 40 {
			tell(t, r.Ref(), ms)
		}
		if err := r.Resize(1); err != nil {
			t.Fatal(err)
		}
		settle()
		got := timingsOf(r)
		if handled.Load() != 40 || got.Wait.Count != 40 || got.Service.Count != 40 || got.Service.Sum != 40*ms {
			t.Errorf("after a shrink with queues: handled %d, timed %d/%d, service %v; want 40, 40/40, 40ms",
				handled.Load(), got.Wait.Count, got.Service.Count, got.Service.Sum)
		}
		if n := actorpool.TimedWorkers(r); n != 1 {
			t.Errorf("%d workers hold timings after the shrink to 1, want the removed ones folded", n)
		}
		// The messages handed back waited, from their first stamp, for
		// the remaining worker's own ten at least.
		if got.Wait.Sum < 30*10*ms {
			t.Errorf("Wait.Sum = %v: the rerouted messages lost their stamps", got.Wait.Sum)
		}

		tell(t, r.Ref(), "die")
		settle()
		tell(t, r.Ref(), "panic")
		settle()
		tell(t, r.Ref(), "goexit")
		settle()
		for range 5 {
			tell(t, r.Ref(), ms)
		}
		settle()
		got = timingsOf(r)
		if got.Wait.Count != 48 || got.Service.Count != 48 || got.Service.Sum != 51*ms {
			t.Errorf("after 2 replacements and a Goexit: timed %d/%d, service %v; want 48/48, 51ms", got.Wait.Count, got.Service.Count, got.Service.Sum)
		}
		if st := r.Stats(); st.Restarts != 2 || st.Size != 1 {
			t.Errorf("Stats = %+v, want 2 replacements, size 1", st)
		}
		shutdown(t, s)
		if after := timingsOf(r); after != got {
			t.Errorf("after Shutdown timings = %+v, want %+v", after, got)
		}
		if n := actorpool.TimedWorkers(r); n != 0 {
			t.Errorf("%d workers hold timings after Shutdown", n)
		}
	})
}

// TestRouterTimingsNoAlloc: RTR-7. Routing a message and handling it
// allocate nothing more with timings on than off (nothing at all in a
// build without -race).
func TestRouterTimingsNoAlloc(t *testing.T) {
	for _, on := range []bool{false, true} {
		const runs = 10_000
		s := newSystem(t, actorpool.WithWorkers(2))
		var handled atomic.Int64
		done := make(chan struct{})
		r, err := actorpool.NewRouter(s, 2, func() actorpool.Behavior {
			return actorpool.BehaviorFunc(func(*actorpool.Context, any) {
				if handled.Add(1) == runs+1 { // AllocsPerRun's warm-up, and the runs
					close(done)
				}
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		actorpool.SetTimings(r, on)
		allocs := testing.AllocsPerRun(runs, func() { _ = r.Ref().Tell(1) })
		if !raceEnabled && allocs != 0 {
			t.Errorf("timings %v: %v allocations per message", on, allocs)
		}
		wait(t, done, "every message handled")
		shutdown(t, s)
		if want := map[bool]uint64{false: 0, true: runs + 1}[on]; timingsOf(r).Service.Count != want {
			t.Errorf("timings %v: timed %d messages, want %d", on, timingsOf(r).Service.Count, want)
		}
	}
}

// BenchmarkRouterTimings: one sender tells a router of two workers (on a
// system of two) b.N messages, and waits until they are handled.
func BenchmarkRouterTimings(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run(fmt.Sprintf("timings=%v", on), func(b *testing.B) {
			s := newSystem(b, actorpool.WithWorkers(2))
			var handled atomic.Int64
			done := make(chan struct{})
			n := int64(b.N)
			r, err := actorpool.NewRouter(s, 2, func() actorpool.Behavior {
				return actorpool.BehaviorFunc(func(*actorpool.Context, any) {
					if handled.Add(1) == n {
						close(done)
					}
				})
			})
			if err != nil {
				b.Fatal(err)
			}
			actorpool.SetTimings(r, on)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				_ = r.Ref().Tell(1)
			}
			<-done
		})
	}
}
