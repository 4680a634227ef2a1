//go:build go1.22

package ants_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/poolkit/poolkit/ants"
)

// A program written for ants runs unchanged: only the import path differs.
func ExamplePool() {
	p, err := ants.NewPool(10)
	if err != nil {
		panic(err)
	}
	defer p.Release()

	var sum atomic.Int64
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Add(1)
		if err := p.Submit(func() {
			defer wg.Done()
			sum.Add(int64(i))
		}); err != nil {
			wg.Done()
			fmt.Println("not accepted:", err)
		}
	}
	wg.Wait()
	fmt.Println(sum.Load())
	// Output: 4950
}

func ExamplePoolWithFunc() {
	var seen atomic.Int64
	p, err := ants.NewPoolWithFunc(4, func(arg any) {
		if arg == nil { // nil is an argument like any other
			seen.Add(1)
		}
	})
	if err != nil {
		panic(err)
	}
	for range 3 {
		_ = p.Invoke(nil)
	}
	if err := p.ReleaseTimeout(time.Second); err != nil {
		panic(err)
	}
	fmt.Println(seen.Load())
	// Output: 3
}

// Tune on a multi-pool tunes each sub-pool, as in ants, and Cap reports the
// sum; Resize sets the sum.
func ExampleMultiPool_Tune() {
	mp, err := ants.NewMultiPool(4, 8, ants.LeastTasks)
	if err != nil {
		panic(err)
	}
	fmt.Println(mp.Cap())
	mp.Tune(3) // as in ants: three slots in each of the four sub-pools
	fmt.Println(mp.Cap())
	if err := mp.Resize(20); err != nil { // the total: five in each
		panic(err)
	}
	fmt.Println(mp.Cap())
	if err := mp.Resize(2); err != nil {
		fmt.Println(err)
	}
	_ = mp.ReleaseTimeout(time.Second)
	// Output:
	// 32
	// 12
	// 20
	// ants: invalid capacity 2 for 4 sub-pools: want 4 to 8589934588
}

// The default pool needs no constructor.
func ExampleSubmit() {
	done := make(chan string)
	if err := ants.Submit(func() { done <- "ran on the default pool" }); err != nil {
		panic(err)
	}
	fmt.Println(<-done)
	// Output: ran on the default pool
}
