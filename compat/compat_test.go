package compat_test

import (
	"context"
	"errors"
	"flag"
	"os"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/alitto/pond/v2"
	"github.com/panjf2000/ants/v2"
	"go.uber.org/goleak"

	"github.com/poolkit/poolkit/compat"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
	"github.com/poolkit/poolkit/spectest"
)

var (
	update     = flag.Bool("update", false, "rewrite MATRIX.md from this run's results")
	matrixJSON = flag.String("matrix-json", "", "write this run's results (a spectest.Report) as JSON to this file instead of checking MATRIX.md")
)

// TestMain checks for leaked goroutines (ants starts two at import, which
// the baseline ignores), except in the child processes the conformance
// suite starts: a leak there is the result of the pool under test.
func TestMain(m *testing.M) {
	flag.Parse()
	if spectest.IsChild() {
		os.Exit(m.Run())
	}
	goleak.VerifyTestMain(m, goleak.IgnoreCurrent())
}

// Every adapter can be driven through the resize contract.
var (
	_ resize.Resizer = (*compat.Poolkit)(nil)
	_ resize.Resizer = (*compat.Ants)(nil)
	_ resize.Resizer = (*compat.AntsFunc)(nil)
	_ resize.Resizer = (*compat.AntsFuncAny)(nil)
	_ resize.Resizer = (*compat.AntsMulti)(nil)
	_ resize.Resizer = (*compat.AntsMultiFunc)(nil)
	_ resize.Resizer = (*compat.PoolkitAnts)(nil)
	_ resize.Resizer = (*compat.PoolkitAntsFunc)(nil)
	_ resize.Resizer = (*compat.PoolkitAntsFuncAny)(nil)
	_ resize.Resizer = (*compat.PoolkitAntsMulti)(nil)
	_ resize.Resizer = (*compat.PoolkitAntsMultiFunc)(nil)
	_ resize.Resizer = (*compat.Pond)(nil)
	_ resize.Resizer = (*compat.Tunny)(nil)
)

// The adapters of the libraries that can reopen a released pool offer it.
var (
	_ interface{ Reboot() } = (*compat.Ants)(nil)
	_ interface{ Reboot() } = (*compat.AntsFunc)(nil)
	_ interface{ Reboot() } = (*compat.AntsFuncAny)(nil)
	_ interface{ Reboot() } = (*compat.AntsMulti)(nil)
	_ interface{ Reboot() } = (*compat.AntsMultiFunc)(nil)
	_ interface{ Reboot() } = (*compat.PoolkitAnts)(nil)
	_ interface{ Reboot() } = (*compat.PoolkitAntsFunc)(nil)
	_ interface{ Reboot() } = (*compat.PoolkitAntsFuncAny)(nil)
	_ interface{ Reboot() } = (*compat.PoolkitAntsMulti)(nil)
	_ interface{ Reboot() } = (*compat.PoolkitAntsMultiFunc)(nil)
)

// The drop-in's single pools count finished tasks.
var (
	_ interface{ Completed() uint64 } = (*compat.PoolkitAnts)(nil)
	_ interface{ Completed() uint64 } = (*compat.PoolkitAntsFunc)(nil)
	_ interface{ Completed() uint64 } = (*compat.PoolkitAntsFuncAny)(nil)
)

func release(t *testing.T, p interface{ Shutdown(context.Context) error }) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := p.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown = %v", err)
	}
}

// TestErrorVocabulary: library errors keep their identity and also match
// the kinds of package resize, and poolkit's errors of those kinds.
func TestErrorVocabulary(t *testing.T) {
	a, err := compat.NewAnts(spectest.Config{Size: 1, Nonblocking: true})
	if err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	if err := a.Submit(func() { <-gate }); err != nil {
		t.Fatal(err)
	}
	err = a.Submit(func() {})
	if !errors.Is(err, pool.ErrOverload) || !errors.Is(err, ants.ErrPoolOverload) || !errors.Is(err, resize.ErrOverload) {
		t.Errorf("ants overload = %v, want ants.ErrPoolOverload, pool.ErrOverload and resize.ErrOverload", err)
	}
	close(gate)
	release(t, a)
	err = a.Submit(func() {})
	if !errors.Is(err, pool.ErrClosed) || !errors.Is(err, ants.ErrPoolClosed) || !errors.Is(err, resize.ErrClosed) {
		t.Errorf("ants closed = %v, want ants.ErrPoolClosed, pool.ErrClosed and resize.ErrClosed", err)
	}

	p, _ := compat.NewPond(spectest.Config{Size: 1})
	release(t, p)
	if err := p.Submit(func() {}); !errors.Is(err, pool.ErrClosed) || !errors.Is(err, pond.ErrPoolStopped) || !errors.Is(err, resize.ErrClosed) {
		t.Errorf("pond closed = %v, want pond.ErrPoolStopped, pool.ErrClosed and resize.ErrClosed", err)
	}

	// errgroup reports a refusal with false, not an error; the adapter
	// names it with the vocabulary.
	g, _ := compat.NewErrgroup(spectest.Config{Size: 1, Nonblocking: true})
	busy := make(chan struct{})
	if err := g.Submit(func() { <-busy }); err != nil {
		t.Fatal(err)
	}
	if err := g.Submit(func() {}); !errors.Is(err, resize.ErrOverload) || !errors.Is(err, pool.ErrOverload) {
		t.Errorf("errgroup TryGo refused = %v, want resize.ErrOverload and pool.ErrOverload", err)
	}
	close(busy)
	release(t, g)
}

// TestResizeGuards: pond and tunny adapters refuse sizes below 1, which
// the libraries would take as unbounded or as "stop every worker".
func TestResizeGuards(t *testing.T) {
	p, _ := compat.NewPond(spectest.Config{Size: 2})
	defer release(t, p)
	tn, _ := compat.NewTunny(spectest.Config{Size: 2})
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
		tn, _ := compat.NewTunny(spectest.Config{Size: 2})
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

// resizablePool is what the adapters below have in common.
type resizablePool interface {
	resize.Resizer
	Submit(func()) error
	Shutdown(context.Context) error
}

// TestMultiSizes: the multi-pool adapters start with the total size they
// were asked for.
func TestMultiSizes(t *testing.T) {
	builds := map[string]func(int) (resizablePool, error){
		"AntsMulti":            func(n int) (resizablePool, error) { return compat.NewAntsMulti(spectest.Config{Size: n}) },
		"AntsMultiFunc":        func(n int) (resizablePool, error) { return compat.NewAntsMultiFunc(spectest.Config{Size: n}) },
		"PoolkitAntsMulti":     func(n int) (resizablePool, error) { return compat.NewPoolkitAntsMulti(spectest.Config{Size: n}) },
		"PoolkitAntsMultiFunc": func(n int) (resizablePool, error) { return compat.NewPoolkitAntsMultiFunc(spectest.Config{Size: n}) },
	}
	for name, build := range builds {
		for _, n := range []int{1, 2, 3, 8} {
			m, err := build(n)
			if err != nil {
				t.Fatal(err)
			}
			if m.Cap() != n {
				t.Errorf("New%s(%d).Cap() = %d", name, n, m.Cap())
			}
			release(t, m)
		}
	}
}

// TestFuncAdaptersRunTasks: the adapters of the pools with a function run
// the submitted task, which they pass as the argument.
func TestFuncAdaptersRunTasks(t *testing.T) {
	builds := map[string]func() (resizablePool, error){
		"AntsFunc":             func() (resizablePool, error) { return compat.NewAntsFunc(spectest.Config{Size: 2}) },
		"AntsFuncAny":          func() (resizablePool, error) { return compat.NewAntsFuncAny(spectest.Config{Size: 2}) },
		"AntsMultiFunc":        func() (resizablePool, error) { return compat.NewAntsMultiFunc(spectest.Config{Size: 2}) },
		"PoolkitAntsFunc":      func() (resizablePool, error) { return compat.NewPoolkitAntsFunc(spectest.Config{Size: 2}) },
		"PoolkitAntsFuncAny":   func() (resizablePool, error) { return compat.NewPoolkitAntsFuncAny(spectest.Config{Size: 2}) },
		"PoolkitAntsMultiFunc": func() (resizablePool, error) { return compat.NewPoolkitAntsMultiFunc(spectest.Config{Size: 2}) },
	}
	for name, build := range builds {
		p, err := build()
		if err != nil {
			t.Fatal(err)
		}
		ran := make(chan struct{})
		if err := p.Submit(func() { close(ran) }); err != nil {
			t.Fatalf("%s: Submit = %v", name, err)
		}
		select {
		case <-ran:
		case <-time.After(10 * time.Second):
			t.Errorf("%s: the submitted task did not run", name)
		}
		release(t, p)
	}
}

// TestPoolkitAntsResize: the drop-in's adapters report what Resize refuses, in
// poolkit's vocabulary, and a multi-pool refuses a capacity below its
// number of sub-pools.
func TestPoolkitAntsResize(t *testing.T) {
	d, _ := compat.NewPoolkitAnts(spectest.Config{Size: 2})
	if err := d.Resize(0); !errors.Is(err, resize.ErrInvalidSize) {
		t.Errorf("PoolkitAnts.Resize(0) = %v, want resize.ErrInvalidSize", err)
	}
	release(t, d)
	if err := d.Resize(3); !errors.Is(err, resize.ErrClosed) || !errors.Is(err, pool.ErrClosed) {
		t.Errorf("PoolkitAnts.Resize(3) after release = %v, want resize.ErrClosed and pool.ErrClosed", err)
	}
	m, _ := compat.NewPoolkitAntsMulti(spectest.Config{Size: 4}) // 2 sub-pools of 2
	defer release(t, m)
	if err := m.Resize(1); !errors.Is(err, resize.ErrInvalidSize) || m.Cap() != 4 {
		t.Errorf("PoolkitAntsMulti(4).Resize(1) = %v, Cap() = %d; want resize.ErrInvalidSize, 4", err, m.Cap())
	}
	if err := m.Resize(3); err != nil || m.Cap() != 3 {
		t.Errorf("PoolkitAntsMulti(4).Resize(3) = %v, Cap() = %d; want nil, 3", err, m.Cap())
	}
}

// TestPondSubmit: the adapter of pond's Submit, which has no column of its
// own in the matrix, runs every task it is given and closes as Pond does.
func TestPondSubmit(t *testing.T) {
	p, err := compat.NewPondSubmit(spectest.Config{Size: 4})
	if err != nil {
		t.Fatal(err)
	}
	var ran atomic.Int64
	for range 100 {
		if err := p.Submit(func() { ran.Add(1) }); err != nil {
			t.Fatal(err)
		}
	}
	release(t, p)
	if n := ran.Load(); n != 100 {
		t.Errorf("%d of 100 tasks ran before Release returned", n)
	}
}
