//go:build go1.25

package pool_test

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// TestInvokeZeroValues: every value of T is a valid argument, nil and
// zero values included, and each invocation runs once with its argument.
func TestInvokeZeroValues(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var got []*int
		p, err := pool.NewFunc(2, func(v *int) {
			mu.Lock()
			got = append(got, v)
			mu.Unlock()
		})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		one := 1
		for _, v := range []*int{nil, &one, nil} {
			if err := p.Invoke(bg, v); err != nil {
				t.Fatalf("Invoke(%v) = %v", v, err)
			}
		}
		synctest.Wait()
		nils := 0
		for _, v := range got {
			if v == nil {
				nils++
			}
		}
		if len(got) != 3 || nils != 2 {
			t.Errorf("got %v, want two nils and &one", got)
		}
	})
}

// TestInvokeAllocs: Invoke, and the task's run, allocate nothing per call
// once the workers exist, with the timings off or on.
func TestInvokeAllocs(t *testing.T) {
	for _, timed := range []bool{false, true} {
		var wg sync.WaitGroup
		p, err := pool.NewFunc(4, func(int) { wg.Done() }, pool.WithMinWorkers(4), pool.WithIdleTimeout(0))
		if err != nil {
			t.Fatal(err)
		}
		pool.SetFuncTimings(p, timed)
		allocs := testing.AllocsPerRun(1000, func() {
			wg.Add(1)
			if err := p.Invoke(bg, 7); err != nil {
				t.Fatal(err)
			}
			wg.Wait()
		})
		if allocs != 0 {
			t.Errorf("timings %v: Invoke allocates %.2f times per call, want 0", timed, allocs)
		}
		if n := p.Stats().Service.Count; timed && n < 1000 {
			t.Errorf("Service.Count = %d with timings on, want at least 1000", n)
		}
		if err := shutdownWithin(p, time.Minute); err != nil {
			t.Error(err)
		}
	}
}
