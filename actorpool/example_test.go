//go:build go1.22

package actorpool_test

import (
	"context"
	"fmt"

	"github.com/poolkit/poolkit/actorpool"
)

// counter keeps a count; it answers "get" with it.
type counter struct{ n int }

func (c *counter) Receive(ctx *actorpool.Context, msg any) {
	switch msg {
	case "inc":
		c.n++
	case "get":
		_ = ctx.Respond(c.n)
	}
}

func Example() {
	sys, err := actorpool.New()
	if err != nil {
		panic(err)
	}
	defer sys.Shutdown(context.Background())

	ref, err := sys.Spawn(func() actorpool.Behavior { return &counter{} })
	if err != nil {
		panic(err)
	}
	for range 3 {
		_ = ref.Tell("inc") // never blocks
	}
	n, err := ref.Ask(context.Background(), "get")
	fmt.Println(n, err)
	// Output: 3 <nil>
}

func ExampleNewRouter() {
	sys, _ := actorpool.New()
	defer sys.Shutdown(context.Background())

	// Four workers; each answers with its own reference.
	r, _ := actorpool.NewRouter(sys, 4, func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) { _ = c.Respond(c.Self()) })
	})
	workers := r.Workers()
	for i := range 6 {
		w, _ := r.Ref().Ask(context.Background(), i)
		fmt.Print(w == workers[i%4], " ")
	}
	_ = r.Resize(2) // the two oldest workers leave
	fmt.Println(r.Cap())
	// Output: true true true true true true 2
}

func ExampleWithTimings() {
	sys, _ := actorpool.New()

	// Two workers; the router times what it forwards.
	r, _ := actorpool.NewRouter(sys, 2, func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) { _ = c.Respond(msg) })
	}, actorpool.WithTimings())
	for i := range 6 {
		_ = r.Ref().Tell(i)
	}
	for range r.Cap() { // one Ask per worker: each has handled what it was told
		_, _ = r.Ref().Ask(context.Background(), "sync")
	}
	_ = r.Ref().Tell(actorpool.Priority{Msg: "not forwarded, not timed"})

	// Once the workers have stopped, every timed message is in the totals.
	_ = sys.Shutdown(context.Background())
	st := r.Stats()
	fmt.Println("forwarded:", st.Forwarded)
	fmt.Println("timed:", st.Wait.Count, st.Service.Count)
	fmt.Println("mean service within the histogram:", st.Service.Mean() <= st.Service.Quantile(1))
	// Output:
	// forwarded: 8
	// timed: 8 8
	// mean service within the histogram: true
}

func ExampleNewSerializer() {
	sys, _ := actorpool.New()
	defer sys.Shutdown(context.Background())

	// A service that must see one request at a time.
	svc, _ := sys.Spawn(func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) { _ = c.Respond(msg.(int) * 10) })
	})
	ser, _ := actorpool.NewSerializer(sys, svc)
	v, err := ser.Ref().Ask(context.Background(), 4)
	fmt.Println(v, err)
	// Output: 40 <nil>
}
