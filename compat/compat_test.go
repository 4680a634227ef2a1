package compat_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/alitto/pond/v2"
	"github.com/panjf2000/ants/v2"
	"go.uber.org/goleak"

	"github.com/poolkit/poolkit/compat"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
)

// TestMain checks for leaked goroutines; ants starts two at import, which
// the baseline ignores.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m, goleak.IgnoreCurrent()) }

// Every adapter can be driven through the resize contract.
var (
	_ resize.Resizer = (*compat.Poolkit)(nil)
	_ resize.Resizer = (*compat.Ants)(nil)
	_ resize.Resizer = (*compat.AntsFunc)(nil)
	_ resize.Resizer = (*compat.AntsMulti)(nil)
	_ resize.Resizer = (*compat.Pond)(nil)
	_ resize.Resizer = (*compat.Tunny)(nil)
)

// The adapters of the libraries that can reopen a released pool offer it.
var (
	_ interface{ Reboot() } = (*compat.Poolkit)(nil)
	_ interface{ Reboot() } = (*compat.Ants)(nil)
	_ interface{ Reboot() } = (*compat.AntsFunc)(nil)
	_ interface{ Reboot() } = (*compat.AntsMulti)(nil)
)

func release(t *testing.T, p interface{ Release(context.Context) error }) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := p.Release(ctx); err != nil {
		t.Fatalf("Release = %v", err)
	}
}

// TestErrorVocabulary: library errors keep their identity and also match
// poolkit's vocabulary.
func TestErrorVocabulary(t *testing.T) {
	a, err := compat.NewAnts(1, compat.Options{Nonblocking: true})
	if err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	if err := a.Submit(func() { <-gate }); err != nil {
		t.Fatal(err)
	}
	err = a.Submit(func() {})
	if !errors.Is(err, pool.ErrPoolOverload) || !errors.Is(err, ants.ErrPoolOverload) {
		t.Errorf("ants overload = %v, want both ants.ErrPoolOverload and pool.ErrPoolOverload", err)
	}
	close(gate)
	release(t, a)
	err = a.Submit(func() {})
	if !errors.Is(err, pool.ErrPoolClosed) || !errors.Is(err, ants.ErrPoolClosed) || !errors.Is(err, resize.ErrClosed) {
		t.Errorf("ants closed = %v, want ants.ErrPoolClosed, pool.ErrPoolClosed and resize.ErrClosed", err)
	}

	p, _ := compat.NewPond(1, compat.Options{})
	release(t, p)
	if err := p.Submit(func() {}); !errors.Is(err, pool.ErrPoolClosed) || !errors.Is(err, pond.ErrPoolStopped) {
		t.Errorf("pond closed = %v, want pond.ErrPoolStopped and pool.ErrPoolClosed", err)
	}
}

// TestResizeGuards: pond and tunny adapters refuse sizes below 1, which
// the libraries would take as unbounded or as "stop every worker".
func TestResizeGuards(t *testing.T) {
	p, _ := compat.NewPond(2, compat.Options{})
	defer release(t, p)
	tn, _ := compat.NewTunny(2, compat.Options{})
	defer release(t, tn)
	for _, r := range []resize.Resizer{p, tn} {
		for _, n := range []int{0, -1} {
			if err := r.Resize(n); !errors.Is(err, resize.ErrInvalidSize) {
				t.Errorf("%T.Resize(%d) = %v, want resize.ErrInvalidSize", r, n, err)
			}
		}
		if r.Cap() != 2 {
			t.Errorf("%T.Cap() = %d after refused resizes, want 2", r, r.Cap())
		}
	}
}

// TestTunnyResizeIsBounded: tunny's SetSize blocks until the workers it
// removes finish their jobs; the adapter returns after 100ms instead, and
// the shrink completes later.
func TestTunnyResizeIsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tn, _ := compat.NewTunny(2, compat.Options{})
		gate := make(chan struct{})
		for range 2 {
			if err := tn.Submit(func() { <-gate }); err != nil {
				t.Fatal(err)
			}
		}
		start := time.Now()
		if err := tn.Resize(1); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d != 100*time.Millisecond {
			t.Errorf("Resize returned after %v, want 100ms", d)
		}
		if tn.Cap() != 1 {
			t.Errorf("Cap() = %d, want 1", tn.Cap())
		}
		close(gate)
		synctest.Wait()
		release(t, tn)
	})
}

// TestAntsMultiSizes: the MultiPool adapter starts with the total size it
// was asked for.
func TestAntsMultiSizes(t *testing.T) {
	for _, n := range []int{1, 2, 3, 8} {
		m, err := compat.NewAntsMulti(n, compat.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if m.Cap() != n {
			t.Errorf("NewAntsMulti(%d).Cap() = %d", n, m.Cap())
		}
		release(t, m)
	}
}
