// Package bench compares poolkit's pools with the Go pools people use
// instead (ants, pond, tunny, conc, errgroup, gammazero/workerpool), with
// poolkit's drop-in for ants (poolkit-ants) beside ants, and with the
// floors: a goroutine per task, a hand-rolled set of goroutines on a
// buffered channel, and running the work inline. Every contender
// implements runner, so each workload is written once and runs over all of
// them in the same process.
//
// The workloads are plain func(*testing.B) values (see Workloads): `go
// test -bench` runs them through the Benchmark functions in this package's
// tests, and the poolkit command runs them interleaved through
// testing.Benchmark (see Compare).
package bench

import (
	"fmt"
	"sync"

	"github.com/Jeffail/tunny"
	"github.com/alitto/pond/v2"
	"github.com/gammazero/workerpool"
	"github.com/panjf2000/ants/v2"
	concpool "github.com/sourcegraph/conc/pool"
	"golang.org/x/sync/errgroup"

	dropin "github.com/poolkit/poolkit/ants"
	"github.com/poolkit/poolkit/pool"
)

// runner is the smallest surface every contender offers: submit a task
// (blocking while the pool is full, if that is what the pool does), and
// shut down after every submitted task has run.
type runner interface {
	Submit(task func()) error
	Close()
}

// resizer is implemented by the runners whose capacity changes at run time.
type resizer interface {
	Resize(n int) error
}

// contender builds a fresh runner with the given number of workers.
type contender struct {
	name string
	make func(workers int) (runner, error)
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
		{name: "poolkit", make: newPoolkit},
		{name: "inline", make: newInline, inline: true},
		{name: "chan", make: newChanWorkers},
		{name: "goroutine", make: newGoroutinePerTask},
		{name: "ants", make: newAnts},
		{name: "poolkit-ants", make: newDropIn},
		{name: "pond", make: newPond},
		{name: "pond-submit", make: newPondSubmit, variant: true},
		{name: "tunny", make: newTunny},
		{name: "conc", make: newConc},
		{name: "errgroup", make: newErrgroup},
		{name: "workerpool", make: newWorkerpool},
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

type poolkitRunner struct{ p *pool.Pool }

func newPoolkit(workers int) (runner, error) {
	p, err := pool.New(workers)
	return poolkitRunner{p}, err
}
func (r poolkitRunner) Submit(t func()) error { return r.p.Submit(t) }
func (r poolkitRunner) Close()                { r.p.ReleaseTimeout(1 << 62) }
func (r poolkitRunner) Resize(n int) error    { return r.p.Resize(n) }

// inlineRunner runs each task where it is submitted: the physical floor.
type inlineRunner struct{}

func newInline(int) (runner, error)        { return inlineRunner{}, nil }
func (inlineRunner) Submit(t func()) error { t(); return nil }
func (inlineRunner) Close()                {}

// chanWorkers is the hand-rolled floor: n goroutines ranging over a
// buffered channel, the code a Go programmer writes without a library.
type chanWorkers struct {
	ch chan func()
	wg sync.WaitGroup
}

func newChanWorkers(workers int) (runner, error) {
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
func (c *chanWorkers) Close()                { close(c.ch); c.wg.Wait() }

// goroutinePerTask is what code without a pool does: `go task()`, with no
// bound on concurrency (the worker count is ignored).
type goroutinePerTask struct{ wg sync.WaitGroup }

func newGoroutinePerTask(int) (runner, error)     { return &goroutinePerTask{}, nil }
func (g *goroutinePerTask) Submit(t func()) error { g.wg.Go(t); return nil }
func (g *goroutinePerTask) Close()                { g.wg.Wait() }

type antsRunner struct{ p *ants.Pool }

func newAnts(workers int) (runner, error) {
	p, err := ants.NewPool(workers)
	return antsRunner{p}, err
}
func (r antsRunner) Submit(t func()) error { return r.p.Submit(t) }
func (r antsRunner) Resize(n int) error    { r.p.Tune(n); return nil }
func (r antsRunner) Close() {
	if err := r.p.ReleaseTimeout(1 << 40); err != nil {
		panic(fmt.Sprint("ants release: ", err))
	}
}

// dropInRunner is poolkit's drop-in for ants (package
// github.com/poolkit/poolkit/ants): ants' API and admission (no queue) on
// poolkit's engine, built exactly as antsRunner builds ants.
type dropInRunner struct{ p *dropin.Pool }

func newDropIn(workers int) (runner, error) {
	p, err := dropin.NewPool(workers)
	return dropInRunner{p}, err
}
func (r dropInRunner) Submit(t func()) error { return r.p.Submit(t) }
func (r dropInRunner) Resize(n int) error    { return r.p.Resize(n) }
func (r dropInRunner) Close() {
	if err := r.p.ReleaseTimeout(1 << 40); err != nil {
		panic(fmt.Sprint("poolkit-ants release: ", err))
	}
}

// pondRunner uses pond's Go, which queues without a bound and returns no
// handle.
type pondRunner struct{ p pond.Pool }

func newPond(workers int) (runner, error)  { return pondRunner{pond.NewPool(workers)}, nil }
func (r pondRunner) Submit(t func()) error { return r.p.Go(t) }
func (r pondRunner) Close()                { r.p.StopAndWait() }
func (r pondRunner) Resize(n int) error    { r.p.Resize(n); return nil }

// pondSubmit uses pond's Submit, which returns a Task to wait on: what a
// caller that wants each task's outcome pays.
type pondSubmit struct{ pondRunner }

func newPondSubmit(workers int) (runner, error) {
	return pondSubmit{pondRunner{pond.NewPool(workers)}}, nil
}
func (r pondSubmit) Submit(t func()) error { r.p.Submit(t); return nil }

// tunnyRunner: tunny's Process blocks its caller until the job has run, so
// a caller that wants to go on submitting calls it from a goroutine of its
// own, which is what this runner does for every task.
type tunnyRunner struct {
	p  *tunny.Pool
	wg sync.WaitGroup
}

func newTunny(workers int) (runner, error) {
	return &tunnyRunner{p: tunny.NewFunc(workers, func(job any) any { job.(func())(); return nil })}, nil
}
func (r *tunnyRunner) Submit(t func()) error { r.wg.Go(func() { r.p.Process(t) }); return nil }
func (r *tunnyRunner) Close()                { r.wg.Wait(); r.p.Close() }
func (r *tunnyRunner) Resize(n int) error    { r.p.SetSize(n); return nil }

// concRunner: sourcegraph/conc's pool, whose Go blocks while the limit of
// goroutines is busy.
type concRunner struct{ p *concpool.Pool }

func newConc(workers int) (runner, error) {
	return concRunner{concpool.New().WithMaxGoroutines(workers)}, nil
}
func (r concRunner) Submit(t func()) error { r.p.Go(t); return nil }
func (r concRunner) Close()                { r.p.Wait() }

// errgroupRunner: errgroup.Group with SetLimit, a goroutine per task with a
// semaphore in front.
type errgroupRunner struct{ g *errgroup.Group }

func newErrgroup(workers int) (runner, error) {
	g := new(errgroup.Group)
	g.SetLimit(workers)
	return errgroupRunner{g}, nil
}
func (r errgroupRunner) Submit(t func()) error {
	r.g.Go(func() error { t(); return nil })
	return nil
}
func (r errgroupRunner) Close() { _ = r.g.Wait() }

// workerpoolRunner: gammazero/workerpool, a dispatcher goroutine in front
// of the workers and a queue without a bound.
type workerpoolRunner struct{ p *workerpool.WorkerPool }

func newWorkerpool(workers int) (runner, error) {
	return workerpoolRunner{workerpool.New(workers)}, nil
}
func (r workerpoolRunner) Submit(t func()) error { r.p.Submit(t); return nil }
func (r workerpoolRunner) Close()                { r.p.StopWait() }
