package engine

import (
	"context"
	"log/slog"
	"runtime"
	"testing"
	"time"

	"github.com/poolkit/poolkit/internal/testkit"
)

// The engines of these tests run func() units, configured as package
// pool configures its engine: the tests of the engine's rules drive it as
// a Pool would, less the pool's checks of its arguments.

// bg is the context of calls that have no deadline of their own.
var bg = context.Background()

// runFunc is the run of an engine of func() units.
func runFunc(f func()) { f() }

// build initialises an engine of size with package pool's defaults (a
// queue of 1024, idle workers retired after a second, the engine's
// troubles logged to slog's default logger), changed by set.
func build(size int, set ...func(*Config)) *Engine[func()] {
	cfg := Config{QueueSize: 1024, Expiry: time.Second, Logf: slog.Default().Error}
	for _, f := range set {
		f(&cfg)
	}
	e := new(Engine[func()])
	e.Init(size, runFunc, cfg)
	return e
}

// newEngine is build, for a test: the engine is closed when the test
// ends, and its workers waited for.
func newEngine(t testing.TB, size int, set ...func(*Config)) *Engine[func()] {
	t.Helper()
	e := build(size, set...)
	t.Cleanup(func() {
		if err := closeWithin(e, time.Minute); err != nil {
			t.Errorf("cleanup: close = %v", err)
		}
	})
	return e
}

// queueSize sets the ring's size (0: no queue), as WithQueueSize does.
func queueSize(n int) func(*Config) { return func(c *Config) { c.QueueSize = n } }

// closeWithin closes e and waits for the life it closed, at most d: nil
// once the life has ended, ErrStopped when d passed first.
func closeWithin(e *Engine[func()], d time.Duration) error {
	ctx, cancel := context.WithTimeout(bg, d)
	defer cancel()
	return e.Await(e.Close(), ctx.Done())
}

func mustSubmit(t testing.TB, e *Engine[func()], task func()) {
	t.Helper()
	if err := e.Submit(bg, task); err != nil {
		t.Fatalf("Submit = %v", err)
	}
}

// submitXWaitingForY submits X, which holds until Y has run, then Y, back
// to back; the returned channel is closed when X ends.
func submitXWaitingForY(t testing.TB, e *Engine[func()]) <-chan struct{} {
	t.Helper()
	yRan := make(chan struct{})
	xDone := make(chan struct{})
	mustSubmit(t, e, func() {
		<-yRan
		close(xDone)
	})
	mustSubmit(t, e, func() { close(yRan) })
	return xDone
}

// mustFinish waits for done, or fails the test with the engine's gauges
// once testkit.FailBound has passed; it then grows the engine by one, so that a
// unit stuck beside a free slot can run and the engine can close.
func mustFinish(t testing.TB, e *Engine[func()], done <-chan struct{}, what string) {
	t.Helper()
	if testkit.Within(func() { <-done }) {
		return
	}
	running, waiting, free := e.Running(), e.Waiting(), e.Free()
	steps := recentSteps()
	stacks := make([]byte, 1<<16)
	stacks = stacks[:runtime.Stack(stacks, true)]
	_ = e.Resize(e.Cap() + 1)
	t.Fatalf("%s: Running()=%d Waiting()=%d Free()=%d\n%s\ngoroutines:\n%s", what, running, waiting, free, steps, stacks)
}
