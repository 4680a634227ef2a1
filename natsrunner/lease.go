package natsrunner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"regexp"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// WithLease makes the runner pull only while it holds a lease: the key key
// of the key-value bucket kv, which one runner at a time writes and which
// the bucket's TTL removes once its holder stops renewing it. It is the
// owner election of NATS-9 for servers without pinned priority groups
// (before nats-server 2.11): the runners of several replicas, each on its
// partition's consumer with the partition's key, take turns owning it.
//
// A runner that takes the lease pulls and renews it every third of the
// time it has to spare; one that does not waits, trying again every tenth
// of the TTL, and takes it over once the holder stopped renewing it for the
// TTL or let it go. The holder pulls only while it renewed the lease less
// than TTL − AckWait ago, so that a holder that died has all its
// deliveries due for redelivery, which comes before new messages, when the
// next one takes over; one that cannot renew stops pulling, and settles
// what it holds (the drain, cut short to end inside the lease) before the
// lease can pass on, then waits to take it again. Run lets the lease go
// after its drain, so that a waiting replica takes over at once.
//
// Run reads the bucket's TTL first and returns an error matching
// ErrInvalid when the bucket has none (a dead holder's lease would never
// end) or when the TTL is not above the consumer's AckWait. kv must not be
// nil; key must be a valid key ([-/_=.a-zA-Z0-9], not beginning or ending
// with a dot). A runner takes a lease or a priority group, not both.
func WithLease(kv jetstream.KeyValue, key string) Option {
	return func(c *config) error {
		switch {
		case kv == nil:
			return invalid("nil lease bucket")
		case !leaseKey.MatchString(key):
			return invalid("lease key %q", key)
		}
		c.lease = &lease{kv: kv, key: key}
		return nil
	}
}

// leaseKey is what a key-value bucket accepts as a key.
var leaseKey = regexp.MustCompile(`^[-/_=a-zA-Z0-9]+(\.[-/_=a-zA-Z0-9]+)*$`)

// errLeaseLost is the cause of a stretch of pulling ended by the lease.
var errLeaseLost = errors.New("natsrunner: lease lost")

// lease is a Runner's hold on its lease key. Run's goroutine acquires and
// releases it; one keeper goroutine per held stretch renews it.
type lease struct {
	kv  jetstream.KeyValue
	key string

	id      []byte        // this runner's value: set at Run
	ttl     time.Duration // the bucket's, read at Run
	ackWait time.Duration

	mu   sync.Mutex
	rev  uint64    // the revision of the holder's last write
	sent time.Time // when that write was sent: the lease lasts until sent+ttl at least
}

// init reads the bucket's TTL and checks it against ackWait.
func (l *lease) init(ctx context.Context, ackWait time.Duration) error {
	st, err := l.kv.Status(ctx)
	if err != nil {
		return err
	}
	l.ttl, l.ackWait = st.TTL(), ackWait
	switch {
	case l.ttl <= 0:
		return invalid("lease bucket %s has no TTL: a dead holder's lease would never end", st.Bucket())
	case l.ttl <= ackWait:
		return invalid("lease bucket %s: TTL %v is not above the consumer's AckWait %v", st.Bucket(), l.ttl, ackWait)
	}
	if l.id == nil {
		b := make([]byte, 12)
		_, _ = rand.Read(b)
		l.id = []byte(hex.EncodeToString(b))
	}
	return nil
}

// pullUntil is when the holder stops pulling unless it renews first: a
// delivery made before then is due for redelivery by the time the lease
// can pass on.
func (l *lease) pullUntil() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sent.Add(l.ttl - l.ackWait)
}

// settleUntil is when everything the holder pulled must be settled: a
// little before the lease can pass on, so that the last Naks reach the
// server first.
func (l *lease) settleUntil() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sent.Add(l.ttl - l.ackWait/4)
}

func (l *lease) wrote(rev uint64, sent time.Time) {
	l.mu.Lock()
	l.rev, l.sent = rev, sent
	l.mu.Unlock()
}

// acquire returns once the runner holds the lease, or with ctx.Err(), or
// with an error no retry can cure (the bucket is gone, the connection
// closed).
func (l *lease) acquire(ctx context.Context) error {
	poll := min(max(l.ttl/10, 10*time.Millisecond), time.Second)
	for {
		sent := time.Now()
		cctx, cancel := context.WithTimeout(ctx, l.ttl-l.ackWait)
		rev, err := l.kv.Create(cctx, l.key, l.id)
		cancel()
		if err == nil {
			l.wrote(rev, sent)
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, jetstream.ErrBucketNotFound) || errors.Is(err, nats.ErrConnectionClosed) {
			return err
		}
		sleep(ctx, poll)
	}
}

// keep renews the lease until stop is closed. It calls lost when the
// holder must stop pulling (pullUntil passed without a renewal, or another
// wrote the key), and closes expiring when the holder's time to settle is
// up (settleUntil).
func (l *lease) keep(stop <-chan struct{}, lost func(), expiring chan<- struct{}) {
	every := max((l.ttl-l.ackWait)/3, time.Millisecond)
	timer := time.NewTimer(every)
	defer timer.Stop()
	lostOnce := sync.OnceFunc(lost)
	for {
		select {
		case <-stop:
			return
		case <-timer.C:
		}
		now := time.Now()
		if !now.Before(l.settleUntil()) {
			lostOnce()
			close(expiring)
			<-stop
			return
		}
		if !now.Before(l.pullUntil()) {
			// Renewals failed for too long; a last one may still keep
			// what the runner holds, but it pulls no more.
			lostOnce()
		}
		if err := l.renew(); errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyNotFound) {
			// Another runner holds it, or it expired: gone already.
			lostOnce()
			close(expiring)
			<-stop
			return
		} else if err != nil {
			// Again soon, and at the latest when pulling must stop.
			next := max(every/4, time.Millisecond)
			if d := time.Until(l.pullUntil()); d > 0 && d < next {
				next = d
			}
			timer.Reset(next)
			continue
		}
		timer.Reset(every)
	}
}

// renew rewrites the lease at the revision the holder last wrote.
func (l *lease) renew() error {
	l.mu.Lock()
	rev := l.rev
	l.mu.Unlock()
	sent := time.Now()
	ctx, cancel := context.WithDeadline(context.Background(), l.settleUntil())
	defer cancel()
	next, err := l.kv.Update(ctx, l.key, l.id, rev)
	if err == nil {
		l.wrote(next, sent)
	}
	return err
}

// release deletes the lease at the holder's revision, so that a waiting
// runner takes it at once rather than after the TTL. It is called once
// everything the holder pulled is settled.
func (l *lease) release() {
	l.mu.Lock()
	rev := l.rev
	l.mu.Unlock()
	ctx, cancel := context.WithDeadline(context.Background(), l.settleUntil())
	defer cancel()
	_ = l.kv.Delete(ctx, l.key, jetstream.LastRevision(rev))
}

// runLeased is Run for a runner with a lease: stretches of pulling while
// it holds the lease, each ended by the lease or by ctx.
func (r *Runner) runLeased(ctx context.Context) error {
	l := r.cfg.lease
	ictx, cancel := context.WithTimeout(ctx, r.cfg.fetchMaxWait+5*time.Second)
	err := l.init(ictx, r.ackWait())
	cancel()
	if err != nil {
		return err
	}
	for {
		if err := l.acquire(ctx); err != nil {
			return err
		}
		hold, lose := context.WithCancelCause(ctx)
		stop, expiring, kept := make(chan struct{}), make(chan struct{}), make(chan struct{})
		go func() {
			defer close(kept)
			l.keep(stop, func() { lose(errLeaseLost) }, expiring)
		}()
		err := r.serve(hold, expiring)
		close(stop)
		<-kept
		lost := errors.Is(context.Cause(hold), errLeaseLost)
		lose(nil)
		// Everything pulled is settled: let the lease go (a no-op if
		// another runner holds it now), and, if it was lost while Run
		// goes on, wait for it again.
		l.release()
		if !lost {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}
