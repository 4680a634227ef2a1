package pool_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/poolkit/poolkit/pool"
)

// keyedOp is one producer's step: a task for a key (ending normally, by a
// panic or by runtime.Goexit), or a resize.
type keyedOp struct {
	key    int
	ending int // 0 returns, 1 panics, 2 calls runtime.Goexit
	resize int // > 0: Resize(resize) instead of a task
}

// TestKeyedRandomSequences: KEY-13. Producers run random sequences of
// keyed submits and resizes against one pool, which a close or ShutdownNow
// ends part way; every accepted task runs exactly once, in the pool or from
// a function ShutdownNow handed back, in its key's order for its producer,
// never beside another task of its key.
func TestKeyedRandomSequences(t *testing.T) {
	checks := int64(100) // each check runs real goroutines: a hundred, not the package's thousand
	if raceEnabled {
		checks = 40
	}
	var ran atomic.Int64
	rapid.Check(t, func(rt *rapid.T) {
		if ran.Add(1) > checks {
			return
		}
		capacity := rapid.IntRange(1, 4).Draw(rt, "cap")
		budget := rapid.IntRange(1, 4).Draw(rt, "budget")
		p, err := pool.New(capacity, pool.WithPanicHandler(func(any) {}))
		if err != nil {
			rt.Fatal(err)
		}
		kd, err := pool.NewKeyed[int](p, pool.WithBudget(budget), pool.WithUnboundedQueue())
		if err != nil {
			rt.Fatal(err)
		}
		producers := rapid.IntRange(1, 3).Draw(rt, "producers")
		plans := make([][]keyedOp, producers)
		for i := range plans {
			plans[i] = rapid.SliceOfN(rapid.Custom(func(rt *rapid.T) keyedOp {
				if rapid.IntRange(0, 9).Draw(rt, "resize?") == 0 {
					return keyedOp{resize: rapid.IntRange(1, 4).Draw(rt, "n")}
				}
				return keyedOp{key: rapid.IntRange(0, 3).Draw(rt, "key"), ending: rapid.IntRange(0, 5).Draw(rt, "ending") % 3 * min(1, rapid.IntRange(0, 2).Draw(rt, "rare"))}
			}), 1, 40).Draw(rt, fmt.Sprint("plan", i))
		}
		ending := rapid.SampledFrom([]string{"close", "now"}).Draw(rt, "end")
		endAfter := rapid.IntRange(0, 40).Draw(rt, "endAfter")

		var mu sync.Mutex
		busy := map[int]bool{}
		runs := map[[2]int]int{} // (producer, index) -> runs
		last := map[[2]int]int{} // (producer, key) -> last index run
		accepted := map[[2]int]bool{}
		var failures []string
		fail := func(format string, args ...any) { failures = append(failures, fmt.Sprintf(format, args...)) }
		task := func(pr, i int, op keyedOp) func() {
			return func() {
				mu.Lock()
				if busy[op.key] {
					fail("key %d: producer %d's task %d began beside another task of its key", op.key, pr, i)
				}
				busy[op.key] = true
				runs[[2]int{pr, i}]++
				if l, ok := last[[2]int{pr, op.key}]; ok && l >= i {
					fail("key %d: producer %d's task %d ran after its task %d", op.key, pr, i, l)
				}
				last[[2]int{pr, op.key}] = i
				mu.Unlock()
				defer func() {
					mu.Lock()
					busy[op.key] = false
					mu.Unlock()
				}()
				switch op.ending {
				case 1:
					panic("keyed task")
				case 2:
					runtimeGoexit()
				}
			}
		}
		var wg sync.WaitGroup
		var back []func()
		var once sync.Once
		end := func() {
			once.Do(func() {
				if ending == "close" {
					p.Close()
					return
				}
				fs := p.ShutdownNow()
				mu.Lock()
				back = fs
				mu.Unlock()
			})
		}
		for pr, plan := range plans {
			pr, plan := pr, plan
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i, op := range plan {
					if pr == 0 && i == endAfter {
						end()
					}
					if op.resize > 0 {
						_ = p.Resize(op.resize)
						continue
					}
					if err := kd.Submit(bg, op.key, task(pr, i, op)); err == nil {
						mu.Lock()
						accepted[[2]int{pr, i}] = true
						mu.Unlock()
					}
				}
			}()
		}
		wg.Wait()
		end()
		if err := shutdownWithin(p, time.Minute); err != nil {
			rt.Fatal(err)
		}
		mu.Lock()
		fs := back
		mu.Unlock()
		for _, f := range fs {
			callUntilDone(f)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, f := range failures {
			rt.Error(f)
		}
		for id := range accepted {
			if runs[id] != 1 {
				rt.Errorf("accepted task %v ran %d times", id, runs[id])
			}
		}
		for id, n := range runs {
			if !accepted[id] && n > 0 {
				rt.Errorf("task %v ran %d times though its Submit failed", id, n)
			}
		}
	})
}

// callUntilDone calls a handed-back function until it returns normally: a
// task of it that panics ends that call, and the next call runs the rest.
// A task's runtime.Goexit would end this goroutine, so each call gets its
// own.
func callUntilDone(f func()) {
	for {
		done := make(chan bool, 1)
		go func() {
			ok := false
			defer func() {
				_ = recover()
				done <- ok
			}()
			f()
			ok = true
		}()
		if <-done {
			return
		}
	}
}
