package servertest_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/natsrunner"
)

// completions records, per message id, the handler calls that returned nil
// and the settlements that reached the server (Ack without error).
type completions struct {
	mu          sync.Mutex
	done        map[int]int // handler returned nil
	acked       map[int]int // Ack call returned nil
	redelivered map[int]bool
}

func newCompletions() *completions {
	return &completions{done: map[int]int{}, acked: map[int]int{}, redelivered: map[int]bool{}}
}

func (c *completions) handled(id int, msg jetstream.Msg) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done[id]++
	if md, err := msg.Metadata(); err == nil && md.NumDelivered > 1 {
		c.redelivered[id] = true
	}
}

func (c *completions) hook(t *testing.T) natsrunner.Option {
	return natsrunner.WithOnSettle(func(msg jetstream.Msg, o natsrunner.Outcome, err error) {
		if o != natsrunner.Acked || err != nil {
			return // a failed settle does not reach the server
		}
		id := msgID(t, msg)
		c.mu.Lock()
		c.acked[id]++
		c.mu.Unlock()
	})
}

func (c *completions) ackedIDs() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.acked)
}

// check asserts every id 0..n-1 was handled and acked; exactly once
// unless dupOK allows a second ack of a redelivered message.
func (c *completions) check(t *testing.T, n int, dupOK bool) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range n {
		switch a := c.acked[id]; {
		case a == 0:
			t.Errorf("message %d lost: never acked", id)
		case a > 1 && !(dupOK && c.redelivered[id]):
			t.Errorf("message %d acked %d times (redelivered %v)", id, a, c.redelivered[id])
		}
		if c.done[id] == 0 {
			t.Errorf("message %d acked but its handler never completed", id)
		}
	}
}

// A replica crashes mid-run: its connection is gone and its in-flight
// handlers never settle. A second runner on the same durable consumer gets
// every unacked message redelivered after AckWait; none is lost and none
// acked twice.
func TestReplicaKilledMidRun(t *testing.T) {
	const n = 200
	e := newEnv(t, 400*time.Millisecond)
	e.publish(n)
	comp := newCompletions()

	ncA, err := nats.Connect("", nats.InProcessServer(e.ns))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ncA.Close)
	jsA, err := jetstream.New(ncA)
	if err != nil {
		t.Fatal(err)
	}
	var crashed atomic.Bool
	slow := func(ctx context.Context, msg jetstream.Msg) error {
		time.Sleep(20 * time.Millisecond)
		if crashed.Load() {
			<-ctx.Done() // a dead process returns nothing
			return ctx.Err()
		}
		comp.handled(msgID(t, msg), msg)
		return nil
	}
	poolA := newPool(t, 8)
	a, err := natsrunner.New(e.consumer(jsA), poolA, slow, comp.hook(t),
		natsrunner.WithDrainTimeout(0), natsrunner.WithFetchMaxWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stopA := start(t, a)
	waitFor(t, 10*time.Second, "runner A acks 40 and holds a full pool", func() bool {
		return a.Stats().Acked >= 40 && poolA.Stats().Running == 8
	})
	// Crash: handlers stop returning, the connection drops, and the
	// runner gives up without draining. Its Naks fail on the closed
	// connection, so nothing it held is settled on the server.
	crashed.Store(true)
	ncA.Close()
	_ = stopA()
	sA := a.Stats()
	t.Logf("runner A at the crash: %+v", sA)
	if sA.InFlight != 0 {
		t.Errorf("runner A still holds %d messages after Run returned", sA.InFlight)
	}
	if comp.ackedIDs() >= n {
		t.Fatalf("runner A acked everything before the crash; nothing to redeliver")
	}

	b, err := natsrunner.New(e.consumer(e.connect()), newPool(t, 8),
		func(_ context.Context, msg jetstream.Msg) error {
			comp.handled(msgID(t, msg), msg)
			return nil
		}, comp.hook(t), natsrunner.WithFetchMaxWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stopB := start(t, b)
	waitFor(t, 20*time.Second, "every message acked", func() bool { return comp.ackedIDs() == n })
	_ = stopB()
	comp.check(t, n, false)
	comp.mu.Lock()
	red := len(comp.redelivered)
	comp.mu.Unlock()
	t.Logf("runner B: %+v; %d messages redelivered", b.Stats(), red)
	if red == 0 {
		t.Error("no message was redelivered to runner B")
	}
	if info := e.info(); info.NumPending != 0 || info.NumAckPending != 0 {
		t.Errorf("server still has pending %d, ack pending %d", info.NumPending, info.NumAckPending)
	}
}
