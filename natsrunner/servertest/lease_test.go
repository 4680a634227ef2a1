package servertest_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/natsrunner"
)

// TestLeaseRefusals: a lease that cannot keep order is refused: by New for
// a nil bucket, a key a bucket cannot hold, or a priority group beside it;
// by Run for a bucket without a TTL or one not above the consumer's
// AckWait.
func TestLeaseRefusals(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	partitioned(t, e, 1, time.Second, 0)
	c, err := e.js.Consumer(context.Background(), ordStream, "part0")
	if err != nil {
		t.Fatal(err)
	}
	kv := func(bucket string, ttl time.Duration) jetstream.KeyValue {
		kv, err := e.js.CreateKeyValue(context.Background(), jetstream.KeyValueConfig{Bucket: bucket, TTL: ttl})
		if err != nil {
			t.Fatal(err)
		}
		return kv
	}
	good := kv("good", 3*time.Second)
	h := func(context.Context, jetstream.Msg) error { return nil }
	p := newPool(t, 1)
	for _, c2 := range []struct {
		name string
		opts []natsrunner.Option
	}{
		{"nil bucket", []natsrunner.Option{natsrunner.WithLease(nil, "part0")}},
		{"empty key", []natsrunner.Option{natsrunner.WithLease(good, "")}},
		{"key with a space", []natsrunner.Option{natsrunner.WithLease(good, "part 0")}},
		{"key ending in a dot", []natsrunner.Option{natsrunner.WithLease(good, "part0.")}},
		{"lease and group", []natsrunner.Option{natsrunner.WithLease(good, "part0"), natsrunner.WithPriorityGroup(ordGroup)}},
	} {
		if _, err := natsrunner.New(c, p, h, c2.opts...); !errors.Is(err, natsrunner.ErrInvalid) {
			t.Errorf("New, %s: %v, want ErrInvalid", c2.name, err)
		}
	}
	for _, c2 := range []struct {
		name string
		kv   jetstream.KeyValue
	}{
		{"no TTL", kv("forever", 0)},
		{"TTL equal to AckWait", kv("short", time.Second)},
	} {
		r, err := natsrunner.New(c, p, h, natsrunner.WithKey(natsrunner.SubjectToken(-1)), natsrunner.WithLease(c2.kv, "part0"))
		if err != nil {
			t.Fatalf("New, %s: %v", c2.name, err)
		}
		if err := r.Run(context.Background()); !errors.Is(err, natsrunner.ErrInvalid) {
			t.Errorf("Run, %s: %v, want ErrInvalid", c2.name, err)
		}
	}
	if _, err := natsrunner.New(c, p, h, natsrunner.WithLease(good, "owners/part.0")); err != nil {
		t.Errorf("New with a valid key: %v", err)
	}
}

// TestLeaseHandOver: of two runners on one consumer with one lease, only
// the holder pulls; when its Run stops it lets the lease go, and the other
// takes over at once rather than after the TTL. Overwritten by someone
// else, the lease is lost: the holder settles what it holds and pulls no
// more until it can take the lease again.
func TestLeaseHandOver(t *testing.T) {
	const ttl, ackWait = 10 * time.Second, time.Second
	e := newEnv(t, 5*time.Second)
	partitioned(t, e, 1, ackWait, 0)
	leases(t, e.js, ttl)
	ctx := context.Background()
	for i := range 100 {
		if _, err := e.js.Publish(ctx, "ord.k"+strconv.Itoa(i%10), nil); err != nil {
			t.Fatal(err)
		}
	}
	book := newOrderBook()
	runner := func() *natsrunner.Runner {
		js := e.connect()
		c, err := js.Consumer(ctx, ordStream, "part0")
		if err != nil {
			t.Fatal(err)
		}
		h := func(_ context.Context, msg jetstream.Msg) error {
			return book.completed(msg)
		}
		r, err := natsrunner.New(c, newPool(t, 4), h, natsrunner.WithKey(natsrunner.SubjectToken(-1)),
			leasedOwner(t, js, 0), natsrunner.WithFetchMaxWait(100*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := runner(), runner()
	stopA := start(t, a)
	waitFor(t, 10*time.Second, "the first runner to handle the messages", func() bool { return book.count() == 100 })
	stopB := start(t, b)

	kv, err := e.js.KeyValue(ctx, leaseBucket)
	if err != nil {
		t.Fatal(err)
	}
	// Another writes the lease: the holder loses it at its next renewal,
	// a third of TTL − AckWait later.
	if _, err := kv.Put(ctx, "part0", []byte("someone else")); err != nil {
		t.Fatal(err)
	}
	time.Sleep((ttl - ackWait) / 2)
	for i := range 50 {
		if _, err := e.js.Publish(ctx, "ord.k"+strconv.Itoa(i%10), nil); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(500 * time.Millisecond)
	if got := book.count(); got != 100 {
		t.Errorf("%d messages handled while another held the lease, want 100", got)
	}
	// It is let go: one of the runners takes it.
	if err := kv.Delete(ctx, "part0"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ttl/2, "a runner to take the lease again", func() bool { return book.count() == 150 })
	other, stopHolder, stopOther := b, stopA, stopB
	if b.Stats().Fetched > 0 { // b never fetched before: it holds the lease now
		other, stopHolder, stopOther = a, stopB, stopA
	}
	fetched := other.Stats().Fetched
	if err := stopHolder(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	for i := range 50 {
		if _, err := e.js.Publish(ctx, "ord.k"+strconv.Itoa(i%10), nil); err != nil {
			t.Fatal(err)
		}
	}
	// Well before the TTL: the stopped holder deleted the lease.
	waitFor(t, ttl/2, "the other runner to take the lease over", func() bool { return book.count() == 200 })
	if got := other.Stats().Fetched; got == fetched {
		t.Errorf("the other runner fetched nothing after the holder stopped")
	}
	if err := stopOther(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	book.check(t, nil)
}
