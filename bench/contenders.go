// Package bench compares poolkit's pools with the Go pools people use
// instead (ants, pond) and with the two floors: a hand-rolled set of
// goroutines on a buffered channel, and running the work inline. Every
// contender implements runner, so each workload is written once and runs
// over all of them in the same process, interleaved.
package bench

import (
	"fmt"
	"sync"

	"github.com/alitto/pond/v2"
	"github.com/panjf2000/ants/v2"

	"github.com/poolkit/poolkit/pool"
)

// runner is the smallest surface every contender offers: submit a task,
// and shut down after every submitted task has run.
type runner interface {
	Submit(task func()) error
	Close()
}

// contender builds a fresh runner with the given number of workers.
type contender struct {
	name string
	make func(workers int) (runner, error)
}

// contenders lists every implementation in the order the tables show them.
func contenders() []contender {
	return []contender{
		{"poolkit", newPoolkit},
		{"chan", newChanWorkers},
		{"ants", newAnts},
		{"pond", newPond},
	}
}

type poolkitRunner struct{ p *pool.Pool }

func newPoolkit(workers int) (runner, error) {
	p, err := pool.New(workers)
	return poolkitRunner{p}, err
}
func (r poolkitRunner) Submit(t func()) error { return r.p.Submit(t) }
func (r poolkitRunner) Close()                { r.p.ReleaseTimeout(1 << 62) }

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

type antsRunner struct{ p *ants.Pool }

func newAnts(workers int) (runner, error) {
	p, err := ants.NewPool(workers)
	return antsRunner{p}, err
}
func (r antsRunner) Submit(t func()) error { return r.p.Submit(t) }
func (r antsRunner) Close() {
	if err := r.p.ReleaseTimeout(1 << 40); err != nil {
		panic(fmt.Sprint("ants release: ", err))
	}
}

type pondRunner struct{ p pond.Pool }

func newPond(workers int) (runner, error)  { return pondRunner{pond.NewPool(workers)}, nil }
func (r pondRunner) Submit(t func()) error { return r.p.Go(t) }
func (r pondRunner) Close()                { r.p.StopAndWait() }
