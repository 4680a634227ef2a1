//go:build go1.25

package pool_test

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
)

// TestNewRejectsInvalidSize: a size below 1 is an error, never "unlimited".
func TestNewRejectsInvalidSize(t *testing.T) {
	for _, n := range []int{0, -1, -1 << 40, resize.MaxSize + 1} {
		p, err := pool.New(n)
		if !errors.Is(err, pool.ErrInvalidSize) || p != nil {
			t.Errorf("New(%d) = %v, %v; want nil, ErrInvalidSize", n, p, err)
		}
		fp, err := pool.NewFunc(n, func(int) {})
		if !errors.Is(err, pool.ErrInvalidSize) || fp != nil {
			t.Errorf("NewFunc(%d) = %v, %v; want nil, ErrInvalidSize", n, fp, err)
		}
	}
	if _, err := pool.NewFunc[int](1, nil); !errors.Is(err, pool.ErrNilTask) {
		t.Errorf("NewFunc(1, nil) = %v, want ErrNilTask", err)
	}
}

// TestNewRejectsInvalidOptions: a nil option or an invalid option value is
// an error matching ErrInvalidOption, not a panic.
func TestNewRejectsInvalidOptions(t *testing.T) {
	cases := []struct {
		name string
		opt  pool.Option
	}{
		{"nil option", nil},
		{"negative queue size", pool.WithQueueSize(-1)},
		{"queue size above 1<<20", pool.WithQueueSize(1<<20 + 1)},
		{"queue size math.MaxInt", pool.WithQueueSize(math.MaxInt)},
		{"negative max blocking", pool.WithMaxWaiting(-1)},
		{"negative expiry", pool.WithIdleTimeout(-time.Second)},
		{"negative min workers", pool.WithMinWorkers(-1)},
		{"nil logger", pool.WithLogger(nil)},
		{"min workers above the size", pool.WithMinWorkers(2)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := pool.New(1, c.opt)
			if !errors.Is(err, pool.ErrInvalidOption) || p != nil {
				t.Errorf("New(1, %s) = %v, %v; want nil, ErrInvalidOption", c.name, p, err)
			}
		})
	}
}

// TestInvalidValueMessages: the error for an invalid size or option value
// names the value and the range of valid ones, so that its reader need not
// look them up.
func TestInvalidValueMessages(t *testing.T) {
	p := mustNew(t, 2)
	newErr := func(size int, opts ...pool.Option) error { _, err := pool.New(size, opts...); return err }
	keyedErr := func(opts ...pool.KeyedOption) error { _, err := pool.NewKeyed[int](p, opts...); return err }
	schedErr := func(opts ...pool.SchedulerOption) error { _, err := pool.NewScheduler(p, opts...); return err }
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"New(0)", newErr(0), "pool: resize: invalid size 0: want 1 to 2147483647"},
		{"New(1<<40)", newErr(1 << 40), "pool: resize: invalid size 1099511627776: want 1 to 2147483647"},
		{"NewFunc(-1)", func() error { _, err := pool.NewFunc(-1, func(int) {}); return err }(), "pool: resize: invalid size -1: want 1 to 2147483647"},
		{"Resize(0)", p.Resize(0), "resize: invalid size 0: want 1 to 2147483647"},
		{"Resize(MaxSize+1)", p.Resize(resize.MaxSize + 1), "resize: invalid size 2147483648: want 1 to 2147483647"},
		{"WithQueueSize(-1)", newErr(1, pool.WithQueueSize(-1)), "poolkit: invalid option: queue size -1: want 0 to 1048576"},
		{"WithMaxWaiting(-1)", newErr(1, pool.WithMaxWaiting(-1)), "poolkit: invalid option: max waiting -1: want at least 0"},
		{"WithIdleTimeout(-1s)", newErr(1, pool.WithIdleTimeout(-time.Second)), "poolkit: invalid option: idle timeout -1s: want at least 0"},
		{"WithMinWorkers(-1)", newErr(1, pool.WithMinWorkers(-1)), "poolkit: invalid option: min workers -1: want 0 to the pool's size"},
		{"WithMinWorkers(3) for 2", newErr(2, pool.WithMinWorkers(3)), "poolkit: invalid option: min workers 3: want 0 to 2, the pool's size"},
		{"NewKeyed WithQueueSize(0)", keyedErr(pool.WithQueueSize(0)), "poolkit: invalid option: a key's queue size 0: want 1 to 1048576"},
		{"NewKeyed WithBudget(0)", keyedErr(pool.WithBudget(0)), "poolkit: invalid option: budget 0: want at least 1"},
		{"NewScheduler WithQueueSize(0)", schedErr(pool.WithQueueSize(0)), "poolkit: invalid option: a scheduler's queue size 0: want 1 to 1048576"},
		{"NewScheduler WithMaxWait(-1s)", schedErr(pool.WithMaxWait(-time.Second)), "poolkit: invalid option: max wait -1s: want at least 0"},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("%s = %v, want %q", c.name, c.err, c.want)
		}
		if strings.HasPrefix(c.want, "poolkit: invalid option") != errors.Is(c.err, pool.ErrInvalidOption) ||
			strings.Contains(c.want, "invalid size") != errors.Is(c.err, pool.ErrInvalidSize) {
			t.Errorf("%s = %v, matches the wrong kind", c.name, c.err)
		}
	}
}

// TestZeroValuePool: API-2. The methods of a pool not made by New, the
// layers built on one (NewKeyed, NewScheduler), and a Group or Future not
// made by Pool.Group or SubmitResult, return errors
// or zero values; none panics or hangs. A zero pool is closed: what it
// refuses matches ErrClosed, and its Stats say so.
func TestZeroValuePool(t *testing.T) {
	closed := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, pool.ErrClosed) || !errors.Is(err, resize.ErrClosed) {
			t.Errorf("%s on a zero pool = %v, want an error matching ErrClosed and resize.ErrClosed", what, err)
		}
	}
	var p pool.Pool
	closed("Submit", p.Submit(bg, func() {}))
	closed("Resize", p.Resize(2))
	_, err := p.WaitRoom(bg)
	closed("WaitRoom", err)
	g, _ := p.Group(bg)
	g.Go(func() error { t.Error("a task of a zero pool's group ran"); return nil })
	closed("Group.Wait", g.Wait())
	kd, err := pool.NewKeyed[string](&p)
	closed("NewKeyed", err)
	if kd != nil {
		t.Error("NewKeyed on a zero pool returned a Keyed")
	}
	s, err := pool.NewScheduler(&p)
	closed("NewScheduler", err)
	if s != nil {
		t.Error("NewScheduler on a zero pool returned a Scheduler")
	}
	p.Close()
	if err := shutdownWithin(&p, time.Second); err != nil {
		t.Errorf("Shutdown on zero Pool = %v, want nil", err)
	}
	if s := p.Stats(); p.Cap() != 0 || s != (pool.Stats{Closed: true}) || p.ShutdownNow() != nil {
		t.Errorf("zero Pool: Cap %d, Stats %+v; want 0 and nothing but Closed", p.Cap(), s)
	}

	var f pool.FuncPool[int]
	closed("Invoke", f.Invoke(bg, 1))
	closed("FuncPool.Resize", f.Resize(2))
	_, err = f.WaitRoom(bg)
	closed("FuncPool.WaitRoom", err)
	f.Close()
	if err := shutdownWithin(&f, time.Second); err != nil {
		t.Errorf("Shutdown on zero FuncPool = %v, want nil", err)
	}
	pool.SetFuncTimings(&f, true)
	if s := f.Stats(); f.Cap() != 0 || s != (pool.Stats{Closed: true}) || f.ShutdownNow() != nil {
		t.Errorf("zero FuncPool: Cap %d, Stats %+v; want 0 and nothing but Closed", f.Cap(), s)
	}

	var zg pool.Group
	zg.Go(func() error { t.Error("a task of a zero Group ran"); return nil })
	if err := zg.Wait(); err == nil {
		t.Error("a zero Group's Wait = nil after Go, want an error")
	}
	var fu pool.Future[int]
	select {
	case <-fu.Done():
	default:
		t.Error("a zero Future's Done channel is not closed")
	}
	if _, err := fu.Wait(bg); err == nil {
		t.Error("a zero Future's Wait = nil error, want one")
	}
}

// TestSubmitNil: a nil task is rejected with ErrNilTask and changes nothing.
func TestSubmitNil(t *testing.T) {
	p := mustNew(t, 1)
	if err := p.Submit(bg, nil); !errors.Is(err, pool.ErrNilTask) {
		t.Errorf("Submit(nil) = %v, want ErrNilTask", err)
	}
	if err := p.Submit(context.Background(), nil); !errors.Is(err, pool.ErrNilTask) {
		t.Errorf("Submit(nil task) = %v, want ErrNilTask", err)
	}
	//lint:ignore SA1012 a nil context is the input under test
	if err := p.Submit(nil, func() {}); err == nil { //nolint:staticcheck
		t.Error("Submit(nil ctx) = nil, want an error")
	}
	if s := p.Stats(); s.Submitted != 0 || s.Rejected != 0 {
		t.Errorf("after nil submissions Stats = %+v, want nothing counted", s)
	}
}

// TestUseAfterClose: every operation on a released pool returns
// ErrClosed (or is a documented no-op), and the rejected task never
// runs.
func TestUseAfterClose(t *testing.T) {
	p := mustNew(t, 2)
	p.Close()
	if !p.Stats().Closed {
		t.Fatal("Stats().Closed = false after Close")
	}
	var ran atomic.Bool
	task := func() { ran.Store(true) }
	if err := p.Submit(bg, task); !errors.Is(err, pool.ErrClosed) {
		t.Errorf("Submit after Close = %v, want ErrClosed", err)
	}
	if err := p.Submit(context.Background(), task); !errors.Is(err, pool.ErrClosed) {
		t.Errorf("Submit after Close = %v, want ErrClosed", err)
	}
	if err := p.Resize(5); !errors.Is(err, pool.ErrClosed) || !errors.Is(err, resize.ErrClosed) {
		t.Errorf("Resize after Close = %v, want ErrClosed matching resize.ErrClosed", err)
	}
	_ = p.Resize(7)
	if p.Cap() != 2 {
		t.Errorf("Cap() = %d after Resize/Tune on a closed pool, want 2", p.Cap())
	}
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	if ran.Load() {
		t.Error("a rejected task ran")
	}
}

// TestResizeInvalid: invalid sizes return ErrInvalidSize and change nothing.
func TestResizeInvalid(t *testing.T) {
	p := mustNew(t, 3)
	for _, n := range []int{0, -1, resize.MaxSize + 1} {
		if err := p.Resize(n); !errors.Is(err, pool.ErrInvalidSize) {
			t.Errorf("Resize(%d) = %v, want ErrInvalidSize", n, err)
		}
		if p.Cap() != 3 {
			t.Errorf("after Resize(%d): Cap() = %d, want 3", n, p.Cap())
		}
	}
	if s := p.Stats(); s.Resizes != 0 {
		t.Errorf("Stats().Resizes = %d after rejected resizes, want 0", s.Resizes)
	}
}

// TestResizeIdempotent: Resize to the current size changes nothing, and
// repeating a Resize has the effect of one.
func TestResizeIdempotent(t *testing.T) {
	p := mustNew(t, 3)
	for range 3 {
		if err := p.Resize(3); err != nil {
			t.Fatal(err)
		}
	}
	if s := p.Stats(); s.Resizes != 0 || s.Cap != 3 {
		t.Errorf("after Resize(3) x3 on a pool of 3: %+v, want Cap 3 and no resize counted", s)
	}
	for range 3 {
		if err := p.Resize(5); err != nil {
			t.Fatal(err)
		}
	}
	if s := p.Stats(); s.Resizes != 1 || s.Cap != 5 {
		t.Errorf("after Resize(5) x3: Cap %d, Resizes %d; want 5, 1", s.Cap, s.Resizes)
	}
}

// TestResizeSatisfiesContract: Pool and FuncPool are resize.Resizers.
func TestResizeSatisfiesContract(t *testing.T) {
	var _ resize.Resizer = (*pool.Pool)(nil)
	var _ resize.Resizer = (*pool.FuncPool[string])(nil)
}

// TestLoggerOptions: without a panic handler, a panic is reported through
// the configured logger, and counted.
func TestLoggerOptions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logged atomic.Int32
		q := mustNew(t, 1, pool.WithLogger(slog.New(countHandler{&logged})))
		if err := q.Submit(bg, func() { panic("boom") }); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if logged.Load() != 1 || q.Stats().Panicked != 1 {
			t.Errorf("slog handler called %d times, Panicked %d; want 1, 1", logged.Load(), q.Stats().Panicked)
		}
	})
}

type countHandler struct{ n *atomic.Int32 }

func (h countHandler) Enabled(context.Context, slog.Level) bool  { return true }
func (h countHandler) Handle(context.Context, slog.Record) error { h.n.Add(1); return nil }
func (h countHandler) WithAttrs([]slog.Attr) slog.Handler        { return h }
func (h countHandler) WithGroup(string) slog.Handler             { return h }
