package actors

import (
	"sync/atomic"
	"time"
)

// countdown is a Job that closes done when it has been done n times: the
// message a router's workers handle, and the way a workload learns that
// every actor finished.
type countdown struct {
	left atomic.Int64
	done chan struct{}
}

func newCountdown(n int64) *countdown {
	c := &countdown{done: make(chan struct{})}
	c.left.Store(n)
	if n <= 0 {
		close(c.done)
	}
	return c
}

// Do counts one down.
func (c *countdown) Do() {
	if c.left.Add(-1) == 0 {
		close(c.done)
	}
}

// wait waits for the count to reach zero, or for limit to pass (a lost
// message would otherwise hang the benchmark); it reports whether the
// count reached zero.
func (c *countdown) wait(limit time.Duration) bool {
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-c.done:
		return true
	case <-t.C:
		return false
	}
}

// stuck is how long a workload waits for its messages before it fails.
const stuck = 2 * time.Minute
