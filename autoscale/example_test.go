//go:build go1.25

package autoscale_test

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/pool"
)

// ExampleNew sizes a poolkit pool from what its tasks do. The pool
// measures itself, so tasks are submitted as they are; Run ticks until the
// context ends.
func ExampleNew() {
	p, _ := pool.New(4, pool.WithTimings()) // the controller reads the waits and service times
	defer p.Close()
	c, err := autoscale.New(p, autoscale.WithMin(1), autoscale.WithMax(64), autoscale.WithTick(100*time.Millisecond))
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 350*time.Millisecond)
	defer cancel()
	var load sync.WaitGroup
	refused := 0
	load.Go(func() {
		for ctx.Err() == nil {
			if err := p.Submit(context.Background(), func() { time.Sleep(time.Millisecond) }); err != nil {
				refused++ // not accepted: it will not run
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
	err = c.Run(ctx)
	load.Wait()
	fmt.Println(err, c.Stats().Ticks > 0, refused)
	// Output: context deadline exceeded true 0
}

// ExampleWithBacklog sizes a pool whose work waits outside it: a consumer
// takes an item from a broker only when the pool can start it, so the
// pool never queues, and the controller reads the broker's backlog
// instead. Here the broker holds 500 items and the workers are all busy:
// the backlog is pressure, and the controller grows the pool (at most
// doubling, since each step is a probe of what the added workers buy).
func ExampleWithBacklog() {
	p, _ := pool.New(2, pool.WithTimings())
	defer p.Close()
	backlog := func(context.Context) (int, error) { return 500, nil } // e.g. a consumer's NumPending
	c, err := autoscale.New(p, autoscale.WithBacklog(backlog), autoscale.WithTick(10*time.Millisecond))
	if err != nil {
		panic(err)
	}
	hold := make(chan struct{})
	defer close(hold)
	for range p.Cap() {
		_ = p.Submit(context.Background(), func() { <-hold }) // both workers busy, nothing queued
	}
	time.Sleep(10 * time.Millisecond)
	d := c.Tick()
	fmt.Println(d.Queue, d.Backlog, d.From, "->", d.To, d.Cause)
	// Output: 0 500 2 -> 4 grow
}
