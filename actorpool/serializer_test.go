//go:build go1.25

package actorpool_test

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/poolkit/poolkit/actorpool"
)

// service returns a service made of two actors (a front that forwards to a
// back end that answers), instrumented to count requests in flight inside
// it. The back end answers after the front has forwarded, possibly twice
// (dup) to try a used proxy.
func service(t *testing.T, s *actorpool.System, inFlight, maxInFlight *atomic.Int32, dup bool) actorpool.Ref {
	t.Helper()
	back := spawn(t, s, func(c *actorpool.Context, msg any) {
		inFlight.Add(-1) // the request leaves the group with its answer
		_ = c.Respond(msg)
		if dup {
			_ = c.Respond("second answer")
		}
	})
	return spawn(t, s, func(c *actorpool.Context, msg any) {
		n := inFlight.Add(1)
		for {
			m := maxInFlight.Load()
			if n <= m || maxInFlight.CompareAndSwap(m, n) {
				break
			}
		}
		_ = c.Forward(back)
	})
}

// TestSerializerOneAtATimeInOrder: S-1 (at most one request inside the
// group), S-2 (answers in arrival order per customer), S-4 (exactly one
// answer each), with many customers at once.
func TestSerializerOneAtATimeInOrder(t *testing.T) {
	s := newSystem(t, actorpool.WithWorkers(4))
	var inFlight, maxInFlight atomic.Int32
	ser, err := actorpool.NewSerializer(s, service(t, s, &inFlight, &maxInFlight, false))
	if err != nil {
		t.Fatal(err)
	}
	const customers, each = 8, 100
	var wg sync.WaitGroup
	for c := range customers {
		wg.Go(func() {
			for i := range each {
				v, err := ser.Ref().Ask(context.Background(), [2]int{c, i})
				if err != nil || v != [2]int{c, i} {
					t.Errorf("customer %d request %d: answer %v, %v", c, i, v, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if m := maxInFlight.Load(); m != 1 {
		t.Errorf("%d requests were inside the service at once, want 1", m)
	}
	if st := ser.Stats(); st.Answered != customers*each || st.Stale != 0 {
		t.Errorf("Stats = %+v", st)
	}
}

// TestSerializerFIFOBuffer: S-2 and S-5 with one customer actor telling a
// burst: requests buffered while one is in flight are served in arrival
// order, none refused.
func TestSerializerFIFOBuffer(t *testing.T) {
	s := newSystem(t)
	var inFlight, maxInFlight atomic.Int32
	ser, err := actorpool.NewSerializer(s, service(t, s, &inFlight, &maxInFlight, false))
	if err != nil {
		t.Fatal(err)
	}
	const n = 200
	got := make(chan int, n)
	cust := spawn(t, s, func(c *actorpool.Context, msg any) {
		if msg == "go" {
			for i := range n {
				_ = c.Tell(ser.Ref(), i)
			}
			return
		}
		got <- msg.(int)
	})
	tell(t, cust, "go")
	for i := range n {
		if v := <-got; v != i {
			t.Fatalf("answer %d is %d: not in request order", i, v)
		}
	}
}

// TestSerializerIgnoresUsedProxy: S-3. A second answer through a proxy
// that has been used reaches nobody and changes nothing.
func TestSerializerIgnoresUsedProxy(t *testing.T) {
	s := newSystem(t)
	var inFlight, maxInFlight atomic.Int32
	ser, err := actorpool.NewSerializer(s, service(t, s, &inFlight, &maxInFlight, true))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if v, err := ser.Ref().Ask(context.Background(), i); v != i || err != nil {
			t.Fatalf("Ask(%d) = %v, %v", i, v, err)
		}
	}
	if st := ser.Stats(); st.Answered != 20 {
		t.Errorf("Stats = %+v, want 20 answers", st)
	}
}

// TestSerializerBoundedBuffer: S-5 with a bound. While one request is in
// flight and the buffer is full, a request is answered ErrBusy at once;
// the others are still served.
func TestSerializerBoundedBuffer(t *testing.T) {
	s := newSystem(t)
	release, entered := make(chan struct{}), make(chan struct{})
	svc := spawn(t, s, func(c *actorpool.Context, msg any) {
		if msg == 0 {
			close(entered)
			<-release
		}
		_ = c.Respond(msg)
	})
	ser, err := actorpool.NewSerializer(s, svc, actorpool.WithBuffer(2))
	if err != nil {
		t.Fatal(err)
	}
	results := make(chan error, 4)
	ask := func(i int) { _, err := ser.Ref().Ask(context.Background(), i); results <- err }
	go ask(0)
	wait(t, entered, "first request in the service")
	var wg sync.WaitGroup
	for i := 1; i <= 3; i++ {
		wg.Go(func() { ask(i) })
	}
	busy := <-results // the fourth request finds one in flight and two buffered
	if !errors.Is(busy, actorpool.ErrBusy) {
		t.Fatalf("first answer = %v, want ErrBusy", busy)
	}
	close(release)
	wg.Wait()
	for range 3 {
		if err := <-results; err != nil {
			t.Errorf("answer = %v", err)
		}
	}
	if st := ser.Stats(); st.Busy != 1 || st.Answered != 4 {
		t.Errorf("Stats = %+v", st)
	}
}

// TestSerializerStopAnswersWaiting: with the service busy on request 0 and
// three requests buffered, stopping the serializer (by its Ref's Stop, or
// by its system's Shutdown) answers all four Asks with ErrStopped at once,
// instead of leaving them to their own deadlines.
func TestSerializerStopAnswersWaiting(t *testing.T) {
	for _, how := range []string{"Stop", "Shutdown"} {
		t.Run(how, func(t *testing.T) {
			s, err := actorpool.New(actorpool.WithWorkers(2))
			if err != nil {
				t.Fatal(err)
			}
			release := make(chan struct{})
			busy := make(chan struct{}, 4)
			svc := spawn(t, s, func(c *actorpool.Context, msg any) {
				busy <- struct{}{}
				<-release
				_ = c.Respond(msg)
			})
			ser, err := actorpool.NewSerializer(s, svc)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), failBound)
			defer cancel()
			errs := make(chan error, 4)
			var asked sync.WaitGroup
			for i := range 4 {
				asked.Add(1)
				go func() {
					asked.Done()
					_, err := ser.Ref().Ask(ctx, i)
					errs <- err
				}()
			}
			asked.Wait()
			<-busy // request 0 is in the service
			// The other three are in the serializer's buffer once its
			// mailbox stays empty (each Ask sends before it waits).
			for quiet := 0; quiet < 100; {
				if s.Stats().Queued == 0 {
					quiet++
				} else {
					quiet = 0
				}
				runtime.Gosched()
			}
			switch how {
			case "Stop":
				if err := ser.Ref().Stop(); err != nil {
					t.Fatal(err)
				}
			case "Shutdown":
				sctx, scancel := context.WithTimeout(context.Background(), failBound)
				defer scancel()
				go func() { _ = s.Shutdown(sctx) }()
			}
			for range 4 {
				select {
				case err := <-errs:
					if !errors.Is(err, actorpool.ErrStopped) {
						t.Errorf("an Ask waiting in a stopped serializer = %v, want ErrStopped", err)
					}
				case <-ctx.Done():
					t.Fatal("an Ask waiting in a stopped serializer was never answered")
				}
			}
			close(release)
			shutdown(t, s)
		})
	}
}
