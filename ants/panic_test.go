//go:build go1.25

package ants_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/ants"
)

// TestPanicEndsWorker checks ants' worker on a panic: it leaves the pool
// before the panic handler runs, so that the handler sees Running without
// it, and the next task starts a fresh worker; the capacity is kept.
func TestPanicEndsWorker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var seen []int
		var p *ants.Pool
		p, _ = ants.NewPool(2, ants.WithPanicHandler(func(any) { seen = append(seen, p.Running()) }))
		if err := p.Submit(func() { panic("boom") }); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if len(seen) != 1 || seen[0] != 0 || p.Running() != 0 {
			t.Fatalf("Running %v in the handler, %d after it; want [0], 0", seen, p.Running())
		}
		hold := make(chan struct{})
		for range 2 {
			if err := p.Submit(func() { <-hold }); err != nil {
				t.Fatal(err)
			}
		}
		if p.Running() != 2 || p.Stats().Running != 2 {
			t.Errorf("Running %d, tasks %d after two tasks; want 2, 2", p.Running(), p.Stats().Running)
		}
		close(hold)
		if err := p.ReleaseTimeout(time.Second); err != nil {
			t.Fatal(err)
		}
	})
}

// TestPanicsWithBlockedSubmitters checks that workers leaving on panics
// lose no task and no wake-up: with blocked submitters and tasks that
// panic, call runtime.Goexit or return, every accepted task runs once, the
// pool never runs more than its capacity, and the release returns.
func TestPanicsWithBlockedSubmitters(t *testing.T) {
	for _, handler := range []struct {
		name string
		h    func(any)
	}{
		{"handler returns", func(any) {}},
		{"handler calls Goexit", func(any) { runtime.Goexit() }},
	} {
		t.Run(handler.name, func(t *testing.T) {
			const size, submitters, each = 3, 8, 200
			p, err := ants.NewPool(size, ants.WithPanicHandler(handler.h))
			if err != nil {
				t.Fatal(err)
			}
			var ran, running, most atomic.Int64
			var wg sync.WaitGroup
			for s := range submitters {
				wg.Go(func() {
					for i := range each {
						err := p.Submit(func() {
							n := running.Add(1)
							for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
							}
							ran.Add(1)
							runtime.Gosched()
							running.Add(-1)
							switch (s + i) % 3 {
							case 0:
								panic("task panicked")
							case 1:
								runtime.Goexit()
							}
						})
						if err != nil {
							t.Errorf("Submit: %v", err)
							return
						}
					}
				})
			}
			wg.Wait()
			if err := p.ReleaseTimeout(10 * time.Second); err != nil {
				t.Fatal(err)
			}
			if ran.Load() != submitters*each || most.Load() > size {
				t.Errorf("%d of %d tasks ran, at most %d at once; want all, at most %d", ran.Load(), submitters*each, most.Load(), size)
			}
			if s := p.Stats(); s.Completed != submitters*each || s.Workers != 0 {
				t.Errorf("Completed %d, workers %d after the release; want %d, 0", s.Completed, s.Workers, submitters*each)
			}
		})
	}
}
