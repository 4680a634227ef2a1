// Command autoscale is the autoscaler's complete example: a pool that
// starts too small for its load, and a controller that sizes it from what
// the pool measures, while tasks that wait on I/O arrive at a steady rate.
package main

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/pool"
)

func main() {
	start, end, completed, err := run(context.Background(), 3*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("size %d at the start, %d at the end; %d tasks completed\n", start, end, completed)
}

// run offers 400 tasks a second, each waiting 10 ms as a call to another
// service would, for d; Little's law asks for about 4 busy workers.
func run(ctx context.Context, d time.Duration) (start, end int, completed uint64, err error) {
	p, err := pool.New(1, pool.WithTimings()) // the controller reads the waits and service times
	if err != nil {
		return 0, 0, 0, err
	}
	c, err := autoscale.New(p, autoscale.WithMin(1), autoscale.WithMax(64))
	if err != nil {
		return 0, 0, 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	go func() { _ = c.Run(ctx) }() // ticks until ctx ends

	start = p.Cap()
	tick := time.NewTicker(time.Second / 400)
	defer tick.Stop()
	for ctx.Err() == nil {
		<-tick.C
		if err := p.Submit(ctx, func() { time.Sleep(10 * time.Millisecond) }); err != nil && ctx.Err() == nil {
			return 0, 0, 0, err
		}
	}
	end = p.Cap()
	if err := p.Shutdown(context.Background()); err != nil {
		return 0, 0, 0, err
	}
	return start, end, p.Stats().Completed, nil
}
