package servertest_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/natsrunner"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// ants starts a default pool at init, used only by the benchmark;
		// its two background goroutines live for the process.
		goleak.IgnoreAnyFunction("github.com/panjf2000/ants/v2.(*poolCommon).purgeStaleWorkers"),
		goleak.IgnoreAnyFunction("github.com/panjf2000/ants/v2.(*poolCommon).ticktock"))
}

func noBackoff(int) time.Duration { return 0 }

func TestNewInvalid(t *testing.T) {
	e := newEnv(t, time.Second)
	c := e.consumer(e.js)
	p := newPool(t, 1)
	h := func(context.Context, jetstream.Msg) error { return nil }
	cases := map[string]func() error{
		"nil consumer": func() error { _, err := natsrunner.New(nil, p, h); return err },
		"nil pool":     func() error { _, err := natsrunner.New(c, nil, h); return err },
		"nil handler":  func() error { _, err := natsrunner.New(c, p, nil); return err },
		"bad option": func() error {
			_, err := natsrunner.New(c, p, h, natsrunner.WithMaxAttempts(0))
			return err
		},
	}
	for name, f := range cases {
		if err := f(); !errors.Is(err, natsrunner.ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
	}
}

// Random failures and panics: every message is acked exactly once, none
// is lost, and the failures were nak'd and redelivered.
func TestAtLeastOnceExactlyOneAck(t *testing.T) {
	const n = 500
	e := newEnv(t, 5*time.Second)
	e.publish(n)
	p := newPool(t, 8)
	led := newLedger()
	var failures, panics atomic.Int64
	h := func(_ context.Context, msg jetstream.Msg) error {
		md, err := msg.Metadata()
		if err != nil {
			return err
		}
		// Seeded, and independent of scheduling: one draw per delivery.
		rng := rand.New(rand.NewPCG(42, uint64(msgID(t, msg))<<16|md.NumDelivered))
		switch x := rng.IntN(100); {
		case x < 5:
			panics.Add(1)
			panic("boom")
		case x < 25:
			failures.Add(1)
			return errors.New("transient")
		}
		return nil
	}
	r := runUntilAcked(t, e.consumer(e.js), p, h, led, n)
	s := r.Stats()
	t.Logf("stats %+v; handler failures %d panics %d", s, failures.Load(), panics.Load())
	if s.Naked == 0 || s.Panics == 0 {
		t.Errorf("want naks and panics > 0, got %+v", s)
	}
	if s.Panics != uint64(panics.Load()) || s.Failed != uint64(failures.Load()+panics.Load()) {
		t.Errorf("counted panics %d failed %d, handler saw %d panics %d errors",
			s.Panics, s.Failed, panics.Load(), failures.Load())
	}
	if s.Acked != n || s.Termed != 0 || s.Fetched != s.Acked+s.Naked+s.Termed || s.InFlight != 0 {
		t.Errorf("inconsistent stats %+v", s)
	}
	if info := e.info(); info.NumPending != 0 || info.NumAckPending != 0 {
		t.Errorf("server still has pending %d, ack pending %d", info.NumPending, info.NumAckPending)
	}
}

// With a full pool the runner never holds more messages than the pool's
// capacity.
func TestNeverPullsBeyondPool(t *testing.T) {
	const n, size = 120, 4
	e := newEnv(t, 5*time.Second)
	e.publish(n)
	p := newPool(t, size)
	led := newLedger()
	var r *natsrunner.Runner
	var pk peak
	var ready = make(chan struct{})
	h := func(context.Context, jetstream.Msg) error {
		<-ready
		pk.observe(r.Stats().InFlight)
		s := r.Stats()
		pk.observe(int(s.Fetched - s.Acked - s.Naked - s.Termed))
		time.Sleep(2 * time.Millisecond) // slow work
		return nil
	}
	r, err := natsrunner.New(e.consumer(e.js), p, h, led.hook(t, "a"))
	if err != nil {
		t.Fatal(err)
	}
	close(ready)
	stop := start(t, r)
	waitFor(t, 30*time.Second, "all messages acked", func() bool { return led.ackedIDs() == n })
	_ = stop()
	led.checkExactlyOnce(t, n)
	if got := pk.get(); got > size {
		t.Errorf("peak in-flight %d exceeds pool capacity %d", got, size)
	} else if got < size {
		t.Errorf("peak in-flight %d never reached capacity %d", got, size)
	}
}

// Growing the pool mid-run raises the size of the next pull.
func TestResizeRaisesConcurrency(t *testing.T) {
	const n = 300
	e := newEnv(t, 5*time.Second)
	e.publish(n)
	p := newPool(t, 4)
	led := newLedger()
	var r *natsrunner.Runner
	var before, after peak
	var resized atomic.Bool
	ready := make(chan struct{})
	h := func(context.Context, jetstream.Msg) error {
		<-ready
		in := r.Stats().InFlight
		if resized.Load() {
			after.observe(in)
		} else {
			before.observe(in)
		}
		time.Sleep(3 * time.Millisecond)
		return nil
	}
	r, err := natsrunner.New(e.consumer(e.js), p, h, led.hook(t, "a"))
	if err != nil {
		t.Fatal(err)
	}
	close(ready)
	stop := start(t, r)
	waitFor(t, 30*time.Second, "40 acks", func() bool { return led.ackedIDs() >= 40 })
	// Mark first: a handler that sees resized=false ran under Cap 4.
	resized.Store(true)
	if err := p.Resize(16); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "all messages acked", func() bool { return led.ackedIDs() == n })
	_ = stop()
	led.checkExactlyOnce(t, n)
	t.Logf("peak in-flight before resize %d, after %d", before.get(), after.get())
	if before.get() > 4 {
		t.Errorf("peak before resize %d > 4", before.get())
	}
	if after.get() <= 4 || after.get() > 16 {
		t.Errorf("peak after resize %d, want in (4, 16]", after.get())
	}
}

// Two runners, each with its own connection and pool, share one durable
// consumer and split the work.
func TestTwoRunnersShareConsumer(t *testing.T) {
	const n = 300
	e := newEnv(t, 5*time.Second)
	e.publish(n)
	led := newLedger()
	h := func(context.Context, jetstream.Msg) error {
		time.Sleep(time.Millisecond)
		return nil
	}
	var stops []func() error
	for _, name := range []string{"a", "b"} {
		r, err := natsrunner.New(e.consumer(e.connect()), newPool(t, 4), h, led.hook(t, name),
			natsrunner.WithFetchMaxWait(200*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		stops = append(stops, start(t, r))
	}
	waitFor(t, 30*time.Second, "all messages acked", func() bool { return led.ackedIDs() == n })
	for _, stop := range stops {
		_ = stop()
	}
	led.checkExactlyOnce(t, n)
	led.mu.Lock()
	a, b := led.ackedBy["a"], led.ackedBy["b"]
	led.mu.Unlock()
	t.Logf("runner a acked %d, runner b %d", a, b)
	if a == 0 || b == 0 || a+b != n {
		t.Errorf("split a=%d b=%d, want both > 0 and sum %d", a, b, n)
	}
}

// Shutdown with handlers stuck: after the drain timeout their messages
// are nak'd, and a second runner then processes every message.
func TestShutdownNaksInFlight(t *testing.T) {
	const n, size = 10, 4
	e := newEnv(t, 30*time.Second) // redelivery must come from the Nak, not AckWait
	e.publish(n)
	led := newLedger()
	var returned atomic.Int64
	stuck := func(ctx context.Context, _ jetstream.Msg) error {
		<-ctx.Done() // cancelled only at the drain deadline
		returned.Add(1)
		return nil
	}
	r1, err := natsrunner.New(e.consumer(e.js), newPool(t, size), stuck, led.hook(t, "a"),
		natsrunner.WithDrainTimeout(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop1 := start(t, r1)
	waitFor(t, 10*time.Second, "pool full", func() bool { return r1.Stats().InFlight == size })
	began := time.Now()
	if err := stop1(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	if d := time.Since(began); d < 200*time.Millisecond {
		t.Errorf("Run returned after %v, before the drain timeout", d)
	}
	s1 := r1.Stats()
	if s1.Acked != 0 || s1.Naked != s1.Fetched || s1.Naked < size || s1.InFlight != 0 {
		t.Errorf("first runner stats %+v: want every fetched message nak'd", s1)
	}
	waitFor(t, 10*time.Second, "stuck handlers return", func() bool { return returned.Load() == size })
	if got := r1.Stats().Acked; got != 0 {
		t.Errorf("a handler returning after the drain was acked (%d)", got)
	}

	var redelivered atomic.Int64
	ok := func(_ context.Context, msg jetstream.Msg) error {
		if md, err := msg.Metadata(); err == nil && md.NumDelivered > 1 {
			redelivered.Add(1)
		}
		return nil
	}
	r2, err := natsrunner.New(e.consumer(e.js), newPool(t, size), ok, led.hook(t, "b"))
	if err != nil {
		t.Fatal(err)
	}
	stop2 := start(t, r2)
	waitFor(t, 10*time.Second, "all messages acked", func() bool { return led.ackedIDs() == n })
	_ = stop2()
	led.checkExactlyOnce(t, n)
	if redelivered.Load() < size {
		t.Errorf("redelivered %d messages, want >= %d", redelivered.Load(), size)
	}
}

// Shutdown waits for handlers that finish within the drain timeout and
// acks their messages.
func TestShutdownDrainsFinishingHandlers(t *testing.T) {
	const size = 3
	e := newEnv(t, 30*time.Second)
	e.publish(size)
	led := newLedger()
	release := make(chan struct{})
	var started atomic.Int64
	h := func(context.Context, jetstream.Msg) error {
		started.Add(1)
		<-release
		return nil
	}
	r, err := natsrunner.New(e.consumer(e.js), newPool(t, size), h, led.hook(t, "a"),
		natsrunner.WithDrainTimeout(20*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, r)
	// Wait for the handlers, not InFlight: a message counts as in flight
	// before the pool accepts it, and one not yet handed over when Run is
	// cancelled is nak'd.
	waitFor(t, 10*time.Second, "handlers started", func() bool { return started.Load() == size })
	var wg sync.WaitGroup
	var runErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		runErr = stop()
	}()
	// Whether or not Run has seen the cancellation yet, it must not
	// return before these handlers, and must ack their messages.
	close(release)
	wg.Wait()
	if !errors.Is(runErr, context.Canceled) {
		t.Errorf("Run returned %v", runErr)
	}
	led.checkExactlyOnce(t, size)
	if s := r.Stats(); s.Naked != 0 || s.Acked != size {
		t.Errorf("stats %+v, want %d acks and no naks", s, size)
	}
}

// A message that always fails is nak'd until its last attempt, then termed.
func TestPoisonMessageTermed(t *testing.T) {
	const attempts = 3
	e := newEnv(t, 5*time.Second)
	e.publish(1)
	led := newLedger()
	var mu sync.Mutex
	var seen []uint64
	h := func(_ context.Context, msg jetstream.Msg) error {
		md, err := msg.Metadata()
		if err != nil {
			return err
		}
		mu.Lock()
		seen = append(seen, md.NumDelivered)
		mu.Unlock()
		return errors.New("poison")
	}
	r, err := natsrunner.New(e.consumer(e.js), newPool(t, 2), h, led.hook(t, "a"),
		natsrunner.WithMaxAttempts(attempts), natsrunner.WithBackoff(noBackoff),
		natsrunner.WithFetchMaxWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, r)
	waitFor(t, 10*time.Second, "termed", func() bool { return r.Stats().Termed == 1 })
	// One more pull cycle: a termed message must not come back.
	f := r.Stats().Fetched
	waitFor(t, 5*time.Second, "another pull", func() bool {
		info := e.info()
		return info.NumAckPending == 0 && info.NumPending == 0
	})
	_ = stop()
	s := r.Stats()
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != attempts || seen[0] != 1 || seen[attempts-1] != attempts {
		t.Errorf("deliveries %v, want 1..%d", seen, attempts)
	}
	if s.Termed != 1 || s.Naked != attempts-1 || s.Acked != 0 || s.Fetched != f || s.Fetched != attempts {
		t.Errorf("stats %+v", s)
	}
	led.mu.Lock()
	defer led.mu.Unlock()
	if led.termed[0] != 1 || led.naked[0] != attempts-1 || led.acked[0] != 0 {
		t.Errorf("ledger termed %v naked %v acked %v", led.termed, led.naked, led.acked)
	}
}

// A handler longer than AckWait is kept alive by InProgress and is not
// redelivered.
func TestLongHandlerKeptAlive(t *testing.T) {
	e := newEnv(t, 400*time.Millisecond)
	e.publish(2)
	led := newLedger()
	var deliveries atomic.Int64
	h := func(context.Context, jetstream.Msg) error {
		deliveries.Add(1)
		time.Sleep(1200 * time.Millisecond) // three AckWaits
		return nil
	}
	// The pool has room to spare, so a redelivery would be pulled.
	r, err := natsrunner.New(e.consumer(e.js), newPool(t, 4), h, led.hook(t, "a"),
		natsrunner.WithFetchMaxWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, r)
	waitFor(t, 10*time.Second, "both acked", func() bool { return led.ackedIDs() == 2 })
	_ = stop()
	led.checkExactlyOnce(t, 2)
	if d := deliveries.Load(); d != 2 {
		t.Errorf("%d deliveries, want 2 (no redelivery)", d)
	}
	if s := r.Stats(); s.Progress == 0 {
		t.Errorf("no InProgress sent: %+v", s)
	}
}
