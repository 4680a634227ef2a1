//go:build poolkit_hooks && go1.25

package pool_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// The breakpoint helpers of the pool's own protocols (keyed_hooks_test.go,
// scheduler_hooks_test.go, future_hooks_test.go), which need the engine's
// interleaving hooks: run them with -tags poolkit_hooks (the CI does, with
// -race). Each of those tests puts a goroutine exactly inside one window
// with a breakpoint, acts while it waits there, and checks the outcome, so
// with the rule that guards the window taken out, each fails every time.
// The engine's own rules have theirs beside the engine
// (internal/engine/break_hooks_test.go).

// breakpoints installs an interleaving with no pressure, so that only the
// test's breakpoints change the schedule, and restores the run's one at
// the end of the test.
func breakpoints(t *testing.T) {
	stop := pool.Interleave(pool.InterleavingConfig{})
	t.Cleanup(stop)
}

// pauseAt parks the first goroutine to reach point until the returned
// resume is called; paused is closed once it is parked there.
func pauseAt(t *testing.T, point string) (paused <-chan struct{}, resume func()) {
	p, r := make(chan struct{}), make(chan struct{})
	t.Cleanup(pool.BreakOnce(point, func() {
		close(p)
		<-r
	}))
	var once atomic.Bool
	return p, func() {
		if once.CompareAndSwap(false, true) {
			close(r)
		}
	}
}

// shutdownNowWhileHeld calls ShutdownNow on p once paused is closed (a
// goroutine is held at a protocol point), then closes shut, so that a task
// that starts from now on can tell, lets the held goroutine go and waits
// for p to finish. ShutdownNow must hand back one function, for what: it
// is returned, to be called.
func shutdownNowWhileHeld(t *testing.T, p *pool.Pool, paused <-chan struct{}, resume func(), shut chan struct{}, what string) func() {
	t.Helper()
	<-paused
	back := p.ShutdownNow()
	close(shut)
	resume()
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	if len(back) != 1 {
		t.Fatalf("ShutdownNow handed back %d functions, want 1 for %s", len(back), what)
	}
	return back[0]
}
