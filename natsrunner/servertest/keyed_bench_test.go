package servertest_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/natsrunner"
)

var (
	keyedMsgs = flag.Int("keyed-msgs", 20000, "messages per run of BenchmarkKeyedConsume")
	keyedKeys = flag.Int("keyed-keys", 10000, "keys over which BenchmarkKeyedConsume spreads its messages")
	keyedWork = flag.Duration("keyed-work", 200*time.Microsecond, "the fast keys' handler time in BenchmarkKeyedConsume")
)

const (
	keyedConcurrency = 16
	slowWork         = 20 * time.Millisecond
)

// keyedLoad is one benchmark run's messages: the key of each, drawn
// uniformly or from Zipf(1.1); with slow set, a key "slow" whose handler
// takes slowWork, the others -keyed-work.
type keyedLoad struct {
	keys []string
	slow bool
}

func newKeyedLoad(n, k int, zipf, slow bool) keyedLoad {
	rng := rand.New(rand.NewPCG(7, 11))
	z := rand.NewZipf(rng, 1.1, 1, uint64(k-1))
	ks := make([]string, n)
	for i := range ks {
		var x uint64
		if zipf {
			x = z.Uint64()
		} else {
			x = rng.Uint64N(uint64(k))
		}
		ks[i] = "k" + strconv.FormatUint(x, 10)
	}
	if slow {
		// One slow key, a message in a thousand: its messages, run one at
		// a time, take n/1000 × 20ms, less than the burst takes.
		for i := 0; i < n; i += 1000 {
			ks[i] = "slow"
		}
	}
	return keyedLoad{keys: ks, slow: slow}
}

// keyedClock measures one run: the waits of the fast keys' messages from
// their arrival in the client (the end of a pull) to their handler's start,
// and the end of the run.
type keyedClock struct {
	receipts
	mu    sync.Mutex
	waits []time.Duration
	acked atomic.Int64
	n     int64
	done  chan struct{}
}

func (c *keyedClock) handle(key string, msg jetstream.Msg, slow bool) {
	if d, ok := c.since(msg); ok && key != "slow" {
		c.mu.Lock()
		c.waits = append(c.waits, d)
		c.mu.Unlock()
	}
	if slow && key == "slow" {
		time.Sleep(slowWork)
	} else if *keyedWork > 0 {
		time.Sleep(*keyedWork)
	}
}

func (c *keyedClock) ack() {
	if c.acked.Add(1) == c.n {
		close(c.done)
	}
}

// BenchmarkKeyedConsume consumes a burst of messages over many keys: the
// runner without order (the baseline), the keyed runner (order per key),
// and the keys hashed onto 16 partitions, each consumed by one goroutine
// in order (the usual hand-made way to keep order per key). It reports
// messages a second and the p99 wait of the fast keys (from the end of the
// pull that brought a message to its handler's start); the slow-key runs
// add a key, a message in a thousand, whose handler takes 20ms.
func BenchmarkKeyedConsume(b *testing.B) {
	n, k := *keyedMsgs, *keyedKeys
	for _, dist := range []string{"uniform", "zipf1.1", "slow-key"} {
		load := newKeyedLoad(n, k, dist == "zipf1.1", dist == "slow-key")
		for _, impl := range []string{"unordered", "keyed", "hashed16"} {
			b.Run(fmt.Sprintf("keys=%s/impl=%s", dist, impl), func(b *testing.B) {
				var elapsed time.Duration
				var waits []time.Duration
				for range b.N {
					b.StopTimer()
					e := newEnv(b, 30*time.Second)
					partitioned(b, e, keyedConcurrency, 30*time.Second, 0)
					ctx := context.Background()
					for _, key := range load.keys {
						if _, err := e.js.PublishAsync("ord."+key, nil); err != nil {
							b.Fatal(err)
						}
					}
					select {
					case <-e.js.PublishAsyncComplete():
					case <-time.After(time.Minute):
						b.Fatal("publishing did not complete")
					}
					clock := &keyedClock{n: int64(n), done: make(chan struct{})}
					b.StartTimer()
					began := time.Now()
					switch impl {
					case "hashed16":
						consumeHashed(b, ctx, e, clock, load.slow)
					default:
						consumeRunner(b, ctx, e, clock, load.slow, impl == "keyed")
					}
					elapsed += time.Since(began)
					b.StopTimer()
					waits = append(waits, clock.waits...)
				}
				slices.Sort(waits)
				b.ReportMetric(float64(b.N*n)/elapsed.Seconds(), "msgs/s")
				if len(waits) > 0 {
					b.ReportMetric(float64(waits[len(waits)*99/100].Microseconds())/1000, "p99-wait-ms")
				}
			})
		}
	}
}

// consumeRunner runs one runner per partition consumer (16), all on one
// pool of 16, keyed or not.
func consumeRunner(b *testing.B, ctx context.Context, e *env, clock *keyedClock, slow, keyed bool) {
	p := newPool(b, keyedConcurrency)
	h := func(_ context.Context, msg jetstream.Msg) error {
		key, _ := natsrunner.SubjectToken(-1)(msg)
		clock.handle(key, msg, slow)
		return nil
	}
	opts := []natsrunner.Option{natsrunner.WithFetchMaxWait(100 * time.Millisecond),
		natsrunner.WithOnSettle(func(jetstream.Msg, natsrunner.Outcome, error) { clock.ack() })}
	if keyed {
		opts = append(opts, natsrunner.WithKey(natsrunner.SubjectToken(-1)))
	}
	rctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i := range keyedConcurrency {
		c, err := e.js.Consumer(ctx, ordStream, "part"+strconv.Itoa(i))
		if err != nil {
			b.Fatal(err)
		}
		r, err := natsrunner.New(timedConsumer{c, clock.receive}, p, h, opts...)
		if err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = r.Run(rctx)
		}()
	}
	waitKeyed(b, clock)
	cancel()
	wg.Wait()
}

// consumeHashed consumes each partition with one goroutine that handles
// its messages one at a time, in order.
func consumeHashed(b *testing.B, ctx context.Context, e *env, clock *keyedClock, slow bool) {
	rctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i := range keyedConcurrency {
		c, err := e.js.Consumer(ctx, ordStream, "part"+strconv.Itoa(i))
		if err != nil {
			b.Fatal(err)
		}
		cc := timedConsumer{c, clock.receive}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rctx.Err() == nil {
				batch, err := cc.Fetch(64, jetstream.FetchMaxWait(100*time.Millisecond))
				if err != nil {
					continue
				}
				for msg := range batch.Messages() {
					key, _ := natsrunner.SubjectToken(-1)(msg)
					clock.handle(key, msg, slow)
					if msg.Ack() == nil {
						clock.ack()
					}
				}
			}
		}()
	}
	waitKeyed(b, clock)
	cancel()
	wg.Wait()
}

func waitKeyed(b *testing.B, clock *keyedClock) {
	select {
	case <-clock.done:
	case <-time.After(5 * time.Minute):
		b.Fatalf("burst not acked: %d of %d", clock.acked.Load(), clock.n)
	}
}
