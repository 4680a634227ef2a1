package servertest_test

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/poolkit/poolkit/natsrunner"
)

// TestHandlerGoexit: a handler that calls runtime.Goexit fails its message
// as a panic does: the message is Nak'd at once (not left in progress for
// the whole run), redelivered and then acked; Stats counts the failure.
func TestHandlerGoexit(t *testing.T) {
	e := newEnv(t, 30*time.Second)
	e.publish(3)
	led := newLedger()
	var exited atomic.Bool
	h := func(_ context.Context, msg jetstream.Msg) error {
		if msgID(t, msg) == 1 && exited.CompareAndSwap(false, true) {
			runtime.Goexit()
		}
		return nil
	}
	r := runUntilAcked(t, e.consumer(e.js), newPool(t, 2), h, led, 3)
	if st := r.Stats(); st.Panics != 1 {
		t.Errorf("Stats().Panics = %d after a handler's Goexit, want 1", st.Panics)
	}
}

// TestConsumerDeletedEndsRun: a consumer deleted while the runner pulls
// from it ends Run with an error saying so, whether a pull was open at
// the deletion (the server says "consumer deleted") or the next one finds
// the consumer gone (the server has no responder for it, as during a
// restart, and only the consumer's info tells the two apart).
func TestConsumerDeletedEndsRun(t *testing.T) {
	for _, pullOpen := range []bool{true, false} {
		t.Run(map[bool]string{true: "pull open", false: "between pulls"}[pullOpen], func(t *testing.T) {
			e := newEnv(t, 30*time.Second)
			e.publish(1)
			release := make(chan struct{})
			started := make(chan struct{}, 1)
			// A pool of one, held by the handler: no pull is open while it
			// runs.
			r, err := natsrunner.New(e.consumer(e.js), newPool(t, 1),
				func(context.Context, jetstream.Msg) error {
					started <- struct{}{}
					<-release
					return nil
				},
				natsrunner.WithFetchMaxWait(100*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- r.Run(ctx) }()
			<-started
			if pullOpen {
				close(release)
				time.Sleep(200 * time.Millisecond) // pulling again, with nothing to get
			}
			if err := e.js.DeleteConsumer(context.Background(), streamName, durable); err != nil {
				t.Fatal(err)
			}
			if !pullOpen {
				close(release)
			}
			select {
			case err := <-done:
				if !errors.Is(err, jetstream.ErrConsumerNotFound) && !errors.Is(err, jetstream.ErrConsumerDeleted) {
					t.Errorf("Run after the consumer's deletion = %v, want ErrConsumerNotFound or ErrConsumerDeleted", err)
				}
			case <-ctx.Done():
				t.Fatal("Run did not return after its consumer was deleted")
			}
		})
	}
}

// TestPullLimits: a consumer whose MaxRequestBatch is below the pool's
// room, or whose MaxRequestExpires is below the fetch wait, refuses pulls
// that exceed them; the runner keeps its pulls within both and handles
// every message.
func TestPullLimits(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  func(*jetstream.ConsumerConfig)
	}{
		{"MaxRequestBatch", func(c *jetstream.ConsumerConfig) { c.MaxRequestBatch = 4 }},
		{"MaxRequestExpires", func(c *jetstream.ConsumerConfig) { c.MaxRequestExpires = 500 * time.Millisecond }},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, 30*time.Second)
			cfg := jetstream.ConsumerConfig{
				Durable:       "limited",
				AckPolicy:     jetstream.AckExplicitPolicy,
				MaxAckPending: 1000,
			}
			c.cfg(&cfg)
			cons, err := e.js.CreateOrUpdateConsumer(context.Background(), streamName, cfg)
			if err != nil {
				t.Fatal(err)
			}
			e.publish(40)
			var handled atomic.Int64
			r, err := natsrunner.New(cons, newPool(t, 8), func(context.Context, jetstream.Msg) error {
				handled.Add(1)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			stop := start(t, r)
			waitFor(t, 20*time.Second, "every message handled", func() bool { return handled.Load() == 40 })
			if err := stop(); !errors.Is(err, context.Canceled) {
				t.Errorf("Run = %v, want context.Canceled", err)
			}
		})
	}
}
