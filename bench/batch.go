package bench

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

func tinyTasks() Workload {
	return Workload{
		Name:  "TinyTasks",
		About: "100k tasks of ~100 ns on 8 workers from one submitter, waited for; one op is the whole batch",
		Quick: "2x", Full: "10x",
		Cases: each(true, func(c contender) func(*testing.B) {
			return batch(c, 8, 100_000, func(i int) { sink.Add(spin(uint64(i)) & 1) })
		}),
	}
}

func ioLike() Workload {
	return Workload{
		Name: "IOLike",
		About: "10k tasks that each wait 1 ms (a call to a downstream service) on 1000 workers; " +
			"the ideal is ten waves, 10 ms; one op is the whole batch",
		Quick: "2x", Full: "10x",
		Cases: each(false, func(c contender) func(*testing.B) {
			return batch(c, 1000, 10_000, func(int) { time.Sleep(time.Millisecond) })
		}),
	}
}

func mixed() Workload {
	return Workload{
		Name: "Mixed",
		About: "20k tasks on 64 workers: one in ten waits 1 ms, the rest compute ~1 µs; " +
			"one op is the whole batch",
		Quick: "2x", Full: "10x",
		Cases: each(false, func(c contender) func(*testing.B) {
			return batch(c, 64, 20_000, func(i int) {
				if i%10 == 0 {
					time.Sleep(time.Millisecond)
					return
				}
				x := uint64(i)
				for range 10 {
					x = spin(x)
				}
				sink.Add(x & 1)
			})
		}),
	}
}

// batch submits tasks tasks to a fresh runner of workers workers from one
// goroutine, waits for all of them and closes the runner; one op is the
// whole batch, creation and shutdown included.
func batch(c contender, workers, tasks int, task func(i int)) func(b *testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			batchOnce(b, c, workers, tasks, task)
		}
	}
}

func batchOnce(b *testing.B, c contender, workers, tasks int, task func(i int)) {
	r := start(b, c, workers)
	defer release(b, c.name, r)
	var wg sync.WaitGroup
	wg.Add(tasks)
	for i := range tasks {
		if err := r.Submit(func() { task(i); wg.Done() }); err != nil {
			problem(b, c.name, fmt.Sprintf("Submit of task %d of %d = %v", i+1, tasks, err))
		}
	}
	wg.Wait()
}
