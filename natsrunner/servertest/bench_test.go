package servertest_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/panjf2000/ants/v2"
	"github.com/poolkit/poolkit/natsrunner"
)

const (
	benchMsgs        = 2000
	benchConcurrency = 16
	benchWork        = time.Millisecond
)

// receipts keeps when each message was received, until its handler
// starts.
type receipts struct{ at sync.Map } // jetstream.Msg -> time.Time

func (r *receipts) receive(m jetstream.Msg) { r.at.Store(m, time.Now()) }

// since returns how long ago m was received, once.
func (r *receipts) since(m jetstream.Msg) (time.Duration, bool) {
	v, ok := r.at.LoadAndDelete(m)
	if !ok {
		return 0, false
	}
	return time.Since(v.(time.Time)), true
}

// bufferClock sums the time messages spent in the client between being
// received and their handler starting.
type bufferClock struct {
	receipts
	total atomic.Int64
	acked atomic.Int64
	done  chan struct{}
}

func newBufferClock() *bufferClock { return &bufferClock{done: make(chan struct{})} }

func (c *bufferClock) start(m jetstream.Msg) {
	if d, ok := c.since(m); ok {
		c.total.Add(int64(d))
	}
}

func (c *bufferClock) ack() {
	if c.acked.Add(1) == benchMsgs {
		close(c.done)
	}
}

// timedConsumer calls receive when each message comes out of a Fetch
// batch: the moment the runner receives it.
type timedConsumer struct {
	jetstream.Consumer
	receive func(jetstream.Msg)
}

type timedBatch struct {
	ch  chan jetstream.Msg
	err func() error
}

func (b timedBatch) Messages() <-chan jetstream.Msg { return b.ch }
func (b timedBatch) Error() error                   { return b.err() }

func (c timedConsumer) Fetch(n int, opts ...jetstream.FetchOpt) (jetstream.MessageBatch, error) {
	inner, err := c.Consumer.Fetch(n, opts...)
	if err != nil {
		return nil, err
	}
	ch := make(chan jetstream.Msg)
	go func() {
		defer close(ch)
		for m := range inner.Messages() {
			c.receive(m)
			ch <- m
		}
	}()
	return timedBatch{ch: ch, err: inner.Error}, nil
}

// benchConsume runs one burst per iteration through consume, which must
// return once the burst is acked; it reports throughput and the mean time
// a message waited in the client before its handler started.
func benchConsume(b *testing.B, consume func(b *testing.B, cons jetstream.Consumer, clock *bufferClock)) {
	var elapsed time.Duration
	var buffered int64
	for range b.N {
		b.StopTimer()
		e := newEnv(b, 30*time.Second)
		e.publish(benchMsgs)
		cons := e.consumer(e.js)
		clock := newBufferClock()
		b.StartTimer()
		began := time.Now()
		consume(b, cons, clock)
		elapsed += time.Since(began)
		buffered += clock.total.Load()
	}
	msgs := float64(b.N * benchMsgs)
	b.ReportMetric(msgs/elapsed.Seconds(), "msgs/s")
	b.ReportMetric(float64(buffered)/msgs, "buffer-ns/op")
}

func waitBurst(b *testing.B, clock *bufferClock) {
	select {
	case <-clock.done:
	case <-time.After(60 * time.Second):
		b.Fatalf("burst not acked: %d of %d", clock.acked.Load(), benchMsgs)
	}
}

func BenchmarkConsume(b *testing.B) {
	// The runner with no message waiting in the client (the default), and
	// with a quarter of the concurrency's worth allowed to wait in the
	// pool (WithQueued), which hides a pull's round trip.
	for _, queued := range []int{0, benchConcurrency / 4} {
		name := "runner-poolkit"
		if queued > 0 {
			name += fmt.Sprintf("-queued%d", queued)
		}
		b.Run(name, func(b *testing.B) {
			benchConsume(b, func(b *testing.B, cons jetstream.Consumer, clock *bufferClock) {
				h := func(_ context.Context, m jetstream.Msg) error {
					clock.start(m)
					time.Sleep(benchWork)
					return nil
				}
				r, err := natsrunner.New(timedConsumer{cons, clock.receive}, newPool(b, benchConcurrency), h, natsrunner.WithQueued(queued),
					natsrunner.WithOnSettle(func(jetstream.Msg, natsrunner.Outcome, error) { clock.ack() }))
				if err != nil {
					b.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan error, 1)
				go func() { done <- r.Run(ctx) }()
				waitBurst(b, clock)
				cancel()
				<-done
			})
		})
	}
	b.Run("consume-ants", func(b *testing.B) {
		benchConsume(b, func(b *testing.B, cons jetstream.Consumer, clock *bufferClock) {
			p, err := ants.NewPool(benchConcurrency)
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = p.ReleaseTimeout(10 * time.Second) }()
			cc, err := cons.Consume(func(m jetstream.Msg) {
				clock.receive(m)
				if err := p.Submit(func() {
					clock.start(m)
					time.Sleep(benchWork)
					if m.Ack() == nil {
						clock.ack()
					}
				}); err != nil {
					_ = m.Nak()
				}
			})
			if err != nil {
				b.Fatal(err)
			}
			waitBurst(b, clock)
			cc.Stop()
		})
	})
	b.Run("consume-goroutines", func(b *testing.B) {
		benchConsume(b, func(b *testing.B, cons jetstream.Consumer, clock *bufferClock) {
			sem := make(chan struct{}, benchConcurrency)
			var wg sync.WaitGroup
			cc, err := cons.Consume(func(m jetstream.Msg) {
				clock.receive(m)
				wg.Add(1)
				go func() {
					defer wg.Done()
					sem <- struct{}{}
					defer func() { <-sem }()
					clock.start(m)
					time.Sleep(benchWork)
					if m.Ack() == nil {
						clock.ack()
					}
				}()
			})
			if err != nil {
				b.Fatal(err)
			}
			waitBurst(b, clock)
			cc.Stop()
			wg.Wait()
		})
	})
}
