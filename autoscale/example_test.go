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
	p, _ := pool.New(4)
	defer p.Release()
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
			if err := p.Submit(func() { time.Sleep(time.Millisecond) }); err != nil {
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
