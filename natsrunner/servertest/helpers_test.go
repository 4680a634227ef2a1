package servertest_test

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/natsrunner"
	"github.com/poolkit/poolkit/pool"
)

const (
	streamName = "JOBS"
	durable    = "work"
)

// env is an embedded JetStream server with one stream and one durable
// pull consumer.
type env struct {
	t  testing.TB
	ns *server.Server
	js jetstream.JetStream
}

func newEnv(t testing.TB, ackWait time.Duration) *env {
	t.Helper()
	ns, err := server.NewServer(&server.Options{
		JetStream:  true,
		DontListen: true,
		StoreDir:   t.TempDir(),
		NoLog:      true,
		NoSigs:     true,
	})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	t.Cleanup(func() {
		ns.Shutdown()
		ns.WaitForShutdown()
	})
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("server not ready")
	}
	e := &env{t: t, ns: ns}
	e.js = e.connect()
	ctx := context.Background()
	if _, err := e.js.CreateStream(ctx, jetstream.StreamConfig{Name: streamName, Subjects: []string{"jobs.>"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.js.CreateOrUpdateConsumer(ctx, streamName, jetstream.ConsumerConfig{
		Durable:       durable,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       ackWait,
		MaxAckPending: 1000,
		MaxDeliver:    -1,
	}); err != nil {
		t.Fatal(err)
	}
	return e
}

// connect opens a new in-process client connection, closed at cleanup.
func (e *env) connect() jetstream.JetStream {
	e.t.Helper()
	nc, err := nats.Connect("", nats.InProcessServer(e.ns))
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		e.t.Fatal(err)
	}
	return js
}

// consumer returns a handle on the durable consumer through js.
func (e *env) consumer(js jetstream.JetStream) jetstream.Consumer {
	e.t.Helper()
	c, err := js.Consumer(context.Background(), streamName, durable)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// publish stores n messages whose payloads are the ids 0..n-1.
func (e *env) publish(n int) {
	e.t.Helper()
	ctx := context.Background()
	for i := range n {
		if _, err := e.js.Publish(ctx, "jobs.x", []byte(strconv.Itoa(i))); err != nil {
			e.t.Fatal(err)
		}
	}
}

func (e *env) info() *jetstream.ConsumerInfo {
	e.t.Helper()
	info, err := e.consumer(e.js).Info(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return info
}

func msgID(t *testing.T, msg jetstream.Msg) int {
	id, err := strconv.Atoi(string(msg.Data()))
	if err != nil {
		t.Errorf("bad payload %q", msg.Data())
	}
	return id
}

func newPool(t testing.TB, size int) *pool.Pool {
	t.Helper()
	p, err := pool.New(size, pool.WithTimings()) // timed: the autoscaler reads the timings
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Shutdown(context.Background()); err != nil {
			t.Errorf("pool release: %v", err)
		}
	})
	return p
}

// ledger records every settlement the runners report, by message id.
type ledger struct {
	mu      sync.Mutex
	acked   map[int]int
	naked   map[int]int
	termed  map[int]int
	ackedBy map[string]int
	ackErrs int
	changed chan struct{}
}

func newLedger() *ledger {
	return &ledger{
		acked: map[int]int{}, naked: map[int]int{}, termed: map[int]int{},
		ackedBy: map[string]int{}, changed: make(chan struct{}, 1),
	}
}

// hook returns a WithOnSettle option that records under the runner name.
func (l *ledger) hook(t *testing.T, name string) natsrunner.Option {
	return natsrunner.WithOnSettle(func(msg jetstream.Msg, o natsrunner.Outcome, err error) {
		id := msgID(t, msg)
		l.mu.Lock()
		defer l.mu.Unlock()
		if err != nil {
			l.ackErrs++
		}
		switch o {
		case natsrunner.Acked:
			l.acked[id]++
			l.ackedBy[name]++
		case natsrunner.Naked:
			l.naked[id]++
		case natsrunner.Termed:
			l.termed[id]++
		}
		select {
		case l.changed <- struct{}{}:
		default:
		}
	})
}

func (l *ledger) ackedIDs() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.acked)
}

// checkExactlyOnce asserts ids 0..n-1 were each acked exactly once.
func (l *ledger) checkExactlyOnce(t *testing.T, n int) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for id := range n {
		if c := l.acked[id]; c != 1 {
			t.Errorf("message %d acked %d times", id, c)
		}
	}
	if len(l.acked) != n {
		t.Errorf("acked %d distinct ids, want %d", len(l.acked), n)
	}
	if l.ackErrs != 0 {
		t.Errorf("%d settle calls failed", l.ackErrs)
	}
}

// waitFor polls cond until it holds or the timeout passes.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		<-tick.C
	}
}

// start runs r in the background; stop cancels it and returns Run's error.
func start(t *testing.T, r *natsrunner.Runner) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("Run did not return")
			}
		})
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

// peak tracks a running maximum.
type peak struct {
	mu sync.Mutex
	v  int
}

func (p *peak) observe(v int) {
	p.mu.Lock()
	p.v = max(p.v, v)
	p.mu.Unlock()
}

func (p *peak) get() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.v
}

// runUntilAcked runs a runner over cons that retries failures at once
// (1ms backoff, up to 1000 attempts) until the ledger has n messages
// acked, stops it, checks that Run returned context.Canceled and that
// every message was acked exactly once, and returns the runner.
func runUntilAcked(t *testing.T, cons jetstream.Consumer, p *pool.Pool, h natsrunner.Handler, led *ledger, n int) *natsrunner.Runner {
	t.Helper()
	r, err := natsrunner.New(cons, p, h, led.hook(t, "a"),
		natsrunner.WithMaxAttempts(1000),
		natsrunner.WithBackoff(func(int) time.Duration { return time.Millisecond }),
		natsrunner.WithFetchMaxWait(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, r)
	waitFor(t, 30*time.Second, "all messages acked", func() bool { return led.ackedIDs() == n })
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	led.checkExactlyOnce(t, n)
	return r
}
