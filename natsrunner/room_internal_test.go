package natsrunner

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// TestFreeNeverOverstatesRoom: the runner pulls only what the pool can
// start. Fed one task at a time, a pool of 1 has room only once the
// runner's previous task has returned; Stats alone, whose fields are read
// one after another, sometimes counts a task passing from the queue to a
// worker in neither Running nor Waiting, and the runner would pull a
// message that then waits a whole handler's time.
func TestFreeNeverOverstatesRoom(t *testing.T) {
	p, err := pool.New(1)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r := &Runner{pool: p, finished: make(chan struct{}, 1)}
	var returned atomic.Int64
	deadline := time.Now().Add(300 * time.Millisecond)
	const most = 200_000
	submitted := int64(0)
	for submitted < most && time.Now().Before(deadline) {
		if r.free() <= 0 {
			continue
		}
		if got := returned.Load(); got != submitted {
			t.Fatalf("free() = %d with %d of the runner's %d tasks not returned from a pool of 1", r.free(), submitted-got, submitted)
		}
		r.inPool.Add(1)
		submitted++
		if err := p.Submit(context.Background(), func() {
			defer r.inPool.Add(-1) // as process does, after the handler
			returned.Add(1)        // the handler's return
		}); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d tasks fed one at a time", submitted)
}
