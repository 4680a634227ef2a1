//go:build go1.25

package actorpool_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/poolkit/poolkit/actorpool"
)

// TestManyActorsFewGoroutines: D-8. 100,000 live actors, each told a
// message: the goroutine count stays at the workers plus a constant, with
// no term in the number of actors, and an idle actor costs at most 1 KB
// (checked in a build without -race, whose shadow memory inflates the
// heap; the CI runs it so).
func TestManyActorsFewGoroutines(t *testing.T) {
	const n = 100_000
	s := newSystem(t, actorpool.WithWorkers(2))
	base := runtime.NumGoroutine()
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	var handled atomic.Int64
	done := make(chan struct{})
	refs := make([]actorpool.Ref, n)
	for i := range refs {
		refs[i] = spawn(t, s, func(*actorpool.Context, any) {
			if handled.Add(1) == n {
				close(done)
			}
		})
	}
	peak := 0
	for i, r := range refs {
		tell(t, r, i)
		if i%10_000 == 0 {
			peak = max(peak, runtime.NumGoroutine())
		}
	}
	wait(t, done, "every actor handled its message")
	peak = max(peak, runtime.NumGoroutine())
	if extra := peak - base; extra > 2+8 {
		t.Errorf("%d goroutines above the baseline with %d actors; want the 2 workers + O(1)", extra, n)
	}
	runtime.GC()
	runtime.ReadMemStats(&ms1)
	perActor := float64(ms1.HeapAlloc-ms0.HeapAlloc) / n
	t.Logf("%.0f bytes per idle actor (HeapAlloc), %d goroutines above baseline", perActor, peak-base)
	if !raceEnabled && perActor > 1024 {
		t.Errorf("%.0f bytes per idle actor, want at most 1 KB", perActor)
	}
	runtime.KeepAlive(refs)
}

// TestIdleBurnsNothing: D-9. Once every message is handled, every
// goroutine of the system is blocked (synctest.Wait returns only then: a
// spinning worker would keep it waiting), and after the expiry the
// workers have exited.
func TestIdleBurnsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSystem(t, actorpool.WithWorkers(2))
		base := runtime.NumGoroutine()
		var handled atomic.Int32
		for range 50 {
			r := spawn(t, s, func(*actorpool.Context, any) { handled.Add(1) })
			tell(t, r, 1)
		}
		synctest.Wait()
		if handled.Load() != 50 {
			t.Fatalf("handled %d of 50", handled.Load())
		}
		if n := runtime.NumGoroutine(); n > base+2 {
			t.Errorf("%d goroutines above the baseline while idle", n-base)
		}
		// A single Tell to an idle system is handled (a wake-up, not a poll).
		r := spawn(t, s, func(*actorpool.Context, any) { handled.Add(1) })
		tell(t, r, 1)
		synctest.Wait()
		if handled.Load() != 51 {
			t.Errorf("a Tell to an idle system was not handled")
		}
	})
}
