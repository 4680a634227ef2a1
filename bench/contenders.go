// Package bench compares poolkit's pools with the Go pools people use
// instead (ants, pond, tunny, conc, errgroup, gammazero/workerpool), with
// poolkit's drop-in for ants (poolkit-ants) beside ants, and with the
// floors: a goroutine per task, a hand-rolled set of goroutines on a
// buffered channel, and running the work inline. Every library is driven
// through its adapter in package compat, the one the conformance suite
// checks (so what is measured is what MATRIX.md describes), as a
// spectest.Pool: Submit, blocking while the pool is full if that is what
// the pool does, and Shutdown, which closes it once every accepted task has
// run; a contender whose capacity changes at run time is also a
// resize.Resizer. The floors implement the same surface, so each workload
// is written once and runs over all of them in the same process. The one
// exception is the typed-function workload (Invoke), which calls the
// libraries' typed pools directly: a func() surface would cost it a
// closure per call, which is what that workload measures the absence of.
//
// A contender that misbehaves in a workload (loses a task, never reaches
// its new size) is a problem of that run (see problem): a failure of the
// benchmark for poolkit's own contenders, a finding, logged and skipped,
// for the others.
//
// The workloads are plain func(*testing.B) values (see Workloads): `go
// test -bench` runs them through the Benchmark functions in this package's
// tests, and the poolkit command runs them interleaved through
// testing.Benchmark (see Compare).
package bench

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/poolkit/poolkit/compat"
	"github.com/poolkit/poolkit/spectest"
)

// contender builds a fresh runner with the given number of workers.
type contender struct {
	name string
	make func(workers int) (spectest.Pool, error)
	// inline runners run each task on the submitter: they are the floor for
	// CPU work and are left out of the workloads that wait.
	inline bool
	// variant marks a second entry point of a pool listed before it
	// (pond's Submit beside its Go); the resize workloads skip it.
	variant bool
}

// contenders lists every func() pool, poolkit first: every ratio is to it.
func contenders() []contender {
	return []contender{
		{name: "poolkit", make: adapted(compat.NewPoolkit)},
		{name: "inline", make: newInline, inline: true},
		{name: "chan", make: newChanWorkers},
		{name: "goroutine", make: newGoroutinePerTask},
		{name: "ants", make: adapted(compat.NewAnts)},
		{name: "poolkit-ants", make: adapted(compat.NewPoolkitAnts)},
		{name: "pond", make: adapted(compat.NewPond)},
		{name: "pond-submit", make: adapted(compat.NewPondSubmit), variant: true},
		{name: "tunny", make: adapted(compat.NewTunny)},
		{name: "conc", make: adapted(compat.NewConc)},
		{name: "errgroup", make: adapted(compat.NewErrgroup)},
		{name: "workerpool", make: adapted(compat.NewWorkerpool)},
	}
}

// adapted makes one of compat's adapters a contender, built with the
// library's defaults and the given number of workers.
func adapted[A spectest.Pool](build func(spectest.Config) (A, error)) func(workers int) (spectest.Pool, error) {
	return func(workers int) (spectest.Pool, error) {
		p, err := build(spectest.Config{Size: workers})
		if err != nil {
			return nil, err
		}
		return p, nil
	}
}

// Contenders names every contender of the func() workloads, in the order
// the tables show them; the typed-function workload uses a subset.
func Contenders() []string {
	var names []string
	for _, c := range contenders() {
		names = append(names, c.name)
	}
	return names
}

// start builds c's runner for a run of b; a contender that cannot be built
// is a problem of the run.
func start(b *testing.B, c contender, workers int) spectest.Pool {
	b.Helper()
	r, err := c.make(workers)
	if err != nil {
		problem(b, c.name, fmt.Sprintf("building a pool of %d: %v", workers, err))
	}
	return r
}

// release closes r and waits for it; a contender that cannot close is a
// problem of the run.
func release(b *testing.B, impl string, r spectest.Pool) {
	b.Helper()
	if err := r.Shutdown(context.Background()); err != nil {
		problem(b, impl, fmt.Sprintf("Shutdown = %v", err))
	}
}

// inlineRunner runs each task where it is submitted: the physical floor.
type inlineRunner struct{}

func newInline(int) (spectest.Pool, error)          { return inlineRunner{}, nil }
func (inlineRunner) Submit(t func()) error          { t(); return nil }
func (inlineRunner) Shutdown(context.Context) error { return nil }

// chanWorkers is the hand-rolled floor: n goroutines ranging over a
// buffered channel, the code a Go programmer writes without a library.
type chanWorkers struct {
	ch chan func()
	wg sync.WaitGroup
}

func newChanWorkers(workers int) (spectest.Pool, error) {
	c := &chanWorkers{ch: make(chan func(), 1024)}
	for range workers {
		c.wg.Go(func() {
			for t := range c.ch {
				t()
			}
		})
	}
	return c, nil
}
func (c *chanWorkers) Submit(t func()) error { c.ch <- t; return nil }

// Shutdown closes the channel and waits for the workers, however long that
// takes: the benchmarks release with a context that never ends.
func (c *chanWorkers) Shutdown(context.Context) error { close(c.ch); c.wg.Wait(); return nil }

// goroutinePerTask is what code without a pool does: `go task()`, with no
// bound on concurrency (the worker count is ignored).
type goroutinePerTask struct{ wg sync.WaitGroup }

func newGoroutinePerTask(int) (spectest.Pool, error) { return &goroutinePerTask{}, nil }
func (g *goroutinePerTask) Submit(t func()) error    { g.wg.Go(t); return nil }

// Shutdown waits for the tasks, however long that takes (see chanWorkers).
func (g *goroutinePerTask) Shutdown(context.Context) error { g.wg.Wait(); return nil }
