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
	defer p.Release()
	fmt.Println(p.Cap(), p.Running())

	_, err = pool.New(0)
	fmt.Println(errors.Is(err, pool.ErrInvalidSize))
	// Output:
	// 4 0
	// true
}

func ExamplePool_Submit() {
	p, _ := pool.New(4)
	var sum atomic.Int64
	for i := 1; i <= 100; i++ {
		if err := p.Submit(func() { sum.Add(int64(i)) }); err != nil {
			panic(err)
		}
	}
	// ReleaseContext closes the pool and waits for every accepted task.
	if err := p.ReleaseContext(context.Background()); err != nil {
		panic(err)
	}
	fmt.Println(sum.Load())
	// Output: 5050
}

func ExamplePool_Resize() {
	p, _ := pool.New(2)
	defer p.Release()
	if err := p.Resize(8); err != nil {
		panic(err)
	}
	fmt.Println(p.Cap())
	fmt.Println(p.Resize(0))
	// Output:
	// 8
	// resize: invalid size 0: must be at least 1
}

func ExampleNewFunc() {
	var mu sync.Mutex
	lengths := map[string]int{}
	p, _ := pool.NewFunc(2, func(s string) {
		mu.Lock()
		lengths[s] = len(s)
		mu.Unlock()
	})
	for _, s := range []string{"ants", "pond", "poolkit"} {
		if err := p.Invoke(s); err != nil {
			panic(err)
		}
	}
	_ = p.ReleaseContext(context.Background())
	fmt.Println(lengths)
	// Output: map[ants:4 pond:4 poolkit:7]
}

func ExamplePool_Group() {
	p, _ := pool.New(3)
	defer p.Release()
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
	defer p.Release()
	ctx := context.Background()
	f, err := pool.SubmitResult(ctx, p, func() (string, error) { return "computed", nil })
	if err != nil {
		panic(err)
	}
	v, err := f.Wait(ctx)
	fmt.Println(v, err)
	// Output: computed <nil>
}

func ExamplePool_ReleaseNow() {
	p, _ := pool.New(1)
	gate := make(chan struct{})
	started := make(chan struct{})
	_ = p.Submit(func() { close(started); <-gate })
	<-started
	for range 3 {
		_ = p.Submit(func() {})
	}
	back := p.ReleaseNow() // the three queued tasks come back, not run
	close(gate)
	_ = p.ReleaseContext(context.Background())
	fmt.Println(len(back), p.Stats().Completed)
	// Output: 3 1
}

func ExamplePool_Timings() {
	p, _ := pool.New(2, pool.WithTimings())
	for range 10 {
		if err := p.Submit(func() { time.Sleep(time.Millisecond) }); err != nil {
			panic(err)
		}
	}
	if err := p.ReleaseTimeout(time.Minute); err != nil {
		panic(err)
	}
	t := p.Timings()
	// Every task is counted once in each histogram; each slept a
	// millisecond, so even the shortest service is at least that.
	fmt.Println(t.Wait.Count, t.Service.Count)
	fmt.Println(t.Service.Quantile(0) >= time.Millisecond, t.Service.Mean() >= time.Millisecond)

	// SetTimings(false) stops the recording and keeps what was recorded;
	// Sub gives what happened between two snapshots.
	p.Reboot()
	p.SetTimings(false)
	_ = p.Submit(func() {})
	_ = p.ReleaseTimeout(time.Minute)
	fmt.Println(p.Timings().Service.Sub(t.Service).Count)
	// Output:
	// 10 10
	// true true
	// 0
}
