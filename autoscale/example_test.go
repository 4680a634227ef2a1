package autoscale_test

import (
	"context"
	"fmt"
	"time"

	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/pool"
)

// ExampleNew sizes a pool from what its tasks do: wrap each task with the
// controller's meter, and let Run tick until the context ends.
func ExampleNew() {
	p, _ := pool.New(4)
	defer p.Release()
	c, err := autoscale.New(p, autoscale.WithMin(1), autoscale.WithMax(64), autoscale.WithTick(100*time.Millisecond))
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 350*time.Millisecond)
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			_ = p.Submit(c.Meter().Wrap(func() { time.Sleep(time.Millisecond) }))
			time.Sleep(5 * time.Millisecond)
		}
	}()
	err = c.Run(ctx)
	fmt.Println(err, c.Stats().Ticks > 0)
	// Output: context deadline exceeded true
}
