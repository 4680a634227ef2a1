//go:build go1.22

package promcollector_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/promcollector"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.prom from the collector's output")

const goldenFile = "testdata/golden.prom"

// goldenMetrics are the metrics whose values the golden state fixes. Left
// out: the worker gauges of a pool (idle workers expire on a timer) and the
// histograms (their buckets depend on timing; TestHistogram* check them).
var goldenMetrics = []string{
	"poolkit_pool_capacity",
	"poolkit_pool_running_tasks",
	"poolkit_pool_waiting_tasks",
	"poolkit_pool_keys",
	"poolkit_pool_keyed_waiting_tasks",
	"poolkit_pool_submitted_tasks_total",
	"poolkit_pool_completed_tasks_total",
	"poolkit_pool_rejected_tasks_total",
	"poolkit_pool_panicked_tasks_total",
	"poolkit_pool_returned_tasks_total",
	"poolkit_pool_expired_tasks_total",
	"poolkit_pool_shed_tasks_total",
	"poolkit_pool_resizes_total",

	"poolkit_autoscaler_target_workers",
	"poolkit_autoscaler_min_workers",
	"poolkit_autoscaler_max_workers",
	"poolkit_autoscaler_knee_workers",
	"poolkit_autoscaler_decisions_total",
	"poolkit_autoscaler_resizes_total",

	"poolkit_actor_workers",
	"poolkit_actor_live_actors",
	"poolkit_actor_mailbox_messages",
	"poolkit_actor_spawned_total",
	"poolkit_actor_stopped_total",
	"poolkit_actor_dead_letters_total",
	"poolkit_actor_refused_messages_total",
	"poolkit_actor_panics_total",
	"poolkit_actor_restarts_total",

	"poolkit_router_workers",
	"poolkit_router_forwarded_messages_total",
	"poolkit_router_unhandled_messages_total",
	"poolkit_router_restarts_total",
}

// TestGolden drives a pool, its autoscaler, an actor system and a router
// into a known state and compares the exposition with testdata/golden.prom
// (go test -run TestGolden -update rewrites it).
func TestGolden(t *testing.T) {
	c := promcollector.New()
	goldenPool(t, c)
	goldenKeyed(t, c)
	goldenScheduled(t, c)
	goldenActors(t, c)

	if *update {
		got, err := testutil.CollectAndFormat(c, expfmt.TypeTextPlain, goldenMetrics...)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(goldenFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", goldenFile)
	}
	want, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := testutil.CollectAndCompare(c, bytes.NewReader(want), goldenMetrics...); err != nil {
		t.Error(err)
	}
}

// goldenPool leaves a released pool "work" of 4 that has completed 10
// tasks (one panicked), refused one for each reason and been resized
// twice, and its autoscaler after one tick of an idle pool.
func goldenPool(t *testing.T, c *promcollector.Collector) {
	t.Helper()
	panicked := make(chan any, 1)
	// Room for 2 waiting tasks, and no blocking beyond: an overload is
	// then a submission while 4 run and 2 wait.
	p := newPool(t, 4, pool.WithMaxWaiting(0), pool.WithQueueSize(2),
		pool.WithPanicHandler(func(v any) { panicked <- v }))
	// Bounds of 4 and 4 hold an idle pool at its size: one tick, steady.
	ctl := newController(t, p, autoscale.WithMin(4), autoscale.WithMax(4))
	if d := ctl.Tick(); d.Cause != autoscale.CauseSteady || d.To != 4 {
		t.Fatalf("first tick: %+v, want steady at 4", d)
	}
	if err := c.WatchPool("work", p); err != nil {
		t.Fatal(err)
	}
	if err := c.WatchAutoscaler("work", ctl); err != nil {
		t.Fatal(err)
	}
	submit := func(f func()) {
		t.Helper()
		if err := p.Submit(context.Background(), f); err != nil {
			t.Fatal(err)
		}
	}
	quiet := func(completed uint64) {
		t.Helper()
		settle(t, "a quiescent pool", func() bool {
			s := p.Stats()
			return s.Completed == completed && s.Running == 0 && s.Waiting == 0
		})
	}

	gate := make(chan struct{})
	var running sync.WaitGroup
	running.Add(4)
	for range 4 {
		submit(func() { running.Done(); <-gate })
	}
	running.Wait()
	submit(func() {})
	submit(func() {})
	if err := p.Submit(context.Background(), func() {}); !errors.Is(err, pool.ErrOverload) {
		t.Fatalf("submit to a saturated pool: %v, want %v", err, pool.ErrOverload)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.Submit(ctx, func() {}); !errors.Is(err, context.Canceled) {
		t.Fatalf("submit with a done context: %v, want %v", err, context.Canceled)
	}
	close(gate)
	quiet(6)

	submit(func() { panic("golden") })
	<-panicked
	for range 3 {
		submit(func() {})
	}
	quiet(10)

	for _, n := range []int{6, 4} {
		if err := p.Resize(n); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := p.Submit(context.Background(), func() {}); !errors.Is(err, pool.ErrClosed) {
		t.Fatalf("submit to a released pool: %v, want %v", err, pool.ErrClosed)
	}
}

// goldenKeyed leaves a pool "keyed" of 1 worker running the first task
// of key "a", whose two other tasks wait in its queue, with key "b"
// waiting for the worker: 2 keys, 3 keyed tasks waiting, 1 task (b's
// turn) in the pool's queue. The test's end releases it.
func goldenKeyed(t *testing.T, c *promcollector.Collector) {
	t.Helper()
	p := newPool(t, 1)
	kd, err := pool.NewKeyed[string](p)
	if err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	t.Cleanup(func() { close(gate) })
	started := make(chan struct{})
	for i, k := range []string{"a", "a", "a", "b"} {
		f := func() {}
		if i == 0 {
			f = func() { close(started); <-gate }
		}
		if err := kd.Submit(context.Background(), k, f); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			<-started
		}
	}
	if err := c.WatchPool("keyed", p); err != nil {
		t.Fatal(err)
	}
}

// goldenScheduled leaves a pool "scheduled" of 1 worker, busy, with a
// Scheduler of 2 places: a class-0 task was shed for a class-1 one, a
// class-1 task expired (its context was cancelled), and a class-0 task
// was refused; 1 scheduled task waits. The test's end releases it.
func goldenScheduled(t *testing.T, c *promcollector.Collector) {
	t.Helper()
	p := newPool(t, 1)
	s, err := pool.NewScheduler(p, pool.WithQueueSize(2))
	if err != nil {
		t.Fatal(err)
	}
	gate, started := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(gate) })
	if err := p.Submit(context.Background(), func() { close(started); <-gate }); err != nil {
		t.Fatal(err)
	}
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	for _, sub := range []struct {
		ctx   context.Context
		class pool.Class
		want  error
	}{
		{context.Background(), 0, nil},          // waits
		{ctx, 1, nil},                           // waits, then expires
		{context.Background(), 1, nil},          // sheds the first
		{context.Background(), 0, pool.ErrShed}, // refused
	} {
		if err := s.Submit(sub.ctx, sub.class, func() {}); !errors.Is(err, sub.want) {
			t.Fatalf("Submit(class %d) = %v, want %v", sub.class, err, sub.want)
		}
	}
	cancel()
	for p.Stats().Expired == 0 {
		runtime.Gosched()
	}
	if err := c.WatchPool("scheduled", p); err != nil {
		t.Fatal(err)
	}
}

// goldenActors leaves a system "actors" of 2 workers with a router
// "router" of 3 workers that has forwarded 13 messages and left 1
// unhandled, and an actor with a mailbox of 1 that refused a message, with
// one actor stopped and one nil message refused.
func goldenActors(t *testing.T, c *promcollector.Collector) {
	t.Helper()
	sys := newSystem(t, actorpool.WithWorkers(2))
	if err := c.WatchSystem("actors", sys); err != nil {
		t.Fatal(err)
	}

	gate, handling := make(chan struct{}), make(chan struct{})
	slow, err := sys.Spawn(func() actorpool.Behavior {
		return actorpool.BehaviorFunc(func(_ *actorpool.Context, msg any) {
			if msg == "block" {
				close(handling)
				<-gate
			}
		})
	}, actorpool.WithMailboxSize(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range []string{"block", "queued"} {
		if err := slow.Tell(msg); err != nil {
			t.Fatal(err)
		}
		if msg == "block" {
			<-handling // out of the mailbox: the next one fills it
		}
	}
	if err := slow.Tell("refused"); !errors.Is(err, actorpool.ErrMailboxFull) {
		t.Fatalf("tell to a full mailbox: %v, want %v", err, actorpool.ErrMailboxFull)
	}
	close(gate)
	if err := slow.Tell(nil); !errors.Is(err, actorpool.ErrNilMessage) {
		t.Fatalf("tell nil: %v, want %v", err, actorpool.ErrNilMessage)
	}

	brief, err := sys.Spawn(echo)
	if err != nil {
		t.Fatal(err)
	}
	if err := brief.Stop(); err != nil {
		t.Fatal(err)
	}

	r, err := actorpool.NewRouter(sys, 3, echo, actorpool.WithTimings())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.WatchRouter("router", r); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if err := r.Ref().Tell(i); err != nil {
			t.Fatal(err)
		}
	}
	for range r.Cap() { // one per worker, each behind what it was told
		if _, err := r.Ref().Ask(context.Background(), "sync"); err != nil {
			t.Fatal(err)
		}
	}
	// With no router behaviour, a Priority message is counted unhandled.
	if err := r.Ref().Tell(actorpool.Priority{Msg: "own"}); err != nil {
		t.Fatal(err)
	}
	settle(t, "a quiescent system", func() bool {
		s, rs := sys.Stats(), r.Stats()
		return s.Queued == 0 && s.Stopped == 1 && rs.Unhandled == 1
	})
}
