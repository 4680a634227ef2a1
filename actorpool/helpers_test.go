package actorpool_test

import (
	"context"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/poolkit/poolkit/actorpool"
)

// failBound is how long a test waits for something that a correct system
// does in microseconds; only a lost wake-up or a hang reaches it.
const failBound = 10 * time.Second

func newSystem(t testing.TB, opts ...actorpool.Option) *actorpool.System {
	t.Helper()
	s, err := actorpool.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { shutdown(t, s) })
	return s
}

func shutdown(t testing.TB, s *actorpool.System) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), failBound)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown = %v", err)
	}
}

func spawn(t testing.TB, s *actorpool.System, f func(c *actorpool.Context, msg any), opts ...actorpool.SpawnOption) actorpool.Ref {
	t.Helper()
	r, err := s.Spawn(func() actorpool.Behavior { return actorpool.BehaviorFunc(f) }, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func tell(t testing.TB, r actorpool.Ref, msg any) {
	t.Helper()
	if err := r.Tell(msg); err != nil {
		t.Fatalf("Tell(%v) = %v", msg, err)
	}
}

func wait(t testing.TB, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(failBound):
		t.Fatalf("%s: not within %v", what, failBound)
	}
}

// matrix runs f for every worker count and budget the guarantees are
// checked over.
func matrix(t *testing.T, f func(t *testing.T, workers, budget int)) {
	for _, w := range []int{1, 2, runtime.GOMAXPROCS(0)} {
		for _, b := range []int{1, 2, 32, 1024} {
			w, b := w, b
			t.Run("workers="+strconv.Itoa(w)+"/budget="+strconv.Itoa(b), func(t *testing.T) { f(t, w, b) })
		}
	}
}
