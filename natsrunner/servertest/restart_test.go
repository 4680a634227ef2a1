package servertest_test

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/natsrunner"
)

// startTCPServer starts a JetStream server on 127.0.0.1:port (-1: a
// random port) with the given store directory.
func startTCPServer(t *testing.T, port int, storeDir string) *server.Server {
	t.Helper()
	ns, err := server.NewServer(&server.Options{
		Host:      "127.0.0.1",
		Port:      port,
		JetStream: true,
		StoreDir:  storeDir,
		NoLog:     true,
		NoSigs:    true,
	})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("server not ready")
	}
	return ns
}

func stopServer(ns *server.Server) {
	ns.Shutdown()
	ns.WaitForShutdown()
}

// setupJobs creates the stream and durable consumer and publishes ids
// 0..n-1.
func setupJobs(t *testing.T, js jetstream.JetStream, ackWait time.Duration, n int) {
	t.Helper()
	ctx := context.Background()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: streamName, Subjects: []string{"jobs.>"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, streamName, jetstream.ConsumerConfig{
		Durable: durable, AckPolicy: jetstream.AckExplicitPolicy, AckWait: ackWait,
		MaxAckPending: 1000, MaxDeliver: -1,
	}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := js.Publish(ctx, "jobs.x", []byte(strconv.Itoa(i))); err != nil {
			t.Fatal(err)
		}
	}
}

// The server restarts mid-run (same port, same store): the runner keeps
// going through the outage, counting failed pulls, and every message is
// acked; a message acked twice was redelivered in between.
func TestServerRestartMidRun(t *testing.T) {
	const n = 300
	dir := t.TempDir()
	ns := startTCPServer(t, -1, dir)
	var mu sync.Mutex
	cur := ns
	t.Cleanup(func() { mu.Lock(); stopServer(cur); mu.Unlock() })
	u, err := url.Parse(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}

	// No reconnect buffer: a pull sent during the outage fails at once
	// instead of waiting in the client's buffer and expiring, so that the
	// outage always shows as failed pulls that the runner retries.
	nc, err := nats.Connect(ns.ClientURL(), nats.MaxReconnects(-1),
		nats.ReconnectWait(20*time.Millisecond), nats.ReconnectJitter(0, 0), nats.ReconnectBufSize(-1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	setupJobs(t, js, time.Second, n)
	cons, err := js.Consumer(context.Background(), streamName, durable)
	if err != nil {
		t.Fatal(err)
	}
	// The test reads the consumer's info through a handle of its own:
	// before nats.go v1.55.0 two Info calls on one handle race (the
	// runner serializes its own).
	probe, err := js.Consumer(context.Background(), streamName, durable)
	if err != nil {
		t.Fatal(err)
	}

	comp := newCompletions()
	h := func(_ context.Context, msg jetstream.Msg) error {
		time.Sleep(2 * time.Millisecond)
		comp.handled(msgID(t, msg), msg)
		return nil
	}
	r, err := natsrunner.New(cons, newPool(t, 8), h, comp.hook(t),
		natsrunner.WithFetchMaxWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()

	waitFor(t, 10*time.Second, "50 acks", func() bool { return comp.ackedIDs() >= 50 })
	mu.Lock()
	stopServer(cur)
	mu.Unlock()
	// Down long enough for several pulls to be tried, and until one has
	// failed (a pull sent during the outage fails, with no reconnect
	// buffer), counted a little after the stop, not at a fixed time.
	time.Sleep(300 * time.Millisecond)
	waitFor(t, 10*time.Second, "a failed pull counted during the outage", func() bool { return r.Stats().FetchErrors > 0 })
	select {
	case err := <-done:
		t.Fatalf("Run returned during the outage: %v", err)
	default:
	}
	mu.Lock()
	cur = startTCPServer(t, port, dir)
	mu.Unlock()

	// Keep running until the server agrees: an ack lost with the old
	// server is redelivered after AckWait and acked again.
	var last *jetstream.ConsumerInfo
	waitFor(t, 30*time.Second, "every message acked, nothing pending on the server", func() bool {
		if comp.ackedIDs() < n {
			return false
		}
		info, err := probe.Info(context.Background())
		if err == nil {
			last = info
		}
		return err == nil && info.NumPending == 0 && info.NumAckPending == 0
	})
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	comp.check(t, n, true)
	s := r.Stats()
	t.Logf("stats %+v; consumer delivered %+v redelivered %d", s, last.Delivered, last.NumRedelivered)
	if s.FetchErrors == 0 {
		t.Error("no failed pull was counted during the outage")
	}
	if s.InFlight != 0 {
		t.Errorf("%d messages still in flight", s.InFlight)
	}
}
