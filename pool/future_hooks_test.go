//go:build poolkit_hooks && go1.25

package pool_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/poolkit/poolkit/internal/testkit"
	"github.com/poolkit/poolkit/pool"
)

// TestBreakSubmitResultContextEndsInAdmission: F1. The context of a
// SubmitResult ends after the pool has queued its task but before Submit
// has returned (held where the submitter decides whether to wake a
// worker): the submitter, once accepted, sees the context ended and
// expires the task itself, before anyone looks at its Future. It never
// starts.
func TestBreakSubmitResultContextEndsInAdmission(t *testing.T) {
	synctest.Test(t, breakSubmitResultContextEndsInAdmission)
}

func breakSubmitResultContextEndsInAdmission(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 1)
	release := blocked(t, p)
	paused, resume := pauseAt(t, "notify")
	defer resume()
	ctx, cancel := context.WithCancel(bg)
	type submitted struct {
		f   *pool.Future[int]
		err error
	}
	out := make(chan submitted, 1)
	go func() {
		f, err := pool.SubmitResult(ctx, p, func() (int, error) { t.Error("a task whose context ended before it started ran"); return 0, nil })
		out <- submitted{f, err}
	}()
	<-paused
	cancel()
	resume()
	s := <-out
	if s.err != nil {
		t.Fatalf("SubmitResult = %v, want the task accepted (its context was live when the pool took it)", s.err)
	}
	if st := p.Stats(); st.Expired != 1 || st.Waiting != 0 {
		t.Errorf("as SubmitResult returns: Expired %d, Waiting %d; want the task expired (1, 0) before its Future is looked at", st.Expired, st.Waiting)
	}
	select {
	case <-s.f.Done():
	default:
		t.Fatal("the Future of a task whose context ended during its admission is not done while the pool is busy")
	}
	if _, err := s.f.Wait(bg); !errors.Is(err, context.Canceled) {
		t.Errorf("Future = %v, want context.Canceled", err)
	}
	release()
	if err := shutdownWithin(p, testkit.FailBound); err != nil {
		t.Fatal(err)
	}
	if st := p.Stats(); st.Expired != 1 || st.Completed != st.Submitted {
		t.Errorf("stats: %+v; want 1 expired, every accepted unit completed", st)
	}
}
