//go:build poolkit_hooks && go1.25

package pool_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/poolkit/internal/testkit"
)

// The keyed protocol's windows (pool/keyed.go, K1-K4), each held open with
// a breakpoint while the test acts.

// TestBreakKeyIdle: K3. A turn has found its key's queue empty and dropped
// the key, and is held before it returns. A task submitted for the key
// meanwhile is not left with the old turn: it enters the pool as a new
// turn and runs, beside the held one or after it.
func TestBreakKeyIdle(t *testing.T) {
	for _, capacity := range []int{1, 2} {
		breakpoints(t)
		p := mustNew(t, capacity)
		kd := mustKeyed[string](t, p)
		paused, resume := pauseAt(t, "key-idle")
		// The first task ends only once its Submit has returned: a turn
		// that empties its queue before its admitter has seen the outcome
		// leaves the key to the admitter and never reaches key-idle.
		admitted := make(chan struct{})
		if err := kd.Submit(bg, "k", func() { <-admitted }); err != nil {
			t.Fatal(err)
		}
		close(admitted)
		<-paused
		ran := make(chan struct{})
		if err := kd.Submit(bg, "k", func() { close(ran) }); err != nil {
			t.Fatal(err)
		}
		if capacity > 1 && !testkit.Within(func() { <-ran }) {
			t.Fatalf("cap %d: the task submitted at the key's idle transition did not run beside the held turn", capacity)
		}
		resume()
		if !testkit.Within(func() { <-ran }) {
			t.Fatalf("cap %d: the task submitted at the key's idle transition never ran", capacity)
		}
	}
}

// TestBreakKeyAdmit: K2. A submitter has claimed an idle key and is held
// before it submits the key's turn. A second Submit for the key waits for
// that outcome as its ctx allows, and, once the first is accepted, joins
// the key's queue behind it.
func TestBreakKeyAdmit(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 2)
	kd := mustKeyed[string](t, p)
	paused, resume := pauseAt(t, "key-admit")
	var order []int
	first := make(chan error, 1)
	go func() { first <- kd.Submit(bg, "k", func() { order = append(order, 1) }) }()
	<-paused
	ctx, cancel := context.WithTimeout(bg, 10*time.Millisecond)
	defer cancel()
	if err := kd.Submit(ctx, "k", func() { t.Error("a refused task ran") }); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Submit while the key is being admitted = %v, want it to wait until DeadlineExceeded", err)
	}
	second := make(chan error, 1)
	go func() { second <- kd.Submit(bg, "k", func() { order = append(order, 2) }) }()
	resume()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	if len(order) != 2 || order[0] != 1 || order[1] != 2 {
		t.Errorf("tasks ran in the order %v, want [1 2]", order)
	}
}

// TestBreakKeyTurnBeforeShutdownNow: K4. A worker has taken a key's turn
// but not begun it when ShutdownNow is called. The turn is neither among
// the units the engine hands back nor running a task, and no task of the
// key may start in the pool after ShutdownNow: ShutdownNow hands the key
// back, the held turn stops at once, and the function runs the tasks.
func TestBreakKeyTurnBeforeShutdownNow(t *testing.T) {
	breakpoints(t)
	p := mustNew(t, 1)
	kd := mustKeyed[string](t, p)
	paused, resume := pauseAt(t, "key-turn")
	var ran []int
	shut := make(chan struct{})
	var calling atomic.Bool // the test calls the handed-back function
	for i := range 3 {
		if err := kd.Submit(bg, "k", func() {
			select {
			case <-shut:
			default:
				t.Errorf("task %d started in the pool, not handed back by ShutdownNow", i)
			}
			if !calling.Load() {
				t.Errorf("task %d ran on the pool's worker after ShutdownNow, not in the function it handed back", i)
			}
			ran = append(ran, i)
		}); err != nil {
			t.Fatal(err)
		}
	}
	back := shutdownNowWhileHeld(t, p, paused, resume, shut, "the key")
	calling.Store(true)
	back()
	if len(ran) != 3 || ran[0] != 0 || ran[2] != 2 {
		t.Errorf("the handed-back function ran %v, want [0 1 2]", ran)
	}
}
