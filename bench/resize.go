package bench

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// resizeDeadline bounds how long a resize measurement waits for the pool
// to reach its new size; a pool that does not is reported as failing.
const resizeDeadline = 5 * time.Second

func resizeGrow() Workload {
	return Workload{
		Name: "ResizeGrow",
		About: "a pool of 4 with 64 blocked tasks submitted (each from its own goroutine) is resized to 64; " +
			"one op is the time from the Resize call until all 64 tasks are running",
		Quick: "20x", Full: "100x",
		Cases: eachResizable(growOnce),
	}
}

func resizeShrink() Workload {
	return Workload{
		Name: "ResizeShrink",
		About: "a pool of 64 kept saturated by tasks that wait 200 µs is resized to 8; one op is the time " +
			"from the Resize call until no more than 8 tasks run",
		Quick: "20x", Full: "100x",
		Cases: eachResizable(shrinkOnce),
	}
}

// eachResizable builds one case per contender whose capacity can change:
// b.N measurements by once, each timing only the resize and what follows.
func eachResizable(once func(b *testing.B, c contender) error) []Case {
	var cases []Case
	for _, c := range contenders() {
		if c.variant {
			continue
		}
		r, err := c.make(1)
		if err != nil {
			continue
		}
		_, ok := r.(resizer)
		r.Close()
		if ok {
			cases = append(cases, Case{Impl: c.name, F: func(b *testing.B) {
				b.ReportAllocs()
				b.StopTimer()
				for range b.N {
					if err := once(b, c); err != nil {
						b.Fatal(err)
					}
				}
			}})
		}
	}
	return cases
}

// growOnce measures one grow from 4 to 64 with the timer stopped around
// everything but the Resize call and the wait for the tasks to start.
func growOnce(b *testing.B, c contender) error {
	const from, to = 4, 64
	r, err := c.make(from)
	if err != nil {
		return err
	}
	var started atomic.Int64
	release := make(chan struct{})
	var submitters sync.WaitGroup
	for range to {
		submitters.Go(func() {
			if err := r.Submit(func() { started.Add(1); <-release }); err != nil {
				b.Error(err)
			}
		})
	}
	defer func() {
		close(release)
		submitters.Wait()
		r.Close()
	}()
	if !waitUntil(func() bool { return started.Load() == from }) {
		return fmt.Errorf("%s: %d of %d tasks started before the resize", c.name, started.Load(), from)
	}
	// Give the other submitters time to queue or block.
	time.Sleep(time.Millisecond)
	b.StartTimer()
	if err := r.(resizer).Resize(to); err != nil {
		return err
	}
	ok := waitUntil(func() bool { return started.Load() == to })
	b.StopTimer()
	if !ok {
		return fmt.Errorf("%s: %d of %d tasks running %v after growing", c.name, started.Load(), to, resizeDeadline)
	}
	return nil
}

// shrinkOnce measures one shrink from 64 to 8 under a steady stream of
// 200 µs tasks, submitted by 4 goroutines that keep at most 256 tasks
// outstanding (so that no contender queues without bound).
func shrinkOnce(b *testing.B, c contender) error {
	const from, to = 64, 8
	r, err := c.make(from)
	if err != nil {
		return err
	}
	var running atomic.Int64
	outstanding := make(chan struct{}, 256)
	stop := make(chan struct{})
	var feeders sync.WaitGroup
	for range 4 {
		feeders.Go(func() {
			for {
				select {
				case <-stop:
					return
				case outstanding <- struct{}{}:
				}
				err := r.Submit(func() {
					running.Add(1)
					time.Sleep(200 * time.Microsecond)
					running.Add(-1)
					<-outstanding
				})
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	defer func() {
		close(stop)
		feeders.Wait()
		r.Close()
	}()
	if !waitUntil(func() bool { return running.Load() >= from }) {
		return fmt.Errorf("%s: never saturated (%d of %d running)", c.name, running.Load(), from)
	}
	b.StartTimer()
	if err := r.(resizer).Resize(to); err != nil {
		return err
	}
	ok := waitUntil(func() bool { return running.Load() <= to })
	b.StopTimer()
	if !ok {
		return fmt.Errorf("%s: %d tasks still running %v after shrinking to %d", c.name, running.Load(), resizeDeadline, to)
	}
	return nil
}

// waitUntil polls cond, yielding between polls, until it holds or
// resizeDeadline passes.
func waitUntil(cond func() bool) bool {
	deadline := time.Now().Add(resizeDeadline)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		runtime.Gosched()
	}
	return true
}
