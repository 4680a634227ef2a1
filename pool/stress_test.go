//go:build go1.25

package pool_test

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/poolkit/poolkit/pool"
)

// TestExactlyOnceStress: under concurrent submitters, resizes, panicking
// and Goexit-ing tasks and a release in the middle, every task whose
// Submit returned nil runs exactly once (or, after ShutdownNow, is handed
// back exactly once), every task whose Submit failed never runs, and no
// more tasks ever run at once than the largest capacity set.
func TestExactlyOnceStress(t *testing.T) {
	for _, mode := range []string{"Close", "ShutdownNow"} {
		for _, qs := range []int{0, 1, 64} {
			t.Run(mode+"/queue="+strconv.Itoa(qs), func(t *testing.T) {
				stressOnce(t, mode, qs)
			})
		}
	}
}

func stressOnce(t *testing.T, mode string, queueSize int) {
	const submitters, perSubmitter, maxCap = 4, 3000, 8
	var panics atomic.Int64
	p, err := pool.New(3, pool.WithQueueSize(queueSize), pool.WithPanicHandler(func(any) { panics.Add(1) }))
	if err != nil {
		t.Fatal(err)
	}
	runs := make([]atomic.Int32, submitters*perSubmitter)
	accepted := make([]bool, submitters*perSubmitter)
	var now, peak atomic.Int64
	task := func(id int) func() {
		return func() {
			n := now.Add(1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			runs[id].Add(1)
			now.Add(-1)
			switch id % 97 {
			case 0:
				panic("stress")
			case 1:
				runtime.Goexit()
			}
		}
	}
	stop := make(chan struct{})
	var resizer sync.WaitGroup
	resizer.Go(func() { // resizer
		r := rand.New(rand.NewPCG(1, 2))
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := p.Resize(1 + r.IntN(maxCap)); err != nil && !errors.Is(err, pool.ErrClosed) {
				t.Errorf("Resize = %v", err)
			}
			runtime.Gosched()
		}
	})
	var wg sync.WaitGroup
	var returned []func()
	for s := range submitters {
		wg.Go(func() {
			for i := range perSubmitter {
				id := s*perSubmitter + i
				if s == 0 && i == perSubmitter/2 {
					if mode == "Close" {
						p.Close()
					} else {
						returned = p.ShutdownNow()
					}
				}
				err := p.Submit(bg, task(id))
				switch {
				case err == nil:
					accepted[id] = true
				case errors.Is(err, pool.ErrClosed):
				default:
					t.Errorf("Submit = %v", err)
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	resizer.Wait()
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	for _, f := range returned {
		// The caller owns the handed-back tasks; running them completes the
		// count. Some panic or call Goexit, so each gets a goroutine.
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer func() { _ = recover() }()
			f()
		}()
		<-done
	}
	for id := range runs {
		n := runs[id].Load()
		if accepted[id] && n != 1 {
			t.Errorf("accepted task %d ran %d times", id, n)
		}
		if !accepted[id] && n != 0 {
			t.Errorf("rejected task %d ran %d times", id, n)
		}
	}
	if peak.Load() > maxCap {
		t.Errorf("peak concurrency %d above the largest capacity %d", peak.Load(), maxCap)
	}
	s := p.Stats()
	nAccepted := 0
	for _, a := range accepted {
		if a {
			nAccepted++
		}
	}
	if s.Submitted != uint64(nAccepted) || s.Completed+s.Returned != s.Submitted || s.Running != 0 || s.Waiting != 0 {
		t.Errorf("Stats = %+v for %d accepted tasks", s, nAccepted)
	}
}

// TestMemoryModel: writes before Submit are visible in the task, and the
// task's writes are visible after Shutdown returns nil, with plain
// (non-atomic) variables; the race detector reports any missing edge.
func TestMemoryModel(t *testing.T) {
	p, err := pool.New(4)
	if err != nil {
		t.Fatal(err)
	}
	const n = 200
	in := make([]int, n)
	out := make([]int, n)
	for i := range n {
		in[i] = i * 3
		if err := p.Submit(bg, func() { out[i] = in[i] + 1 }); err != nil {
			t.Fatal(err)
		}
	}
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if out[i] != i*3+1 {
			t.Fatalf("out[%d] = %d, want %d", i, out[i], i*3+1)
		}
	}
}

// TestCapacityBoundStress: with many submitters and tasks that take turns
// on the scheduler, no more than Cap() tasks ever run at once.
func TestCapacityBoundStress(t *testing.T) {
	for _, c := range []int{1, 3, 8} {
		p, err := pool.New(c)
		if err != nil {
			t.Fatal(err)
		}
		var now, peak atomic.Int64
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for range 2000 {
					if err := p.Submit(bg, func() {
						n := now.Add(1)
						for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
						}
						runtime.Gosched()
						now.Add(-1)
					}); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		if err := shutdownWithin(p, time.Minute); err != nil {
			t.Fatal(err)
		}
		if peak.Load() > int64(c) {
			t.Errorf("cap %d: peak concurrency %d", c, peak.Load())
		}
	}
}

// TestNoGoroutineOutlivesShutdown: once Shutdown has returned nil, no
// goroutine of the pool is left, whatever state its workers were in.
func TestNoGoroutineOutlivesShutdown(t *testing.T) {
	p, err := pool.New(64, pool.WithMinWorkers(8))
	if err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	for i := range 500 {
		if err := p.Submit(bg, func() {
			if i%2 == 0 {
				<-gate
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	p.Close()
	close(gate)
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := goleak.Find(); err != nil {
		t.Errorf("goroutines left after Shutdown: %v", err)
	}
}
