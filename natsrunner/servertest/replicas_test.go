package servertest_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/natsrunner"
)

// The partitioned layout that keeps order per key across replicas: the
// stream maps each key to one of parts partitions as it stores a message
// (ord.<key> is stored as ord.<partition>.<key>), each partition has its
// own consumer, pinned to one client of its priority group at a time, and
// every replica runs a keyed runner on every partition's consumer.
const (
	ordStream = "ORD"
	ordGroup  = "owners"
)

// partitioned creates the ORD stream with parts partitions and a consumer
// for each; pinnedTTL 0 leaves the consumers without a priority group.
func partitioned(t testing.TB, e *env, parts int, ackWait, pinnedTTL time.Duration) {
	t.Helper()
	ctx := context.Background()
	if _, err := e.js.CreateStream(ctx, jetstream.StreamConfig{Name: ordStream, Subjects: []string{"ord.>"},
		SubjectTransform: &jetstream.SubjectTransformConfig{
			Source: "ord.*", Destination: fmt.Sprintf("ord.{{partition(%d,1)}}.{{wildcard(1)}}", parts)}}); err != nil {
		t.Fatal(err)
	}
	for i := range parts {
		cfg := jetstream.ConsumerConfig{
			Durable:       "part" + strconv.Itoa(i),
			FilterSubject: fmt.Sprintf("ord.%d.*", i),
			AckPolicy:     jetstream.AckExplicitPolicy,
			AckWait:       ackWait,
			MaxAckPending: 1000,
			MaxDeliver:    -1,
		}
		if pinnedTTL > 0 {
			cfg.PriorityPolicy, cfg.PriorityGroups, cfg.PinnedTTL = jetstream.PriorityPolicyPinned, []string{ordGroup}, pinnedTTL
		}
		if _, err := e.js.CreateOrUpdateConsumer(ctx, ordStream, cfg); err != nil {
			t.Fatal(err)
		}
	}
}

// ownership is how the replicas of a test take turns owning a partition:
// the option every replica's runner on partition part gets, made with the
// replica's own connection js.
type ownership func(t testing.TB, js jetstream.JetStream, part int) natsrunner.Option

// pinnedOwner: the partitions' consumers pin one client of ordGroup at a
// time (partitioned with a PinnedTTL).
func pinnedOwner(testing.TB, jetstream.JetStream, int) natsrunner.Option {
	return natsrunner.WithPriorityGroup(ordGroup)
}

// leaseBucket is the key-value bucket of leasedOwner's leases.
const leaseBucket = "owners"

// leasedOwner: a lease per partition in leaseBucket (made by leases), for
// servers without pinned priority groups.
func leasedOwner(t testing.TB, js jetstream.JetStream, part int) natsrunner.Option {
	kv, err := js.KeyValue(context.Background(), leaseBucket)
	if err != nil {
		t.Fatal(err)
	}
	return natsrunner.WithLease(kv, "part"+strconv.Itoa(part))
}

// leases creates leaseBucket with the leases' time to live.
func leases(t testing.TB, js jetstream.JetStream, ttl time.Duration) {
	t.Helper()
	if _, err := js.CreateKeyValue(context.Background(), jetstream.KeyValueConfig{Bucket: leaseBucket, TTL: ttl}); err != nil {
		t.Fatal(err)
	}
}

// owners are the ways of owning a partition the replica tests run with,
// and how each sets up the partitions: its consumers (pinned or not) and
// leases.
var owners = []struct {
	name  string
	owner ownership
	setup func(t testing.TB, e *env, parts int, ackWait time.Duration)
}{
	{"pinned", pinnedOwner, func(t testing.TB, e *env, parts int, ackWait time.Duration) {
		// PinnedTTL above AckWait: a partition is pinned again only after
		// its dead owner's messages are due for redelivery, which comes
		// before new messages.
		partitioned(t, e, parts, ackWait, 2*ackWait)
	}},
	{"lease", leasedOwner, func(t testing.TB, e *env, parts int, ackWait time.Duration) {
		partitioned(t, e, parts, ackWait, 0)
		leases(t, e.js, 2*ackWait)
	}},
}

// replica is one process of the service: its own connection and pool,
// and a keyed runner on every partition's consumer.
type replica struct {
	nc      *nats.Conn
	runners []*natsrunner.Runner
	stops   []func() error
	dead    atomic.Bool
}

func startReplica(t *testing.T, e *env, parts int, own ownership, book *orderBook) *replica {
	t.Helper()
	nc, err := nats.Connect("", nats.InProcessServer(e.ns))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	rp := &replica{nc: nc}
	p := newPool(t, 8)
	h := func(ctx context.Context, msg jetstream.Msg) error {
		time.Sleep(200 * time.Microsecond)
		if rp.dead.Load() {
			<-ctx.Done() // a dead process completes nothing
			return ctx.Err()
		}
		return book.completed(msg)
	}
	for i := range parts {
		c, err := js.Consumer(context.Background(), ordStream, "part"+strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		r, err := natsrunner.New(c, p, h, natsrunner.WithKey(natsrunner.SubjectToken(-1)),
			own(t, js, i), natsrunner.WithFetchMaxWait(100*time.Millisecond),
			natsrunner.WithDrainTimeout(0), natsrunner.WithMaxAttempts(1000))
		if err != nil {
			t.Fatal(err)
		}
		rp.runners = append(rp.runners, r)
		rp.stops = append(rp.stops, start(t, r))
	}
	return rp
}

// kill ends the replica as kill -9 would: its handlers complete nothing
// more, its connection is gone, and its runners end without a drain
// (their Naks fail on the closed connection).
func (rp *replica) kill() {
	rp.dead.Store(true)
	rp.nc.Close()
	for _, stop := range rp.stops {
		_ = stop()
	}
}

func (rp *replica) stop(t *testing.T) {
	for _, stop := range rp.stops {
		if err := stop(); !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v, want context.Canceled", err)
		}
	}
}

// TestKeyedReplicasTakeOver: three replicas on a partitioned stream (three
// partitions, each owned by one replica at a time: pinned by the server,
// or by a lease); one is killed mid-run and the others take its
// partitions over once its pin or lease expires. Before the kill each
// partition was pulled by one replica only; every message completes, and
// every key's messages complete in stream order: a message may be handled
// twice, never out of order.
func TestKeyedReplicasTakeOver(t *testing.T) {
	for _, o := range owners {
		t.Run("owner="+o.name, func(t *testing.T) { replicasTakeOver(t, o.owner, o.setup) })
	}
}

func replicasTakeOver(t *testing.T, own ownership, setup func(testing.TB, *env, int, time.Duration)) {
	const parts, n, keys = 3, 3000, 300
	e := newEnv(t, 5*time.Second)
	setup(t, e, parts, 500*time.Millisecond)
	want := map[string][]uint64{}
	ctx := context.Background()
	for i := range n {
		k := "k" + strconv.Itoa((i*7919)%keys)
		ack, err := e.js.Publish(ctx, "ord."+k, []byte(strconv.Itoa(i)))
		if err != nil {
			t.Fatal(err)
		}
		want[k] = append(want[k], ack.Sequence)
	}
	book := newOrderBook() // first completions
	a := startReplica(t, e, parts, own, book)
	b := startReplica(t, e, parts, own, book)
	c := startReplica(t, e, parts, own, book)
	waitFor(t, 30*time.Second, "a fifth of the messages completed", func() bool { return book.count() >= n/5 })
	// Kill the replica that owns the most partitions (one, unless two
	// went to it).
	replicas := []*replica{a, b, c}
	victim := a
	most := -1
	pulledBy := make([]int, parts)
	for _, rp := range replicas {
		var f int
		for i, r := range rp.runners {
			if r.Stats().Fetched > 0 {
				f++
				pulledBy[i]++
			}
		}
		if f > most {
			victim, most = rp, f
		}
	}
	for i, k := range pulledBy {
		if k != 1 {
			t.Errorf("partition %d pulled by %d replicas before the kill, want 1", i, k)
		}
	}
	var held int
	for _, r := range victim.runners {
		held += r.Stats().InFlight
	}
	killed := time.Now()
	victim.kill()
	waitFor(t, 60*time.Second, "every message completed", func() bool { return book.count() == n })
	t.Logf("killed a replica holding %d messages on %d partitions; the rest completed %v later", held, most, time.Since(killed).Round(time.Millisecond))
	for _, rp := range replicas {
		if rp != victim {
			rp.stop(t)
		}
	}
	book.check(t, want)
	var handled uint64
	for _, rp := range replicas {
		for _, r := range rp.runners {
			handled += r.Stats().Fetched
		}
	}
	t.Logf("%d messages fetched in all for %d in the stream", handled, n)
}

// TestKeyedPinnedTTLAboveAckWait: a keyed runner refuses a pinned
// consumer whose PinnedTTL is not above its AckWait, where a take-over
// would let new messages of a key overtake the dead owner's (with such a
// consumer TestKeyedReplicasTakeOver finds keys out of order).
func TestKeyedPinnedTTLAboveAckWait(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	partitioned(t, e, 1, 2*time.Second, 200*time.Millisecond)
	c, err := e.js.Consumer(context.Background(), ordStream, "part0")
	if err != nil {
		t.Fatal(err)
	}
	h := func(context.Context, jetstream.Msg) error { return nil }
	p := newPool(t, 1)
	if _, err := natsrunner.New(c, p, h, natsrunner.WithKey(natsrunner.SubjectToken(-1)), natsrunner.WithPriorityGroup(ordGroup)); !errors.Is(err, natsrunner.ErrInvalid) {
		t.Errorf("keyed runner, PinnedTTL below AckWait: %v, want ErrInvalid", err)
	}
	// Unkeyed, order is not promised: the runner takes the consumer.
	if _, err := natsrunner.New(c, p, h, natsrunner.WithPriorityGroup(ordGroup)); err != nil {
		t.Errorf("unkeyed runner: %v", err)
	}
}
