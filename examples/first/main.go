// Command first is the README's first program: a pool runs a hundred
// tasks, grows while they wait, returns a typed result and shuts down.
package main

import (
	"context"
	"fmt"
	"log"
	"sync/atomic"
	"time"

	"github.com/poolkit/poolkit/pool"
)

func main() {
	ctx := context.Background()
	p, err := pool.New(4) // at most 4 tasks at once
	if err != nil {
		log.Fatal(err)
	}

	var sum atomic.Int64
	for i := 1; i <= 100; i++ {
		n := i // one copy per task (Go before 1.22 shares i between iterations)
		err := p.Submit(ctx, func() { time.Sleep(time.Millisecond); sum.Add(int64(n)) })
		if err != nil { // ErrClosed, ctx.Err(), or ErrOverload under WithMaxWaiting
			log.Fatal(err)
		}
	}
	if err := p.Resize(8); err != nil { // more capacity now: waiting tasks start at once
		log.Fatal(err)
	}

	// A typed result; the task never starts if its ctx ends first.
	f, err := pool.SubmitResult(ctx, p, func() (string, error) { return "hello from a task", nil })
	if err != nil {
		log.Fatal(err)
	}
	msg, err := f.Wait(ctx)
	if err != nil {
		log.Fatal(err)
	}

	// Shutdown stops intake and waits for every accepted task, as its ctx allows.
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := p.Shutdown(sctx); err != nil {
		log.Fatal(err)
	}
	st := p.Stats()
	fmt.Println(msg)
	fmt.Println("sum:", sum.Load(), "completed:", st.Completed, "capacity:", st.Cap)
}
