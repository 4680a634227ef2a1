package hotpath

import (
	"sync/atomic"
	"testing"
	"time"
)

// The work a task does: xorshift rounds that the compiler cannot remove,
// since their result reaches sink and their seed is a variable.
const (
	tinyRounds  = 60  // about 100 ns
	microRounds = 600 // about 1 µs
)

// seed is a variable, not a constant, so that spin cannot be folded.
var seed uint64 = 0x9e3779b97f4a7c15

var sink atomic.Uint64

// spin does rounds of xorshift arithmetic on x.
func spin(x uint64, rounds int) uint64 {
	x |= 1
	for range rounds {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// tinyWork is a task of about 100 ns.
func tinyWork() { sink.Add(spin(seed, tinyRounds) & 1) }

// stuck is how long a benchmark waits for its tasks or messages before
// it fails: a lost one would otherwise hang the run.
const stuck = 2 * time.Minute

// await waits until done is closed, or fails the benchmark with what
// after stuck.
func await(b *testing.B, done <-chan struct{}, what string) {
	b.Helper()
	t := time.NewTimer(stuck)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		b.Fatalf("after %v: %s", stuck, what)
	}
}

// countdown closes done once Do has been called n times.
type countdown struct {
	left atomic.Int64
	done chan struct{}
}

func newCountdown(n int) *countdown {
	c := &countdown{done: make(chan struct{})}
	c.left.Store(int64(n))
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
