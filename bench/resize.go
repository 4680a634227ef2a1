package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/poolkit/resize"
	"github.com/poolkit/poolkit/spectest"
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
// A measurement that finds the contender misbehaving is a problem of the
// run.
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
		_, ok := r.(resize.Resizer)
		_ = r.Shutdown(context.Background())
		if ok {
			cases = append(cases, Case{Impl: c.name, F: func(b *testing.B) {
				b.ReportAllocs()
				b.StopTimer()
				for range b.N {
					if err := once(b, c); err != nil {
						problem(b, c.name, err.Error())
					}
				}
			}})
		}
	}
	return cases
}

// lostWakeup says why a peer's grow can leave tasks waiting beside free
// slots, where the conformance suite has pinned the cause down.
var lostWakeup = map[string]string{
	"ants": "ants loses a grow's wake-up: Tune stores the new capacity and broadcasts without the lock a submitter " +
		"holds between checking the capacity and waiting, so a submitter in that gap waits beside a free slot " +
		"until a task finishes (CAP-8 in MATRIX.md)",
}

// grewShort says what a grow that did not start every task it had room
// for left behind, and why, when that is known.
func grewShort(impl string, running, from, to int) string {
	reason := fmt.Sprintf("%d of %d tasks running %v after growing from %d to %d", running, to, resizeDeadline, from, to)
	if why := lostWakeup[impl]; why != "" {
		reason += ": " + why
	}
	return reason
}

// growOnce measures one grow from 4 to 64 with the timer stopped around
// everything but the Resize call and the wait for the tasks to start.
func growOnce(b *testing.B, c contender) (err error) {
	const from, to = 4, 64
	r, err := c.make(from)
	if err != nil {
		return fmt.Errorf("building a pool of %d: %v", from, err)
	}
	var started atomic.Int64
	var failed firstError
	hold := make(chan struct{}) // closed once measured: the tasks end
	var submitters sync.WaitGroup
	for range to {
		submitters.Go(func() {
			if err := r.Submit(func() { started.Add(1); <-hold }); err != nil {
				failed.set(fmt.Errorf("Submit = %v", err))
			}
		})
	}
	defer func() {
		close(hold)
		submitters.Wait()
		err = settle(err, failed.get(), r)
	}()
	if !waitUntil(func() bool { return started.Load() == from }) {
		return fmt.Errorf("%d of %d tasks started before the resize", started.Load(), from)
	}
	// Give the other submitters time to queue or block.
	time.Sleep(time.Millisecond)
	b.StartTimer()
	if err := r.(resize.Resizer).Resize(to); err != nil {
		return fmt.Errorf("Resize(%d) = %v", to, err)
	}
	ok := waitUntil(func() bool { return started.Load() == to })
	b.StopTimer()
	if !ok {
		return errors.New(grewShort(c.name, int(started.Load()), from, to))
	}
	return nil
}

// shrinkOnce measures one shrink from 64 to 8 under a steady stream of
// 200 µs tasks, submitted by 4 goroutines that keep at most 256 tasks
// outstanding (so that no contender queues without bound).
func shrinkOnce(b *testing.B, c contender) (err error) {
	const from, to = 64, 8
	r, err := c.make(from)
	if err != nil {
		return fmt.Errorf("building a pool of %d: %v", from, err)
	}
	var running atomic.Int64
	var failed firstError
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
					failed.set(fmt.Errorf("Submit = %v", err))
					return
				}
			}
		})
	}
	defer func() {
		close(stop)
		feeders.Wait()
		err = settle(err, failed.get(), r)
	}()
	if !waitUntil(func() bool { return running.Load() >= from }) {
		return fmt.Errorf("never saturated: %d of %d running", running.Load(), from)
	}
	b.StartTimer()
	if err := r.(resize.Resizer).Resize(to); err != nil {
		return fmt.Errorf("Resize(%d) = %v", to, err)
	}
	ok := waitUntil(func() bool { return running.Load() <= to })
	b.StopTimer()
	if !ok {
		return fmt.Errorf("%d tasks still running %v after shrinking from %d to %d", running.Load(), resizeDeadline, from, to)
	}
	return nil
}

// settle releases r at the end of a measurement and returns what went
// wrong in it: a submitter's error first (it explains what followed), then
// the measurement's, then the release's.
func settle(measured, submitted error, r spectest.Pool) error {
	rerr := r.Shutdown(context.Background())
	switch {
	case submitted != nil:
		return submitted
	case measured != nil:
		return measured
	case rerr != nil:
		return fmt.Errorf("Shutdown = %v", rerr)
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
