//go:build go1.25

package pool_test

import (
	"errors"
	"testing"
	"testing/synctest"

	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
)

// TestErrorKinds: the errors a pool returns for rejected work match the
// kinds of package resize, so that code driving many pools matches them
// without importing this package, and each matches its own kind only.
func TestErrorKinds(t *testing.T) {
	kinds := []error{resize.ErrClosed, resize.ErrOverload, resize.ErrInvalidSize}
	for _, c := range []struct {
		err, kind error
	}{
		{pool.ErrClosed, resize.ErrClosed},
		{pool.ErrOverload, resize.ErrOverload},
		{pool.ErrInvalidSize, resize.ErrInvalidSize},
	} {
		for _, k := range kinds {
			if got, want := errors.Is(c.err, k), k == c.kind; got != want {
				t.Errorf("errors.Is(%v, %v) = %v, want %v", c.err, k, got, want)
			}
		}
	}
	if got := pool.ErrOverload.Error(); got != "pool: overloaded" {
		t.Errorf("ErrOverload says %q, want %q", got, "pool: overloaded")
	}

	// The values the entry points return, not only the sentinels.
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(0), pool.WithMaxWaiting(0))
		fp, err := pool.NewFunc(1, func(ch chan struct{}) { <-ch }, pool.WithQueueSize(0), pool.WithMaxWaiting(0))
		if err != nil {
			t.Fatal(err)
		}
		gate := make(chan struct{})
		if err := p.Submit(bg, func() { <-gate }); err != nil {
			t.Fatal(err)
		}
		if err := fp.Invoke(bg, gate); err != nil {
			t.Fatal(err)
		}
		if err := p.Submit(bg, func() {}); !errors.Is(err, resize.ErrOverload) {
			t.Errorf("Submit on a saturated non-blocking pool = %v, want an error matching resize.ErrOverload", err)
		}
		if err := fp.Invoke(bg, gate); !errors.Is(err, resize.ErrOverload) {
			t.Errorf("Invoke on a saturated non-blocking pool = %v, want an error matching resize.ErrOverload", err)
		}
		close(gate)
		fp.Close()
		if err := fp.Invoke(bg, gate); !errors.Is(err, resize.ErrClosed) {
			t.Errorf("Invoke after Close = %v, want an error matching resize.ErrClosed", err)
		}
	})
}
