package servertest_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/natsrunner"
)

// orderBook records, per key, the stream sequences of the first handling
// of each message, and every time two handlers of one key overlapped.
type orderBook struct {
	mu       sync.Mutex
	seen     map[uint64]bool
	firsts   map[string][]uint64
	running  map[string]int
	overlaps int
}

func newOrderBook() *orderBook {
	return &orderBook{seen: map[uint64]bool{}, firsts: map[string][]uint64{}, running: map[string]int{}}
}

// enter records the start of a handling of msg under key; the returned
// function records its end.
func (b *orderBook) enter(t *testing.T, key string, msg jetstream.Msg) (leave func()) {
	md, err := msg.Metadata()
	if err != nil {
		t.Errorf("metadata: %v", err)
		return func() {}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.running[key]++; b.running[key] > 1 {
		b.overlaps++
	}
	b.mu.Unlock()
	b.first(key, md.Sequence.Stream)
	b.mu.Lock()
	return func() {
		b.mu.Lock()
		b.running[key]--
		b.mu.Unlock()
	}
}

// first records seq as handled (or completed) under key, if it was not
// before.
func (b *orderBook) first(key string, seq uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.seen[seq] {
		b.seen[seq] = true
		b.firsts[key] = append(b.firsts[key], seq)
	}
}

// completed records msg, on a partitioned stream (its key the subject's
// last token), as completed now, if it was not before: a handler's last
// step.
func (b *orderBook) completed(msg jetstream.Msg) error {
	md, err := msg.Metadata()
	if err != nil {
		return err
	}
	key, _ := natsrunner.SubjectToken(-1)(msg)
	b.first(key, md.Sequence.Stream)
	return nil
}

// count is how many messages were recorded.
func (b *orderBook) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.seen)
}

// check fails the test on any overlap within a key or any inversion of a
// key's first handlings against the stream's order, and on a key whose
// handled messages differ from want's (the stream sequences each key was
// published at, in order), when want is given.
func (b *orderBook) check(t *testing.T, want map[string][]uint64) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.overlaps > 0 {
		t.Errorf("two handlers of one key overlapped %d times", b.overlaps)
	}
	inversions := 0
	for key, seqs := range b.firsts {
		for i := 1; i < len(seqs); i++ {
			if seqs[i] < seqs[i-1] {
				if inversions++; inversions <= 5 {
					t.Errorf("key %s: message %d first handled after %d", key, seqs[i], seqs[i-1])
				}
			}
		}
	}
	if inversions > 5 {
		t.Errorf("%d inversions in all", inversions)
	}
	for key, seqs := range want {
		if got := b.firsts[key]; fmt.Sprint(got) != fmt.Sprint(seqs) {
			t.Errorf("key %s: first handlings %v, want %v", key, got, seqs)
		}
	}
}

// publishKeyed stores one message per key in keys, in that order, on
// subject jobs.<key>, with the message's index as its payload, and
// returns the stream sequences of each key's messages.
func (e *env) publishKeyed(keys []string) map[string][]uint64 {
	e.t.Helper()
	ctx := context.Background()
	seqs := map[string][]uint64{}
	for i, k := range keys {
		ack, err := e.js.Publish(ctx, "jobs."+k, []byte(strconv.Itoa(i)))
		if err != nil {
			e.t.Fatal(err)
		}
		seqs[k] = append(seqs[k], ack.Sequence)
	}
	return seqs
}

// TestKeyedOrderPerKey: 5,000 messages over 1,000 keys, handlers that fail,
// panic or call runtime.Goexit at random: every message is acked exactly
// once, a key's messages are first handled in stream order and never two
// at once, and no failure was nak'd (retried in place instead).
func TestKeyedOrderPerKey(t *testing.T) {
	const n, keys = 5000, 1000
	e := newEnv(t, 5*time.Second)
	rng := rand.New(rand.NewPCG(1, 2))
	ks := make([]string, n)
	for i := range ks {
		ks[i] = "k" + strconv.Itoa(rng.IntN(keys))
	}
	want := e.publishKeyed(ks)
	p := newPool(t, 16)
	led := newLedger()
	book := newOrderBook()
	var mu sync.Mutex
	hrng := rand.New(rand.NewPCG(3, 4))
	h := func(_ context.Context, msg jetstream.Msg) error {
		key := strings.TrimPrefix(msg.Subject(), "jobs.")
		defer book.enter(t, key, msg)()
		mu.Lock()
		x := hrng.Float64()
		mu.Unlock()
		switch {
		case x < 0.10:
			return errors.New("transient")
		case x < 0.13:
			panic("handler panicked")
		case x < 0.14:
			runtime.Goexit()
		}
		return nil
	}
	r, err := natsrunner.New(e.consumer(e.js), p, h, led.hook(t, "a"),
		natsrunner.WithKey(natsrunner.SubjectToken(1)),
		natsrunner.WithMaxAttempts(100),
		natsrunner.WithBackoff(func(int) time.Duration { return time.Millisecond }),
		natsrunner.WithFetchMaxWait(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, r)
	waitFor(t, 60*time.Second, "all messages acked", func() bool { return led.ackedIDs() == n })
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	led.checkExactlyOnce(t, n)
	book.check(t, want)
	s := r.Stats()
	if s.Naked != 0 || s.Termed != 0 {
		t.Errorf("Naked %d, Termed %d: a keyed runner retries failures in place", s.Naked, s.Termed)
	}
	if s.Retries == 0 || s.Retries != s.Failed {
		t.Errorf("Retries %d, Failed %d: want every failure retried in place", s.Retries, s.Failed)
	}
}

// TestKeyedSlowKeyDoesNotHoldOthers: one key's handler blocks; the other
// keys' messages are all handled meanwhile.
func TestKeyedSlowKeyDoesNotHoldOthers(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	ks := []string{"slow", "slow", "slow"}
	for i := range 300 {
		ks = append(ks, "k"+strconv.Itoa(i%30))
	}
	e.publishKeyed(ks)
	p := newPool(t, 4)
	led := newLedger()
	release := make(chan struct{})
	var blocked atomic.Bool
	h := func(_ context.Context, msg jetstream.Msg) error {
		if msg.Subject() == "jobs.slow" && blocked.CompareAndSwap(false, true) {
			<-release
		}
		return nil
	}
	r, err := natsrunner.New(e.consumer(e.js), p, h, led.hook(t, "a"), natsrunner.WithKey(natsrunner.SubjectToken(-1)),
		natsrunner.WithFetchMaxWait(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, r)
	waitFor(t, 30*time.Second, "the other keys' messages acked", func() bool { return led.ackedIDs() == 300 })
	if !blocked.Load() {
		t.Error("the slow key's handler never ran")
	}
	close(release)
	waitFor(t, 30*time.Second, "the slow key's messages acked", func() bool { return led.ackedIDs() == 303 })
	_ = stop()
	led.checkExactlyOnce(t, 303)
	_ = r
}

// TestKeyedPoisonTermedInPlace: a message that always fails is handled
// again in place, its delivery count unchanged, until its last attempt,
// and termed; only then does its key's next message run.
func TestKeyedPoisonTermedInPlace(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	want := e.publishKeyed([]string{"p", "q", "p", "p"})
	p := newPool(t, 4)
	led := newLedger()
	book := newOrderBook()
	var calls atomic.Int64
	var delivered []uint64
	var mu sync.Mutex
	h := func(_ context.Context, msg jetstream.Msg) error {
		key := strings.TrimPrefix(msg.Subject(), "jobs.")
		defer book.enter(t, key, msg)()
		if msgID(t, msg) != 0 {
			return nil
		}
		md, _ := msg.Metadata()
		mu.Lock()
		delivered = append(delivered, md.NumDelivered)
		mu.Unlock()
		calls.Add(1)
		return errors.New("poison")
	}
	r, err := natsrunner.New(e.consumer(e.js), p, h, led.hook(t, "a"), natsrunner.WithKey(natsrunner.SubjectToken(1)),
		natsrunner.WithMaxAttempts(3), natsrunner.WithBackoff(func(int) time.Duration { return 5 * time.Millisecond }),
		natsrunner.WithFetchMaxWait(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, r)
	waitFor(t, 30*time.Second, "the other messages acked", func() bool { return led.ackedIDs() == 3 })
	_ = stop()
	book.check(t, want)
	led.mu.Lock()
	if led.termed[0] != 1 || led.naked[0] != 0 {
		t.Errorf("poison message: termed %d, naked %d; want termed once, never nak'd", led.termed[0], led.naked[0])
	}
	led.mu.Unlock()
	mu.Lock()
	if fmt.Sprint(delivered) != "[1 1 1]" {
		t.Errorf("the poison message's handler saw delivery counts %v, want [1 1 1]: three attempts in place", delivered)
	}
	mu.Unlock()
	if s := r.Stats(); s.Retries != 2 || s.Termed != 1 {
		t.Errorf("Retries %d, Termed %d; want 2 and 1", s.Retries, s.Termed)
	}
}

// TestKeyedPullLimit: with one hot key, the messages waiting behind it
// count against the room the runner pulls for: never more in flight than
// the pool's capacity plus WithQueued.
func TestKeyedPullLimit(t *testing.T) {
	const n = 200
	e := newEnv(t, 5*time.Second)
	ks := make([]string, n)
	for i := range ks {
		ks[i] = "hot"
		if i%4 == 0 {
			ks[i] = "k" + strconv.Itoa(i)
		}
	}
	e.publishKeyed(ks)
	p := newPool(t, 4)
	led := newLedger()
	var inFlight peak
	var r *natsrunner.Runner
	ready := make(chan struct{})
	h := func(context.Context, jetstream.Msg) error {
		<-ready
		inFlight.observe(r.Stats().InFlight)
		time.Sleep(200 * time.Microsecond)
		return nil
	}
	var err error
	r, err = natsrunner.New(e.consumer(e.js), p, h, led.hook(t, "a"), natsrunner.WithKey(natsrunner.SubjectToken(1)),
		natsrunner.WithQueued(2), natsrunner.WithFetchMaxWait(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	close(ready)
	stop := start(t, r)
	waitFor(t, 30*time.Second, "all messages acked", func() bool { return led.ackedIDs() == n })
	_ = stop()
	led.checkExactlyOnce(t, n)
	if got := inFlight.get(); got > 4+2 {
		t.Errorf("%d messages in flight at once, want at most the capacity 4 plus 2 queued", got)
	}
}

// TestKeyedShutdownKeepsOrder: Run stops while a key's first message is
// stuck in its handler and its later messages wait behind it. They are
// nak'd in stream order after the drain, and a runner started afterwards
// handles the key's messages in order.
func TestKeyedShutdownKeepsOrder(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	ks := make([]string, 12)
	for i := range ks {
		ks[i] = "k"
	}
	want := e.publishKeyed(ks)
	book := newOrderBook()
	stuck := make(chan struct{})
	entered := make(chan struct{})
	var first atomic.Bool
	h := func(_ context.Context, msg jetstream.Msg) error {
		defer book.enter(t, "k", msg)()
		if first.CompareAndSwap(false, true) {
			close(entered)
			<-stuck // ignores its context: outlives the drain
		}
		return nil
	}
	led := newLedger()
	opts := []natsrunner.Option{led.hook(t, "a"), natsrunner.WithKey(natsrunner.SubjectToken(1)),
		natsrunner.WithQueued(8), natsrunner.WithDrainTimeout(20 * time.Millisecond),
		natsrunner.WithFetchMaxWait(200 * time.Millisecond)}
	r1, err := natsrunner.New(e.consumer(e.js), newPool(t, 4), h, opts...)
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, r1)
	<-entered
	waitFor(t, 10*time.Second, "the key's later messages fetched", func() bool { return r1.Stats().Fetched >= 12 })
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v", err)
	}
	if s := r1.Stats(); s.Naked != s.Fetched || s.Acked != 0 {
		t.Errorf("first runner: fetched %d, naked %d, acked %d; want every one nak'd", s.Fetched, s.Naked, s.Acked)
	}
	// The stuck handler outlived the drain, as the package documents: let
	// it end before the redeliveries, or it overlaps them.
	close(stuck)
	waitFor(t, 10*time.Second, "the stuck handler to return", func() bool { return r1.Stats().Handled == 1 })
	r2, err := natsrunner.New(e.consumer(e.js), newPool(t, 4), h, opts...)
	if err != nil {
		t.Fatal(err)
	}
	stop2 := start(t, r2)
	waitFor(t, 30*time.Second, "every message acked", func() bool { return led.ackedIDs() == len(ks) })
	_ = stop2()
	book.check(t, want)
}

// TestKeyFunctions: the key helpers, and a key function that fails,
// panics or calls runtime.Goexit terms the message as malformed; the
// runner goes on, with the rest of the same pull too.
func TestKeyFunctions(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	ctx := context.Background()
	// Payload ids 0..4: no header; Goexit; header; panic; header. One pull
	// brings them all.
	for i, hdr := range []string{"", "exit", "a", "panic", "b"} {
		m := nats.NewMsg("jobs.x")
		m.Data = []byte(strconv.Itoa(i))
		if hdr != "" {
			m.Header.Set("Key", hdr)
		}
		if _, err := e.js.PublishMsg(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	key := func(msg jetstream.Msg) (string, error) {
		switch msg.Headers().Get("Key") {
		case "panic":
			panic("key function panicked")
		case "exit":
			runtime.Goexit()
		}
		return natsrunner.Header("Key")(msg)
	}
	led := newLedger()
	p := newPool(t, 8)
	r, err := natsrunner.New(e.consumer(e.js), p, func(context.Context, jetstream.Msg) error { return nil }, led.hook(t, "a"),
		natsrunner.WithKey(key), natsrunner.WithFetchMaxWait(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, r)
	waitFor(t, 10*time.Second, "every message settled", func() bool { return r.Stats().Acked+r.Stats().Termed == 5 })
	_ = stop()
	if s := r.Stats(); s.Acked != 2 || s.Termed != 3 || s.Malformed != 3 || s.Fetched != 5 {
		t.Errorf("Acked %d, Termed %d, Malformed %d, Fetched %d; want 2, 3, 3, 5", s.Acked, s.Termed, s.Malformed, s.Fetched)
	}
	led.mu.Lock()
	if led.acked[2] != 1 || led.acked[4] != 1 {
		t.Errorf("the messages with a Key header were not acked once each: %v", led.acked)
	}
	led.mu.Unlock()
	if _, err := natsrunner.New(e.consumer(e.js), p, func(context.Context, jetstream.Msg) error { return nil },
		natsrunner.WithKey(nil)); !errors.Is(err, natsrunner.ErrInvalid) {
		t.Errorf("WithKey(nil): %v, want ErrInvalid", err)
	}
	if _, err := natsrunner.New(e.consumer(e.js), p, func(context.Context, jetstream.Msg) error { return nil },
		natsrunner.WithPriorityGroup("")); !errors.Is(err, natsrunner.ErrInvalid) {
		t.Errorf("WithPriorityGroup(\"\"): %v, want ErrInvalid", err)
	}
}

// TestSubjectToken: token indexes from either end, and one out of range.
func TestSubjectToken(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	if _, err := e.js.Publish(context.Background(), "jobs.eu.42", []byte("0")); err != nil {
		t.Fatal(err)
	}
	c := e.consumer(e.js)
	batch, err := c.Fetch(1, jetstream.FetchMaxWait(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	msg := <-batch.Messages()
	if msg == nil {
		t.Fatal("no message")
	}
	defer func() { _ = msg.Ack() }()
	for i, want := range map[int]string{0: "jobs", 1: "eu", 2: "42", -1: "42", -3: "jobs"} {
		if got, err := natsrunner.SubjectToken(i)(msg); got != want || err != nil {
			t.Errorf("SubjectToken(%d) = %q, %v; want %q", i, got, err, want)
		}
	}
	for _, i := range []int{3, -4} {
		if _, err := natsrunner.SubjectToken(i)(msg); !errors.Is(err, natsrunner.ErrNoKey) {
			t.Errorf("SubjectToken(%d): %v, want ErrNoKey", i, err)
		}
	}
}
