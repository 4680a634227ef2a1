//go:build go1.22

package pool_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/poolkit/poolkit/pool"
)

func ExampleNew() {
	p, err := pool.New(4)
	if err != nil {
		panic(err)
	}
	defer p.Close()
	fmt.Println(p.Cap(), p.Stats().Running)

	_, err = pool.New(0)
	fmt.Println(errors.Is(err, pool.ErrInvalidSize))
	// Output:
	// 4 0
	// true
}

func ExamplePool_Submit() {
	ctx := context.Background()
	p, _ := pool.New(4)
	var sum atomic.Int64
	for i := 1; i <= 100; i++ {
		if err := p.Submit(ctx, func() { sum.Add(int64(i)) }); err != nil {
			panic(err)
		}
	}
	// Shutdown closes the pool and waits for every accepted task.
	if err := p.Shutdown(ctx); err != nil {
		panic(err)
	}
	fmt.Println(sum.Load())
	// Output: 5050
}

func ExamplePool_Resize() {
	p, _ := pool.New(2)
	defer p.Close()
	if err := p.Resize(8); err != nil {
		panic(err)
	}
	fmt.Println(p.Cap())
	fmt.Println(p.Resize(0))
	// Output:
	// 8
	// resize: invalid size 0: want 1 to 2147483647
}

func ExampleNewFunc() {
	ctx := context.Background()
	var mu sync.Mutex
	lengths := map[string]int{}
	p, _ := pool.NewFunc(2, func(s string) {
		mu.Lock()
		lengths[s] = len(s)
		mu.Unlock()
	})
	for _, s := range []string{"ants", "pond", "poolkit"} {
		if err := p.Invoke(ctx, s); err != nil {
			panic(err)
		}
	}
	_ = p.Shutdown(ctx)
	fmt.Println(lengths)
	// Output: map[ants:4 pond:4 poolkit:7]
}

func ExamplePool_Group() {
	p, _ := pool.New(3)
	defer p.Close()
	g, _ := p.Group(context.Background())
	var done atomic.Int32
	for i := range 5 {
		g.Go(func() error {
			done.Add(1)
			if i == 4 {
				return errors.New("task 4 failed")
			}
			return nil
		})
	}
	fmt.Println(g.Wait(), done.Load())
	// Output: task 4 failed 5
}

func ExampleSubmitResult() {
	p, _ := pool.New(2)
	defer p.Close()
	ctx := context.Background()
	f, err := pool.SubmitResult(ctx, p, func() (string, error) { return "computed", nil })
	if err != nil {
		panic(err)
	}
	v, err := f.Wait(ctx)
	fmt.Println(v, err)
	// Output: computed <nil>
}

// A task of SubmitResult whose context ends while it waits for a worker
// never starts: its caller has gone.
func ExampleSubmitResult_canceled() {
	p, _ := pool.New(1)
	defer p.Close()
	hold, started := make(chan struct{}), make(chan struct{})
	_ = p.Submit(context.Background(), func() { close(started); <-hold })
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	f, err := pool.SubmitResult(ctx, p, func() (string, error) { return "too late", nil })
	if err != nil {
		panic(err)
	}
	cancel()
	_, err = f.Wait(context.Background())
	fmt.Println(err)
	close(hold)
	fmt.Println(p.Stats().Expired)
	// Output:
	// context canceled
	// 1
}

func ExamplePool_ShutdownNow() {
	ctx := context.Background()
	p, _ := pool.New(1)
	gate := make(chan struct{})
	started := make(chan struct{})
	_ = p.Submit(ctx, func() { close(started); <-gate })
	<-started
	for range 3 {
		_ = p.Submit(ctx, func() {})
	}
	back := p.ShutdownNow() // the three queued tasks come back, not run
	close(gate)
	_ = p.Shutdown(ctx) // waits for the running one
	fmt.Println(len(back), p.Stats().Completed)
	// Output: 3 1
}

func ExamplePool_Shutdown() {
	p, _ := pool.New(2)
	release := make(chan struct{})
	_ = p.Submit(context.Background(), func() { <-release })
	// The task outlives the deadline: Shutdown returns the context's error,
	// and the pool, closed, finishes when the task returns.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	fmt.Println(p.Shutdown(ctx))
	fmt.Println(p.Submit(context.Background(), func() {}))
	close(release)
	fmt.Println(p.Shutdown(context.Background()))
	// Output:
	// context deadline exceeded
	// poolkit: closed
	// <nil>
}

func ExamplePool_Stats() {
	ctx := context.Background()
	p, _ := pool.New(2, pool.WithTimings())
	for range 10 {
		if err := p.Submit(ctx, func() { time.Sleep(time.Millisecond) }); err != nil {
			panic(err)
		}
	}
	if err := p.Shutdown(ctx); err != nil {
		panic(err)
	}
	s := p.Stats()
	fmt.Println(s.Submitted, s.Completed, s.Closed)
	// Every task is counted once in each histogram; each slept a
	// millisecond, so even the shortest service is at least that.
	fmt.Println(s.Wait.Count, s.Service.Count)
	fmt.Println(s.Service.Quantile(0) >= time.Millisecond, s.Service.Mean() >= time.Millisecond)
	// Output:
	// 10 10 true
	// 10 10
	// true true
}

func ExamplePool_WaitRoom() {
	ctx := context.Background()
	p, _ := pool.New(4)
	defer p.Close()
	// A feeder takes from its source only what the pool can start at once.
	source := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	var sum atomic.Int64
	for len(source) > 0 {
		n, err := p.WaitRoom(ctx)
		if err != nil {
			panic(err)
		}
		n = min(n, len(source))
		for _, v := range source[:n] {
			_ = p.Submit(ctx, func() { sum.Add(int64(v)) })
		}
		source = source[n:]
	}
	_ = p.Shutdown(ctx)
	fmt.Println(sum.Load())
	// Output: 55
}

func ExampleNewKeyed() {
	p, err := pool.New(4)
	if err != nil {
		panic(err)
	}
	// Each account's operations run one at a time, in order; different
	// accounts run in parallel, up to the pool's 4.
	accounts, err := pool.NewKeyed[string](p, pool.WithBudget(8))
	if err != nil {
		panic(err)
	}
	balance := map[string]int{"alice": 100, "bob": 100}
	var mu sync.Mutex // the map is shared; each account's entry is touched by its key's tasks only
	apply := func(account string, delta int) func() {
		return func() {
			mu.Lock()
			defer mu.Unlock()
			if balance[account]+delta < 0 {
				fmt.Println(account, "refused", delta)
				return
			}
			balance[account] += delta
		}
	}
	ctx := context.Background()
	for _, op := range []struct {
		account string
		delta   int
	}{{"alice", -80}, {"bob", 50}, {"alice", -30}, {"alice", 40}, {"bob", -150}} {
		if err := accounts.Submit(ctx, op.account, apply(op.account, op.delta)); err != nil {
			panic(err)
		}
	}
	if err := p.Shutdown(ctx); err != nil {
		panic(err)
	}
	fmt.Println(balance["alice"], balance["bob"])
	// Output:
	// alice refused -30
	// 60 0
}

func ExampleKeyed_Submit() {
	p, err := pool.New(1, pool.WithQueueSize(0))
	if err != nil {
		panic(err)
	}
	defer p.Close()
	kd, err := pool.NewKeyed[int](p, pool.WithQueueSize(1)) // one task of a key may wait
	if err != nil {
		panic(err)
	}
	hold, started := make(chan struct{}), make(chan struct{})
	defer close(hold)
	ctx := context.Background()
	fmt.Println(kd.Submit(ctx, 7, func() { close(started); <-hold })) // runs
	<-started
	fmt.Println(kd.Submit(ctx, 7, func() {})) // waits in key 7's queue
	err = kd.Submit(ctx, 7, func() {})        // key 7 is full
	fmt.Println(errors.Is(err, pool.ErrKeyFull), errors.Is(err, pool.ErrOverload))
	// Output:
	// <nil>
	// <nil>
	// true true
}

// A Scheduler in front of a pool that serves requests: urgent ones in a
// higher class, each with its request's deadline on its context, and a
// limit on how long any may wait.
func ExampleNewScheduler() {
	p, err := pool.New(1)
	if err != nil {
		panic(err)
	}
	defer p.Close()
	s, err := pool.NewScheduler(p, pool.WithMaxWait(50*time.Millisecond))
	if err != nil {
		panic(err)
	}
	hold, started := make(chan struct{}), make(chan struct{})
	_ = p.Submit(context.Background(), func() { close(started); <-hold }) // the worker is busy
	<-started
	var order []string
	var wg sync.WaitGroup
	for _, r := range []struct {
		name  string
		class pool.Class
	}{{"report", 0}, {"checkout", 1}, {"search", 0}, {"login", 1}} {
		wg.Add(1)
		if err := s.Submit(context.Background(), r.class, func() { order = append(order, r.name); wg.Done() }); err != nil {
			panic(err)
		}
	}
	close(hold)
	wg.Wait()
	fmt.Println(order)
	// Output: [checkout login report search]
}

// Schedule's Future says what became of a task that never ran.
func ExampleSchedule() {
	p, err := pool.New(1)
	if err != nil {
		panic(err)
	}
	defer p.Close()
	s, err := pool.NewScheduler(p)
	if err != nil {
		panic(err)
	}
	hold, started := make(chan struct{}), make(chan struct{})
	_ = p.Submit(context.Background(), func() { close(started); <-hold })
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	f, err := pool.Schedule(ctx, s, 0, func() (string, error) { return "answer", nil })
	if err != nil {
		panic(err)
	}
	cancel() // the caller has gone: the task will never start
	_, err = f.Wait(context.Background())
	fmt.Println(err)
	close(hold)
	g, _ := pool.Schedule(context.Background(), s, 0, func() (string, error) { return "answer", nil })
	fmt.Println(g.Wait(context.Background()))
	fmt.Println(p.Stats().Expired)
	// Output:
	// context canceled
	// answer <nil>
	// 1
}

// When the pool is full, the least urgent waiting task makes way.
func ExampleScheduler_Submit() {
	p, err := pool.New(1, pool.WithQueueSize(1))
	if err != nil {
		panic(err)
	}
	defer p.Close()
	s, err := pool.NewScheduler(p)
	if err != nil {
		panic(err)
	}
	hold, started := make(chan struct{}), make(chan struct{})
	defer close(hold)
	_ = p.Submit(context.Background(), func() { close(started); <-hold })
	<-started
	ctx := context.Background()
	low, _ := pool.Schedule(ctx, s, 0, func() (int, error) { return 0, nil }) // waits in the queue's one place
	fmt.Println(s.Submit(ctx, 1, func() {}))                                  // takes that place
	_, err = low.Wait(ctx)
	fmt.Println(errors.Is(err, pool.ErrShed), errors.Is(err, pool.ErrOverload))
	err = s.Submit(ctx, 0, func() {}) // nothing less urgent waits: refused
	fmt.Println(err)
	// Output:
	// <nil>
	// true true
	// pool: task shed under overload
}
