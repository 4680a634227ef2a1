//go:build go1.25

package pool_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/internal/testkit"
	"github.com/poolkit/poolkit/pool"
)

// TestSubmitResultExpires: API-38. A task of SubmitResult whose context
// ends while it waits for a worker never starts; its Future reports
// ctx.Err() at that moment, while the pool is still busy, to a channel
// from Done and to a Wait in progress; it is counted in Expired, no longer
// in Waiting, and in Completed once the queue has moved past it. A Future
// nobody looks at expires when a worker reaches its task.
func TestSubmitResultExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1)
		release := blocked(t, p)
		never := func() (int, error) { t.Error("a task whose context ended ran"); return 0, nil }
		ctx, cancel := context.WithCancel(bg)
		f, err := pool.SubmitResult(ctx, p, never)
		if err != nil {
			t.Fatal(err)
		}
		fDone := f.Done()
		deadlined, cancel2 := context.WithTimeout(bg, 5*time.Millisecond)
		defer cancel2()
		g, err := pool.SubmitResult(deadlined, p, never)
		if err != nil {
			t.Fatal(err)
		}
		gErr := make(chan error, 1)
		go func() { _, err := g.Wait(bg); gErr <- err }()
		unseen, cancel3 := context.WithCancel(bg)
		if _, err := pool.SubmitResult(unseen, p, never); err != nil {
			t.Fatal(err)
		}
		live, cancel4 := context.WithCancel(bg)
		defer cancel4()
		ok, err := pool.SubmitResult(live, p, func() (int, error) { return 7, nil })
		if err != nil {
			t.Fatal(err)
		}
		okDone := ok.Done()
		cancel()
		cancel3()
		synctest.Wait()
		select {
		case <-fDone:
		default:
			t.Fatal("the Done channel of a task whose context was cancelled is not closed while the pool is still busy")
		}
		if _, err := f.Wait(bg); !errors.Is(err, context.Canceled) {
			t.Errorf("Future of a cancelled task: %v, want context.Canceled", err)
		}
		time.Sleep(5 * time.Millisecond)
		synctest.Wait()
		select {
		case err := <-gErr:
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Wait on a task past its context's deadline: %v, want context.DeadlineExceeded", err)
			}
		default:
			t.Fatal("a Wait in progress on a task past its context's deadline did not return while the pool is still busy")
		}
		if st := p.Stats(); st.Expired != 2 || st.Waiting != 2 {
			t.Errorf("Stats with two tasks seen to expire, one expired unseen and one waiting: Expired %d, Waiting %d; want 2, 2", st.Expired, st.Waiting)
		}
		release()
		<-okDone
		if v, err := ok.Wait(bg); v != 7 || err != nil {
			t.Errorf("the task that did not expire gave %v, %v", v, err)
		}
		if err := p.Shutdown(bg); err != nil {
			t.Fatal(err)
		}
		st := p.Stats()
		if st.Submitted != 5 || st.Completed != 5 || st.Waiting != 0 || st.Expired != 3 {
			t.Errorf("stats after shutdown: %+v; want 5 submitted and completed, 3 of them expired", st)
		}
	})
}

// TestSubmitResultStartedKeepsRunning: API-38. Once its task has started,
// the end of the context changes nothing: the Future reports the task's
// result. A context that ends while the submission waits for room refuses
// it: nothing runs and nothing is counted as expired.
func TestSubmitResultStartedKeepsRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(0))
		ctx, cancel := context.WithCancel(bg)
		started, gate := make(chan struct{}), make(chan struct{})
		f, err := pool.SubmitResult(ctx, p, func() (int, error) { close(started); <-gate; return 3, nil })
		if err != nil {
			t.Fatal(err)
		}
		<-started
		cancel()
		waitCtx, cancelWait := context.WithTimeout(bg, time.Millisecond)
		defer cancelWait()
		if _, err := pool.SubmitResult(waitCtx, p, func() (int, error) { t.Error("a refused task ran"); return 0, nil }); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("SubmitResult on a full pool = %v, want it to wait until DeadlineExceeded", err)
		}
		close(gate)
		if v, err := f.Wait(bg); v != 3 || err != nil {
			t.Errorf("a task whose context ended after it started gave %v, %v; want 3, nil", v, err)
		}
		if err := p.Shutdown(bg); err != nil {
			t.Fatal(err)
		}
		if st := p.Stats(); st.Expired != 0 || st.Completed != 1 || st.RejectedContext != 1 {
			t.Errorf("stats: %+v; want 1 completed, 1 refused for its context, none expired", st)
		}
	})
}

// TestSubmitResultShutdownNow: API-38. ShutdownNow hands back a task of
// SubmitResult that expired as a function that does nothing; one that had
// not expired keeps its context: called, it runs the task unless the
// context has ended since.
func TestSubmitResultShutdownNow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1)
		release := blocked(t, p)
		var ran [3]atomic.Bool
		var futures [3]*pool.Future[int]
		var cancels [3]context.CancelFunc
		for i := range 3 {
			ctx, cancel := context.WithCancel(bg)
			cancels[i] = cancel
			f, err := pool.SubmitResult(ctx, p, func() (int, error) { ran[i].Store(true); return i, nil })
			if err != nil {
				t.Fatal(err)
			}
			futures[i] = f
		}
		cancels[0]()
		synctest.Wait()
		back := p.ShutdownNow()
		if len(back) != 3 {
			t.Fatalf("ShutdownNow handed back %d functions, want 3", len(back))
		}
		cancels[2]()
		synctest.Wait()
		for _, fn := range back {
			fn()
		}
		release()
		for i, want := range []error{context.Canceled, nil, context.Canceled} {
			if _, err := futures[i].Wait(bg); !errors.Is(err, want) || (err == nil) != ran[i].Load() {
				t.Errorf("task %d: Future %v, ran %v; want %v", i, err, ran[i].Load(), want)
			}
		}
	})
}

// TestSubmitResultExactlyOnce: API-38 under contention. Contexts end at
// random moments around the submissions: each task either runs once and
// its Future has its value, or never runs and its Future has ctx.Err(),
// and Stats.Expired counts exactly the latter.
func TestSubmitResultExactlyOnce(t *testing.T) {
	p := mustNew(t, 2, pool.WithQueueSize(8))
	ranN, endedN, refused := underContention(t, p, func(ctx context.Context, _ int, fn func() (int, error)) (*pool.Future[int], error) {
		return pool.SubmitResult(ctx, p, fn)
	}, context.Canceled, context.DeadlineExceeded)
	st := p.Stats()
	if st.Expired != endedN || st.Submitted != st.Completed || st.Submitted != ranN+endedN || st.Waiting != 0 {
		t.Errorf("ran %d, expired %d; stats %+v", ranN, endedN, st)
	}
	if refused != st.Rejected {
		t.Errorf("%d refused, stats count %d", refused, st.Rejected)
	}
}

// underContention has 4 producers submit 300 tasks each to p through
// submit, with contexts that end at random moments around the
// submissions and resizes between them, shuts p down, and checks that
// each accepted task either ran once and its Future has its value, or
// never ran and its Future has an error matching one of ended. It returns
// how many ran, how many ended without running, and how many submissions
// were refused.
func underContention(t *testing.T, p *pool.Pool, submit func(ctx context.Context, i int, fn func() (int, error)) (*pool.Future[int], error), ended ...error) (ranN, endedN, refused uint64) {
	t.Helper()
	const producers, each = 4, 300
	var runs [producers][each]atomic.Int32
	var futures [producers][each]*pool.Future[int]
	var refusedN atomic.Uint64
	var wg sync.WaitGroup
	for pr := range producers {
		wg.Go(func() {
			for i := range each {
				ctx, cancel := context.WithCancel(bg)
				if i%7 == 0 {
					ctx, cancel = context.WithTimeout(bg, time.Duration(i%3)*100*time.Microsecond)
				}
				switch i % 10 {
				case 0:
					cancel()
				case 5:
					go cancel()
				}
				f, err := submit(ctx, i, func() (int, error) {
					runs[pr][i].Add(1)
					if i%11 == 0 {
						runtime.Gosched()
					}
					return i, nil
				})
				if i%5 == 3 {
					cancel()
				}
				if err != nil {
					refusedN.Add(1)
					cancel()
					continue
				}
				futures[pr][i] = f
				if i%50 == 0 {
					_ = p.Resize(1 + i%3)
				}
				defer cancel()
			}
		})
	}
	wg.Wait()
	if err := shutdownWithin(p, testkit.FailBound); err != nil {
		t.Fatal(err)
	}
	for pr := range producers {
		for i, f := range futures[pr] {
			if f == nil {
				continue
			}
			v, err := f.Wait(bg)
			n := runs[pr][i].Load()
			switch {
			case err == nil && n == 1 && v == i:
				ranN++
			case n == 0 && slices.ContainsFunc(ended, func(e error) bool { return errors.Is(err, e) }):
				endedN++
			default:
				t.Errorf("task %d/%d: ran %d times, reported %v, %v", pr, i, n, v, err)
			}
		}
	}
	return ranN, endedN, refusedN.Load()
}

// TestSubmitResultShutdownNowOrder: API-38 and KEY-7's order. The tasks
// of SubmitResult come back from ShutdownNow in their places among the
// plain tasks, oldest first, whether their context can end or not.
func TestSubmitResultShutdownNowOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1)
		release := blocked(t, p)
		defer release()
		var order []string
		ctx, cancel := context.WithCancel(bg)
		defer cancel()
		for i, c := range []context.Context{nil, bg, nil, ctx, nil} {
			name := fmt.Sprint(i)
			if c == nil {
				if err := p.Submit(bg, func() { order = append(order, "task "+name) }); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if _, err := pool.SubmitResult(c, p, func() (int, error) { order = append(order, "future "+name); return i, nil }); err != nil {
				t.Fatal(err)
			}
		}
		for _, fn := range p.ShutdownNow() {
			fn()
		}
		want := []string{"task 0", "future 1", "task 2", "future 3", "task 4"}
		if fmt.Sprint(order) != fmt.Sprint(want) {
			t.Errorf("ShutdownNow's functions ran %q, want %q", order, want)
		}
	})
}
